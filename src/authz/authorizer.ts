import type { Attributes, AuthorizationResult } from '../apis/request/authorization-attributes.js';
import type { UserInfo } from '../apis/request/user-info.js';
import type { Abortable } from '../util/abortable.js';
import type { RulesResult } from './rules.js';

export type { Attributes, AuthorizationResult, Decision } from '../apis/request/authorization-attributes.js';

/**
 * One authorization module. `allow` and `deny` are final; `no-opinion` passes the request to the
 * next module. Implementations must not throw for a decision (an error is a `no-opinion` with a
 * reason, as kube's authorizers report it) and must stop waiting when `request.signal` aborts
 * (read it only when about to wait: it is created on first read).
 */
export interface Authorizer {
  authorize(a: Attributes, request: Abortable): Promise<AuthorizationResult>;
  /**
   * The same decision, synchronously, offered by authorizers that never wait (RBAC, the fixed
   * modes): the hot path skips a promise per module.
   */
  decide?(a: Attributes): AuthorizationResult;
  /**
   * What `user` may do in `namespace` (SelfSubjectRulesReview). Authorizers that cannot list
   * their rules leave it out, and a review through them is `incomplete`.
   */
  rulesFor?(user: UserInfo, namespace: string, request: Abortable): Promise<RulesResult>;
}

export const NO_OPINION_RESULT: AuthorizationResult = Object.freeze({ decision: 'no-opinion', reason: '' });
export const ALLOW_RESULT: AuthorizationResult = Object.freeze({ decision: 'allow', reason: '' });
