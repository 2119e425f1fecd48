import { apiErrors } from '../../apis/meta/status.js';
import type { Filter } from '../handler.js';
import { errorResponse } from '../handlers/responses.js';
import { parseRequestInfo, RequestInfoError } from '../request/request-info.js';

/** Resolves the request's verb, group, version, resource, namespace and name. */
export function requestInfo(): Filter {
  return (next) => async (req) => {
    try {
      req.info = parseRequestInfo(req.method, req.path, req.query);
    } catch (e) {
      if (e instanceof RequestInfoError) return errorResponse(req, apiErrors.internal(e));
      throw e;
    }
    return next(req);
  };
}
