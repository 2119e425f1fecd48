import type { Filter } from '../../endpoints/handler.js';
import { errorResponse } from '../../endpoints/handlers/response-writer.js';
import type { Logger } from '../../util/logger.js';

/**
 * Any exception escaping the handlers becomes a 500 `Status` for that request only; the
 * server keeps serving every other request.
 */
export function panicRecovery(logger: Logger): Filter {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (e) {
      logger.error('request handler failed', {
        method: req.method,
        path: req.path,
        error: String((e as Error)?.stack ?? e),
      });
      return errorResponse(req, e);
    }
  };
}
