import { apiErrors, successStatus } from '../../../apis/meta/status.js';
import type { ApiObject } from '../../../apis/object.js';
import { internalRequestContext } from '../../../apis/request/request-context.js';
import type { ServedResource } from '../../resource-set/index.js';
import type { RequestContext } from '../../types.js';

/** Finds served resources by group, version and resource name (a `ResourceSet`). */
export interface ServedLookup {
  lookup(group: string, version: string, resource: string): ServedResource | undefined;
}

/** The set of served resources, bound late: sub-resources exist before the set does. */
export type ServedResources = () => ServedLookup | undefined;

/** A served resource the pod sub-resources need, or 503 while it is not served. */
export function servedOrUnavailable(
  resources: ServedResources,
  ref: { readonly group: string; readonly version: string; readonly resource: string },
): ServedResource {
  const served = resources()?.lookup(ref.group, ref.version, ref.resource);
  if (!served) {
    const gr = ref.group ? `${ref.resource}.${ref.group}` : ref.resource;
    throw apiErrors.serviceUnavailable(`the server is not serving ${gr}/${ref.version}`);
  }
  return served;
}

/**
 * The context of a request a sub-resource makes on another resource on behalf of the caller:
 * the caller's user and signal, the target's request info (authorization already happened on
 * the sub-resource, as kube-apiserver's registries call each other without it).
 */
export function innerContext(
  outer: RequestContext,
  served: ServedResource,
  r: { readonly verb: string; readonly namespace: string; readonly name?: string; readonly subresource?: string },
): RequestContext {
  const d = served.def;
  return internalRequestContext({
    user: outer.user,
    signal: outer.signal,
    warnings: outer.warnings,
    verb: r.verb,
    group: d.group,
    version: d.version,
    resource: d.resource,
    namespace: d.namespaced ? r.namespace : '',
    name: r.name,
    subresource: r.subresource,
  });
}

/** A `Status` a create answers with (its code is written as 201 unless set here). */
export function statusAnswer(fields: { status?: 'Failure'; message?: string; code?: number } = {}): ApiObject {
  const status: Record<string, unknown> = { ...successStatus(), code: 0, ...fields };
  return status as ApiObject;
}
