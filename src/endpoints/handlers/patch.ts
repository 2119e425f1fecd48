import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { pruneUnknownFields } from '../../apis/schema/prune.js';
import type { Schema } from '../../apis/schema/schema.js';
import {
  decodeJsonStrict,
  decodeUtf8Lenient,
  fieldValidation,
  JsonSyntaxError,
  negotiatePatchType,
  type PatchType,
  StrictDecodingError,
  UnsupportedMediaTypeError,
} from '../../encoding/index.js';
import { JsonPatchError, StrategicMergePatchError } from '../../patch/errors.js';
import { applyJsonPatch } from '../../patch/json-patch.js';
import { applyMergePatch } from '../../patch/merge-patch.js';
import { patchErrorToStatusError } from '../../patch/patch-status.js';
import { applyStrategicMergePatch } from '../../patch/strategic-merge.js';
import type { ServedResource } from '../../registry/resource-set/index.js';
import type { RequestContext } from '../../registry/types.js';
import type { ApiRequest } from '../handler.js';
import { handleApply, type WriteResult } from './apply.js';
import { fieldValidationOf, MAX_REQUEST_BODY_BYTES } from './decode-body.js';
import { patchManager } from './field-managers.js';
import { dedupOwnerReferences } from './owner-references.js';
import { parseDryRun } from './request-options.js';
import type { ResponseConfig } from './response-writer.js';

type Patcher = (live: ApiObject) => unknown;

/** Applies a JSON, merge or strategic merge patch (strategic merge keys from `schema`). */
export function patcherFor(schema: Schema, type: PatchType, patch: unknown): Patcher {
  switch (type) {
    case 'json-patch':
      return (live) => applyJsonPatch(live, patch);
    case 'merge-patch':
      return (live) => applyMergePatch(live, patch);
    default:
      return (live) => applyStrategicMergePatch(live, patch, schema);
  }
}

/** A `metadata.resourceVersion` inside a patch makes it conditional on that version. */
export function pinnedResourceVersion(type: PatchType, patch: unknown): boolean {
  if (type === 'json-patch') {
    return (
      Array.isArray(patch) &&
      patch.some(
        (op) =>
          typeof op === 'object' && op !== null && (op as { path?: unknown }).path === '/metadata/resourceVersion',
      )
    );
  }
  const meta = (patch as { metadata?: { resourceVersion?: unknown } } | null)?.metadata;
  return (
    typeof meta === 'object' && meta !== null && meta.resourceVersion !== undefined && meta.resourceVersion !== null
  );
}

/** Nulls left by a patch mean "unset", as decoding into typed objects treats them. */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = dropNulls(x);
  return out;
}

/**
 * PATCH with a JSON patch, merge patch or strategic merge patch, or a server-side apply (see
 * `handleApply`); the type is the `Content-Type` up to its first `;`, compared exactly (415
 * otherwise). The patch is applied inside the registry's retry loop against the live object,
 * then the field manager records what the writer (`fieldManager`, else the `User-Agent`)
 * changed; a `metadata.resourceVersion` in the patch makes it conditional (409 on mismatch); a
 * missing object is a 404. `force` is refused (422) on these patch types.
 */
export async function handlePatch(
  served: ServedResource,
  req: ApiRequest,
  ctx: RequestContext,
  o: { readonly cfg: ResponseConfig },
): Promise<WriteResult> {
  const info = req.info!;
  let type: PatchType;
  try {
    type = negotiatePatchType(req.headers['content-type'], {
      strategicMerge: served.def.strategicMergePatch !== false,
      cborEnabled: o.cfg.cborEnabled,
    }).patchType;
  } catch (e) {
    if (e instanceof UnsupportedMediaTypeError) throw e.toStatusError();
    throw e;
  }
  if (type === 'apply-yaml' || type === 'apply-cbor') {
    return handleApply(served, req, ctx, { type });
  }
  const { manager } = patchManager(req, false);
  const subresource = info.subresource || undefined;
  const dryRun = parseDryRun(req.query.getAll('dryRun'));
  const directive = fieldValidationOf(req, 'PatchOptions');
  const raw = decodeUtf8Lenient(await req.readBody(MAX_REQUEST_BODY_BYTES));
  let patch: unknown;
  let duplicates: ReturnType<typeof decodeJsonStrict>['duplicates'] = [];
  try {
    const r = decodeJsonStrict(raw, { detectDuplicates: directive !== 'Ignore' && type !== 'json-patch' });
    patch = r.value;
    duplicates = r.duplicates;
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      throw new StatusError(400, 'BadRequest', `error decoding patch: ${e.message}`, undefined, { cause: e });
    }
    throw e;
  }
  let warnings: string[] = [];
  if (type !== 'json-patch' && patch !== null && (typeof patch !== 'object' || Array.isArray(patch))) {
    throw apiErrors.badRequest(
      `json: cannot unmarshal ${Array.isArray(patch) ? 'array' : typeof patch} into Go value of type map[string]interface {}`,
    );
  }
  const apply = patcherFor(served.def.schema, type, patch);
  const r = await served.store.update(
    ctx,
    info.name,
    {
      retryOnConflict: !pinnedResourceVersion(type, patch),
      compute(live) {
        if (!live) throw apiErrors.notFound({ group: served.def.group, resource: served.def.resource }, info.name);
        if (patch === null) return live;
        try {
          const patched = dropNulls(apply(live)) as ApiObject;
          // Fields the schema does not know are dropped and reported per fieldValidation.
          const unknown = pruneUnknownFields(served.def.schema, patched as unknown as Record<string, unknown>);
          try {
            warnings = fieldValidation(directive, {
              unknown,
              duplicates,
              kind: served.def.schema['x-orch-type-name'] ? 'typed' : 'unstructured',
            }).warnings;
          } catch (err) {
            if (err instanceof StrictDecodingError) throw apiErrors.badRequest(err.message);
            throw err;
          }
          // kube dedups a patched object's owner references once the patch is applied.
          const dedup = dedupOwnerReferences(patched, { afterAdmission: true });
          if (dedup !== undefined) warnings = [...warnings, dedup];
          return patched;
        } catch (e) {
          if (e instanceof JsonPatchError || e instanceof StrategicMergePatchError) throw patchErrorToStatusError(e);
          throw e;
        }
      },
    },
    { dryRun, subresource, fieldManager: manager },
  );
  return { obj: r.obj, created: r.created, warnings };
}
