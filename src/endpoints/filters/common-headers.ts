import type { ApiRequest, ApiResponse, Filter } from '../handler.js';
import { uuidSource } from '../request/uuid-source.js';

const NO_CACHE = 'no-cache, private';

/**
 * The headers every answer carries, errors included, set in one pass (kube-apiserver's
 * `WithAuditInit`, `WithCacheControl` and warning recorder, folded into one filter because each
 * wrapper costs a cached GET a measurable share of its time):
 *
 * - an audit ID for the request: the client's `Audit-ID` header when it sent one, else a new
 *   UUID; set on the request for every later layer and echoed as `Audit-Id`;
 * - `Cache-Control: no-cache, private`, unless the handler chose its own (immutable OpenAPI
 *   documents);
 * - one `Warning` header per warning any layer recorded for the request.
 *
 * Outermost, so that answers of every other filter get them too.
 */
export function commonHeaders(): Filter {
  const newAuditId = uuidSource();
  return (next) => (req) => {
    const sent = req.headers['audit-id'];
    req.auditId = typeof sent === 'string' && sent !== '' ? sent : newAuditId();
    const res = next(req);
    return res instanceof Promise
      ? res.then((settled) => withCommonHeaders(settled, req))
      : withCommonHeaders(res, req);
  };
}

/** Adds the headers to the response's own header object (see `ResponseHeaders`): no copies. */
function withCommonHeaders(res: ApiResponse, req: ApiRequest): ApiResponse {
  const headers = res.headers;
  headers['audit-id'] = req.auditId!;
  if (headers['cache-control'] === undefined) headers['cache-control'] = NO_CACHE;
  const warnings = req.warnings.headerValues();
  if (warnings.length > 0) {
    const earlier = headers.warning;
    headers.warning =
      earlier === undefined ? [...warnings] : [...(Array.isArray(earlier) ? earlier : [earlier]), ...warnings];
  }
  return res;
}
