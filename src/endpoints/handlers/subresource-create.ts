import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { SubresourceDefinition } from '../../apis/resource-definition.js';
import type { ServedResource } from '../../registry/resource-set/index.js';
import type { RequestContext } from '../../registry/types.js';
import type { ApiRequest, ApiResponse } from '../handler.js';
import { decodeObjectBody, fieldValidationOf } from './decode-body.js';
import { writeManager } from './field-managers.js';
import { parseDryRun } from './request-options.js';
import { type ResponseConfig, writeCreated } from './response-writer.js';
import { viewDefinition } from './subresource-kind.js';

/**
 * POST to a sub-resource that computes its answer (`serviceaccounts/<name>/token`): the body is
 * decoded as the sub-resource's kind, the parent's registry runs admission and the computation,
 * and the answer is written as that kind with 201 Created. Other methods are 405.
 */
export async function handleSubresourceCreate(
  served: ServedResource,
  sub: SubresourceDefinition,
  req: ApiRequest,
  ctx: RequestContext,
  cfg: ResponseConfig,
): Promise<ApiResponse> {
  const kind = sub.create!;
  const info = ctx.info;
  if (info.verb !== 'create' || !info.name) {
    throw new StatusError(
      405,
      'MethodNotAllowed',
      `the server does not allow this method on the requested resource (${info.verb})`,
    );
  }
  const view = viewDefinition(served.def, kind);
  const manager = writeManager(req, 'CreateOptions');
  const dryRun = parseDryRun(req.query.getAll('dryRun'));
  const body = await decodeObjectBody(req, view, {
    directive: fieldValidationOf(req, 'CreateOptions'),
    cborEnabled: cfg.cborEnabled,
  });
  for (const w of body.warnings) ctx.warnings.add(w);
  const answer = await served.store.createSubresource(ctx, info.name, sub.name, body.obj as ApiObject, {
    dryRun,
    fieldManager: manager,
  });
  return writeCreated(req, cfg, view, answer);
}
