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

/** What names a resource request, beyond its user and verb; every omitted field is empty. */
export interface ResourceTarget {
  readonly apiGroup?: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

/**
 * The attributes of a resource request a server part asks about on its own (impersonation,
 * escalation checks): no path, version or selectors.
 */
export function resourceAttributes(user: UserInfo, verb: string, t: ResourceTarget): Attributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    namespace: t.namespace ?? '',
    apiGroup: t.apiGroup ?? '',
    apiVersion: '',
    resource: t.resource,
    subresource: t.subresource ?? '',
    name: t.name ?? '',
    fieldSelector: '',
    labelSelector: '',
  };
}
