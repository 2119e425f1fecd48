import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { applyMergePatch } from '../../patch/merge-patch.js';
import type { RequestContext } from '../../registry/types.js';
import type { ApiRequest, ApiResponse } from '../handler.js';
import type { ServedResource } from '../served-resources.js';
import { MAX_REQUEST_BODY_BYTES } from './decode-body.js';
import { parseDryRun } from './request-options.js';
import { objectResponse } from './responses.js';

const PATCH_TYPES = ['application/merge-patch+json'];

/**
 * PATCH: the patch is applied inside the registry's retry loop against the live object. A
 * `metadata.resourceVersion` in the patch makes it conditional (409 on mismatch).
 */
export async function handlePatch(served: ServedResource, req: ApiRequest, ctx: RequestContext): Promise<ApiResponse> {
  const info = req.info!;
  const media = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!PATCH_TYPES.includes(media)) throw apiErrors.unsupportedMediaType(media, PATCH_TYPES);
  const dryRun = parseDryRun(req.query.getAll('dryRun'));
  const raw = (await req.readBody(MAX_REQUEST_BODY_BYTES)).toString('utf8');
  let patch: unknown;
  try {
    patch = JSON.parse(raw);
  } catch (e) {
    throw new StatusError(400, 'BadRequest', `error decoding patch: ${(e as Error).message}`, undefined, { cause: e });
  }
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw apiErrors.badRequest('a merge patch must be a JSON object');
  }
  const pinned = (patch as { metadata?: { resourceVersion?: unknown } }).metadata?.resourceVersion;
  const r = await served.store.update(
    ctx,
    info.name,
    {
      retryOnConflict: pinned === undefined,
      compute(live) {
        if (!live) throw apiErrors.notFound({ group: served.def.group, resource: served.def.resource }, info.name);
        return applyMergePatch(live, patch) as ApiObject;
      },
    },
    { dryRun, subresource: info.subresource || undefined },
  );
  return objectResponse(req, 200, r.obj);
}
