import { apiErrors, type StatusError } from '../apis/meta/status.js';
import { NO_SELECTORS } from '../apis/request/authorization-attributes.js';
import type { RequestInfo } from '../apis/request/request-info.js';
import { requestSelectorAttributes } from '../apis/request/selector-attributes.js';
import type { UserInfo } from '../apis/request/user-info.js';
import { goQuote } from '../util/go-strconv.js';
import type { Attributes } from './authorizer.js';

/** How request attributes are built. */
export interface AttributesOptions {
  /**
   * The `AuthorizeWithSelectors` gate: list, watch and deletecollection requests carry their
   * selectors, parsed (kube's `GetFieldSelector`/`GetLabelSelector`). Off: no selectors at all.
   */
  readonly withSelectors: boolean;
}

/**
 * The authorization attributes of a request, from its parsed path and its user. Pure; parses
 * selectors only when the request has some (request-info keeps them for list, watch and
 * deletecollection only).
 */
export function attributesOf(info: RequestInfo, user: UserInfo, o: AttributesOptions): Attributes {
  const selectors = o.withSelectors ? requestSelectorAttributes(info.fieldSelector, info.labelSelector) : NO_SELECTORS;
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
    fieldSelector: selectors.fieldSelector,
    labelSelector: selectors.labelSelector,
    fieldSelectorRequirements: selectors.fieldSelectorRequirements,
    fieldSelectorParsingError: selectors.fieldSelectorParsingError,
    labelSelectorRequirements: selectors.labelSelectorRequirements,
    labelSelectorParsingError: selectors.labelSelectorParsingError,
  };
}

/**
 * kube's forbidden wording, which clients and people read:
 * `User "u" cannot get path "/x"`, `User "u" cannot list resource "pods" in API group "" in the
 * namespace "ns"`, `… at the cluster scope`; a sub-resource shows as `resource/sub`.
 */
export function forbiddenMessage(a: Attributes): string {
  const user = a.user.name;
  if (!a.isResourceRequest) return `User ${goQuote(user)} cannot ${a.verb} path ${goQuote(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const what = `User ${goQuote(user)} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)}`;
  return a.namespace ? `${what} in the namespace ${goQuote(a.namespace)}` : `${what} at the cluster scope`;
}

/**
 * kube's 403 for a refused request: `<resource> "<name>" is forbidden: <forbiddenMessage>`, then
 * `: <reason>` when the authorizer gave one (`forbidden: ...` for a non-resource request).
 */
export function forbiddenError(a: Attributes, reason: string): StatusError {
  const message = reason ? `${forbiddenMessage(a)}: ${reason}` : forbiddenMessage(a);
  if (!a.isResourceRequest) return apiErrors.forbidden({ group: '', resource: '' }, '', message);
  return apiErrors.forbidden({ group: a.apiGroup, resource: a.resource }, a.name, message);
}
