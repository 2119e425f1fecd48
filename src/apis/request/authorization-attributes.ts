import type { FieldRequirement } from '../selectors/field-selector.js';
import type { LabelRequirement } from '../selectors/label-requirement.js';
import type { UserInfo } from './user-info.js';

/**
 * The selectors a resource request is limited by, as kube-apiserver's authorizers see them with
 * the `AuthorizeWithSelectors` gate (kube's `GetFieldSelector`/`GetLabelSelector`): the raw
 * query values and the requirements read from them. A selector that does not parse carries
 * its error instead of (or, from an access review's `requirements`, beside) the requirements
 * that could be read. Requirements only narrow a request, so an authorizer may ignore them (RBAC
 * does). Without the gate, and for other verbs, all are empty.
 */
export interface SelectorAttributes {
  readonly fieldSelector: string;
  readonly labelSelector: string;
  /** The field selector's requirements; undefined when it has none. */
  readonly fieldSelectorRequirements: readonly FieldRequirement[] | undefined;
  /** Why (part of) the field selector could not be read; undefined when it could. */
  readonly fieldSelectorParsingError: string | undefined;
  /** The label selector's requirements; undefined when it has none. */
  readonly labelSelectorRequirements: readonly LabelRequirement[] | undefined;
  /** Why (part of) the label selector could not be read; undefined when it could. */
  readonly labelSelectorParsingError: string | undefined;
}

/** A request limited by no selector. */
export const NO_SELECTORS: SelectorAttributes = Object.freeze({
  fieldSelector: '',
  labelSelector: '',
  fieldSelectorRequirements: undefined,
  fieldSelectorParsingError: undefined,
  labelSelectorRequirements: undefined,
  labelSelectorParsingError: undefined,
});

/**
 * What an authorizer decides on, exactly the request attributes of the access-control spec:
 * the user (name, uid, groups, extra); whether the request is for a resource; for resource
 * requests the API verb, group, version, resource, sub-resource, namespace and name (plus the
 * selectors of list/watch/deletecollection); for others the path and the lower-cased HTTP
 * method as verb. Never the body. Shared by the authorizers and the CEL authorizer library.
 */
export interface Attributes extends SelectorAttributes {
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
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface AuthorizationResult {
  readonly decision: Decision;
  /** Why; shown to the client after a denial (may be empty). */
  readonly reason: string;
  /**
   * An error the authorizer met (kube's `err` beside the decision): a webhook that could not be
   * asked, a match condition that failed. A request not allowed with an error is a 500, and
   * access reviews report it in `status.evaluationError`.
   */
  readonly evaluationError?: string;
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
    ...NO_SELECTORS,
  };
}
