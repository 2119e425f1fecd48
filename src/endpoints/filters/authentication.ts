import { StatusError } from '../../apis/meta/status.js';
import type { Authenticator } from '../../authn/authenticator.js';
import type { Filter } from '../handler.js';
import { errorResponse } from '../handlers/response-writer.js';

/**
 * Sets `req.user`; answers 401 when the request carries invalid credentials, or none while
 * anonymous requests are disabled. Authenticators that wait read the request's signal, created
 * on first use.
 */
export function authentication(authenticator: Authenticator): Filter {
  return (next) => async (req) => {
    const r = await authenticator.authenticate(req.head);
    if (r.kind !== 'user') return errorResponse(req, new StatusError(401, 'Unauthorized', 'Unauthorized'));
    req.user = r.user;
    return next(req);
  };
}
