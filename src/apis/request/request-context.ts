import { randomUUID } from 'node:crypto';
import type { RequestInfo } from './request-info.js';
import type { UserInfo } from './user-info.js';

/** Collects warnings for the response's `Warning` headers (empty and repeated texts ignored). */
export interface WarningSink {
  add(text: string): void;
}

/**
 * Who is asking for what, built once per request by the filters and passed, required, to every
 * handler, registry and admission call. In-process callers (controllers, start-up) build one with
 * {@link internalRequestContext}.
 */
export interface RequestContext {
  /** Where the request points: verb, group, version, resource, sub-resource, namespace, name, selectors. */
  readonly info: RequestInfo;
  /**
   * The namespace the registry works in: the path's namespace for namespaced resources, empty for
   * cluster-scoped resources and for requests across all namespaces.
   */
  readonly namespace: string;
  readonly user: UserInfo;
  /** The request's audit ID: the client's `Audit-ID` header when sent, else generated. */
  readonly auditId: string;
  readonly warnings: WarningSink;
  /**
   * Aborted when the client goes away or the request times out. Implementations create it on
   * first read: a request that never waits (a cached GET) does not pay for it.
   */
  readonly signal: AbortSignal;
}

const discardWarnings: WarningSink = { add() {} };

/** What an in-process caller states about its request; the rest is derived. */
export interface InternalRequest {
  readonly user: UserInfo;
  readonly signal: AbortSignal;
  readonly verb: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
  readonly warnings?: WarningSink;
}

/** A request context for an in-process caller (a controller, the start-up bootstrap). */
export function internalRequestContext(r: InternalRequest): RequestContext {
  const namespace = r.namespace ?? '';
  const name = r.name ?? '';
  const subresource = r.subresource ?? '';
  const parts = [r.resource, name, subresource].filter((p) => p !== '');
  const prefix = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const path = `${prefix}${namespace ? `/namespaces/${namespace}` : ''}/${parts.join('/')}`;
  return {
    info: {
      isResourceRequest: true,
      path,
      verb: r.verb,
      apiPrefix: r.group ? 'apis' : 'api',
      apiGroup: r.group,
      apiVersion: r.version,
      namespace,
      resource: r.resource,
      subresource,
      name,
      parts,
      fieldSelector: '',
      labelSelector: '',
    },
    namespace,
    user: r.user,
    auditId: randomUUID(),
    warnings: r.warnings ?? discardWarnings,
    signal: r.signal,
  };
}
