import {
  type Attributes,
  type AttributesOptions,
  type AuthorizationResult,
  type Authorizer,
  alwaysAllow,
  attributesOf,
  forbiddenError,
} from '../../authz/index.js';
import type { ApiServerMetrics } from '../../metrics/apiserver-metrics.js';
import { goQuote } from '../../util/go-strconv.js';
import type { ApiRequest, ApiResponse, Filter } from '../handler.js';
import { errorResponse } from '../handlers/response-writer.js';

/** kube's `responsewriters.InternalError`: plain text, with HTML-looking characters escaped. */
function internalError(req: ApiRequest, error: string): ApiResponse {
  const query = req.query.toString();
  const uri = query ? `${req.path}?${query}` : req.path;
  const text = `Internal Server Error: ${goQuote(uri)}: ${error}`
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
  return {
    kind: 'body',
    status: 500,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    body: `${text}\n`,
  };
}

/** kube's audit annotations of the decision (when the request is audited). */
function annotate(req: ApiRequest, r: AuthorizationResult): void {
  const annotations = req.auditAnnotations;
  if (!annotations) return;
  const group = req.domain.group('authorization');
  annotations[`${group}/decision`] = r.decision === 'allow' ? 'allow' : 'forbid';
  annotations[`${group}/reason`] = r.reason;
}

/** kube's authorization result label. */
function resultLabel(r: AuthorizationResult): 'allowed' | 'denied' | 'no-opinion' | 'error' {
  if (r.decision === 'allow') return 'allowed';
  if (r.evaluationError) return 'error';
  return r.decision === 'deny' ? 'denied' : 'no-opinion';
}

/**
 * Asks the authorizer about the request after authentication (and impersonation), before any
 * body is read: `allow` passes it on; `deny`, or no opinion from every module, is a 403 `Status`
 * in kube's wording (`<resource> "<name>" is forbidden: User "<u>" cannot <verb> resource …`,
 * then `: <reason>` when the authorizer gave one); a request not allowed whose authorizer met an
 * error (an unreachable webhook) is kube's plain-text 500 naming the error. With `withSelectors` (the
 * `AuthorizeWithSelectors` gate) list, watch and deletecollection requests carry their parsed
 * selectors to the authorizer. With `metrics`, kube's authorization attempts and durations are
 * recorded.
 */
export function authorization(authorizer: Authorizer, o: AttributesOptions, metrics?: ApiServerMetrics): Filter {
  // Everything is allowed: nothing to ask per request (a cached GET would pay for it).
  if (authorizer === alwaysAllow && !metrics) return (next) => next;
  const denied = (req: ApiRequest, a: Attributes, r: AuthorizationResult): ApiResponse =>
    r.evaluationError ? internalError(req, r.evaluationError) : errorResponse(req, forbiddenError(a, r.reason));
  const record = metrics
    ? (r: AuthorizationResult, started: number) =>
        metrics.authorized(resultLabel(r), (performance.now() - started) / 1000)
    : undefined;

  const decide = authorizer.decide?.bind(authorizer);
  // Authorizers that never wait decide without a promise: no extra async layer per request.
  if (decide) {
    return (next) => (req) => {
      const a = attributesOf(req.info!, req.user!, o);
      const started = record ? performance.now() : 0;
      const r = decide(a);
      record?.(r, started);
      annotate(req, r);
      return r.decision === 'allow' ? next(req) : Promise.resolve(denied(req, a, r));
    };
  }
  return (next) => async (req) => {
    const a = attributesOf(req.info!, req.user!, o);
    const started = record ? performance.now() : 0;
    const r = await authorizer.authorize(a, req);
    record?.(r, started);
    annotate(req, r);
    return r.decision === 'allow' ? next(req) : denied(req, a, r);
  };
}
