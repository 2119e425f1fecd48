import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { SubresourceDefinition } from '../../apis/resource-definition.js';
import type { ServedResource } from '../../registry/resource-set/index.js';
import type { RequestContext } from '../../registry/types.js';
import type { ApiRequest, ApiResponse } from '../handler.js';

/**
 * kube's `SplitSchemeNamePort`: `name`, `name:port` or `scheme:name:port` (scheme `http` or
 * `https`); the object's name is the part that names it.
 */
export function connectTargetName(id: string): string | undefined {
  const parts = id.split(':');
  if (parts.length === 1) return parts[0];
  if (parts.length === 2) return parts[0];
  if (parts.length === 3 && (parts[0] === '' || parts[0] === 'http' || parts[0] === 'https')) return parts[1];
  return undefined;
}

/**
 * A request to a connect sub-resource (`services/<name>/proxy/...`): the verb must be one the
 * sub-resource serves (405 otherwise), the parent must exist (404 otherwise, read from the
 * store), then the sub-resource answers.
 */
export async function handleConnect(
  served: ServedResource,
  sub: SubresourceDefinition,
  req: ApiRequest,
  ctx: RequestContext,
): Promise<ApiResponse> {
  const info = ctx.info;
  if (!sub.verbs.includes(info.verb)) {
    throw new StatusError(
      405,
      'MethodNotAllowed',
      `the server does not allow this method on the requested resource (${info.verb})`,
    );
  }
  const name = connectTargetName(info.name);
  if (!name) throw apiErrors.badRequest(`invalid ${served.def.singular} request ${JSON.stringify(info.name)}`);
  const parent = await served.store.get(ctx, name, {});
  return sub.connect!.connect(ctx, parent, info.parts.slice(3).join('/'), req.query);
}
