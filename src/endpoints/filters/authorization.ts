import { apiErrors } from '../../apis/meta/status.js';
import { type Authorizer, alwaysAllow, attributesOf, forbiddenMessage } from '../../authz/index.js';
import type { Filter } from '../handler.js';
import { errorResponse } from '../handlers/response-writer.js';

/**
 * Asks the authorizer about the request after authentication (and impersonation), before any
 * body is read: `allow` passes it on; `deny`, or no opinion from every module, is a 403 `Status`
 * in kube's wording (`<resource> "<name>" is forbidden: User "<u>" cannot <verb> resource …`,
 * then `: <reason>` when the authorizer gave one).
 */
export function authorization(authorizer: Authorizer): Filter {
  // Everything is allowed: nothing to ask per request (a cached GET would pay for it).
  if (authorizer === alwaysAllow) return (next) => next;
  return (next) => async (req) => {
    const info = req.info!;
    const a = attributesOf(info, req.user!);
    const r = authorizer.decide ? authorizer.decide(a) : await authorizer.authorize(a, req);
    if (r.decision === 'allow') return next(req);
    const message = r.reason ? `${forbiddenMessage(a)}: ${r.reason}` : forbiddenMessage(a);
    const gr = info.isResourceRequest ? { group: info.apiGroup, resource: info.resource } : { group: '', resource: '' };
    return errorResponse(req, apiErrors.forbidden(gr, info.isResourceRequest ? info.name : '', message));
  };
}
