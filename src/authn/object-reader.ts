import type { ApiObject } from '../apis/object.js';

/** A served resource, named as the API names it. */
export interface ResourceRef {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/**
 * Reads live objects for authenticators that consult the API (bootstrap-token Secrets, the
 * service accounts, Secrets and Pods that service-account tokens are bound to). Reads come from the
 * watch cache; `undefined` when the object (or the resource) does not exist.
 */
export interface ObjectReader {
  get(resource: ResourceRef, namespace: string, name: string, signal: AbortSignal): Promise<ApiObject | undefined>;
}
