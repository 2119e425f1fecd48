/**
 * `api` for the core group, `apis` for named groups, and empty when the path starts with
 * neither. A non-resource request can still carry `apis` (for example `/apis/<group>/<version>`).
 */
export type ApiPrefix = '' | 'api' | 'apis';

/**
 * What a request addresses, derived from its method, path and query only (never the body).
 * Matches kube-apiserver's RequestInfo: an empty `namespace` means cluster-scoped or all
 * namespaces; `parts` starts at the resource (`[resource, name, subresource, ...rest]`).
 */
export interface RequestInfo {
  readonly isResourceRequest: boolean;
  /** The request path exactly as given. */
  readonly path: string;
  /**
   * The API verb (get, list, watch, create, update, patch, delete, deletecollection, proxy) for
   * resource requests, empty for an unrecognised method on a resource path, and the lower-cased
   * HTTP method for non-resource requests.
   */
  readonly verb: string;
  readonly apiPrefix: ApiPrefix;
  /** Empty for the core group. */
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  /** From the path, or for list/watch from a `fieldSelector` that pins `metadata.name`. */
  readonly name: string;
  readonly parts: readonly string[];
  /**
   * The raw `fieldSelector` / `labelSelector` query values of list, watch and deletecollection
   * requests (empty otherwise, and for the deprecated `/watch/` path form), for authorizers that
   * decide on selectors (`AuthorizeWithSelectors`). Unparsed: a malformed selector is the handler's
   * 400 to report.
   */
  readonly fieldSelector: string;
  readonly labelSelector: string;
}
