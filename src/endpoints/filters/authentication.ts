import { StatusError } from '../../apis/meta/status.js';
import type { Authenticator } from '../../authn/authenticator.js';
import type { Filter } from '../handler.js';
import { errorResponse } from '../handlers/response-writer.js';

/**
 * Sets `req.user`; answers 401 when the request carries invalid credentials, or none while
 * anonymous requests are disabled.
 */
export function authentication(authenticator: Authenticator, signal: AbortSignal): Filter {
  return (next) => async (req) => {
    // The server's lifetime signal, not the request's: a per-request AbortSignal costs more
    // than authenticating with a client certificate.
    const r = await authenticator.authenticate(req.head, signal);
    if (r.kind !== 'user') return errorResponse(req, new StatusError(401, 'Unauthorized', 'Unauthorized'));
    req.user = r.user;
    return next(req);
  };
}
