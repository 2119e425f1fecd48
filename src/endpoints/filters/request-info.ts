import { apiErrors } from '../../apis/meta/status.js';
import type { ApiRequest, ApiResponse, Filter } from '../handler.js';
import { errorResponse } from '../handlers/response-writer.js';
import { parseRequestInfo, RequestInfoError } from '../request/request-info.js';

/** Resolves the request's verb, group, version, resource, namespace and name. */
export function requestInfo(): Filter {
  // Not async: the next handler's promise is returned as it is (one promise less per request).
  return (next) => (req) => {
    try {
      req.info = parseRequestInfo(req.method, req.path, req.query);
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
