import type { UserInfo } from './user-info.js';

/**
 * What an authorizer decides on, exactly the request attributes of the access-control spec:
 * the user (name, uid, groups, extra); whether the request is for a resource; for resource
 * requests the API verb, group, version, resource, sub-resource, namespace and name (plus the
 * raw selectors of list/watch/deletecollection); for others the path and the lower-cased HTTP
 * method as verb. Never the body. Shared by the authorizers and the CEL authorizer library.
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
