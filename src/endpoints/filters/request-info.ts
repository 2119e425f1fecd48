import { apiErrors } from '../../apis/meta/status.js';
import type { ApiRequest, ApiResponse, Filter } from '../handler.js';
import { errorResponse } from '../handlers/response-writer.js';
import { RequestInfoError } from '../request/request-info.js';
import { RequestInfoCache } from '../request/request-info-cache.js';

/** Resolves the request's verb, group, version, resource, namespace and name. */
export function requestInfo(): Filter {
  const infos = new RequestInfoCache();
  // Not async: the next handler's answer is returned as it is (no promise of its own).
  return (next) => (req) => {
    try {
      req.info = infos.resolve(req.method, req.path, req.query);
    } catch (e) {
      return failed(req, e);
    }
    return next(req);
  };
}

async function failed(req: ApiRequest, e: unknown): Promise<ApiResponse> {
  if (e instanceof RequestInfoError) return errorResponse(req, apiErrors.internal(e));
  throw e;
}
