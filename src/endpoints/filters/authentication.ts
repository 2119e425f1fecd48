import { StatusError } from '../../apis/meta/status.js';
import type { Authenticator, AuthResult } from '../../authn/authenticator.js';
import type { ApiServerMetrics } from '../../metrics/apiserver-metrics.js';
import type { ApiRequest, ApiResponse, Filter } from '../handler.js';
import { errorResponse } from '../handlers/response-writer.js';

/**
 * Sets `req.user`; answers 401 when the request carries invalid credentials, or none while
 * anonymous requests are disabled. Authenticators that wait read the request's signal, created
 * on first use.
 */
export function authentication(
  authenticator: Authenticator,
  metrics?: ApiServerMetrics,
  onUnauthenticated?: (req: ApiRequest, res: ApiResponse) => void,
): Filter {
  return (next) => {
    const proceed = (req: ApiRequest, r: AuthResult, started: number): ApiResponse | Promise<ApiResponse> => {
      if (metrics) {
        const seconds = (performance.now() - started) / 1000;
        if (r.kind === 'user') metrics.authenticated('success', seconds, r.user.name);
        else metrics.authenticated(r.kind === 'error' ? 'error' : 'failure', seconds);
      }
      if (r.kind !== 'user') {
        const res = errorResponse(req, new StatusError(401, 'Unauthorized', 'Unauthorized'));
        onUnauthenticated?.(req, res);
        return res;
      }
      req.user = r.user;
      return next(req);
    };
    // An authenticator that answers at once (certificate, cached token) adds no promise.
    return (req) => {
      const started = metrics ? performance.now() : 0;
      const r = authenticator.authenticate(req.head);
      return r instanceof Promise ? r.then((settled) => proceed(req, settled, started)) : proceed(req, r, started);
    };
  };
}
