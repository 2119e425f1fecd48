import type { ApiRequest, ApiResponse, Filter } from '../../endpoints/handler.js';
import { errorResponse } from '../../endpoints/handlers/response-writer.js';
import type { Logger } from '../../util/logger.js';

/**
 * Any exception escaping the handlers becomes a 500 `Status` for that request only; the
 * server keeps serving every other request.
 */
export function panicRecovery(logger: Logger): Filter {
  const recover = (req: ApiRequest, e: unknown): ApiResponse => {
    logger.error('request handler failed', {
      method: req.method,
      path: req.path,
      error: String((e as Error)?.stack ?? e),
    });
    return errorResponse(req, e);
  };
  // A synchronous throw and a rejection are recovered alike; an answer given at once stays so.
  return (next) => (req) => {
    let res: ApiResponse | Promise<ApiResponse>;
    try {
      res = next(req);
    } catch (e) {
      return recover(req, e);
    }
    return res instanceof Promise ? res.catch((e: unknown) => recover(req, e)) : res;
  };
}
