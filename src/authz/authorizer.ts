import type { UserInfo } from '../apis/request/user-info.js';
import type { Abortable } from '../util/abortable.js';

/**
 * What an authorizer decides on, exactly the request attributes of the access-control spec:
 * the user (name, uid, groups, extra); whether the request is for a resource; for resource
 * requests the API verb, group, version, resource, sub-resource, namespace and name (plus the
 * raw selectors of list/watch/deletecollection); for others the path and the lower-cased HTTP
 * method as verb. Never the body.
 */
export interface Attributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** Non-resource requests: the request path. */
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly fieldSelector: string;
  readonly labelSelector: string;
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface AuthorizationResult {
  readonly decision: Decision;
  /** Why; shown to the client after a denial (may be empty). */
  readonly reason: string;
}

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
