import type { Attributes, AuthorizationResult } from '../apis/request/authorization-attributes.js';
import type { Abortable } from '../util/abortable.js';

export type { Attributes, AuthorizationResult, Decision } from '../apis/request/authorization-attributes.js';

/**
 * One authorization module. `allow` and `deny` are final; `no-opinion` passes the request to the
 * next module. Implementations must not throw for a decision (an error is a `no-opinion` with a
 * reason, as kube's authorizers report it) and must stop waiting when `request.signal` aborts
 * (read it only when about to wait: it is created on first read).
 */
export interface Authorizer {
  authorize(a: Attributes, request: Abortable): Promise<AuthorizationResult>;
}

export const NO_OPINION_RESULT: AuthorizationResult = Object.freeze({ decision: 'no-opinion', reason: '' });
export const ALLOW_RESULT: AuthorizationResult = Object.freeze({ decision: 'allow', reason: '' });
