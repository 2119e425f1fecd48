import { StatusError } from '../../apis/meta/status.js';
import type { SubresourceDefinition } from '../../apis/resource-definition.js';
import type { RequestContext } from '../../registry/types.js';
import type { ApiRequest, ApiResponse } from '../handler.js';
import { type ResponseConfig, writeValue } from './response-writer.js';

/**
 * A request to a connect sub-resource (`pods/<name>/log`, `exec`, `attach`, `portforward`,
 * `proxy[/<path>]`): methods outside the sub-resource's verbs are 405; otherwise the
 * sub-resource's `connect` answers (its errors become `Status` responses).
 */
export async function handleSubresourceConnect(
  sub: SubresourceDefinition,
  req: ApiRequest,
  ctx: RequestContext,
  cfg: ResponseConfig,
): Promise<ApiResponse> {
  const connect = sub.connect!;
  const info = ctx.info;
  if (!info.name || !sub.verbs.includes(info.verb)) {
    throw new StatusError(
      405,
      'MethodNotAllowed',
      `the server does not allow this method on the requested resource (${info.verb})`,
    );
  }
  const answer = await connect.connect(
    ctx,
    { namespace: ctx.namespace, name: info.name },
    { method: req.method, subpath: info.parts.slice(3).join('/'), query: req.query },
  );
  return writeValue(req, cfg, 200, answer);
}
