import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import type { AdmissionPlugin } from '../admission-plugin.js';

export const NAMESPACE_LIFECYCLE = 'NamespaceLifecycle';

/** Looks a namespace up (undefined when it does not exist). */
export type NamespaceLookup = (name: string, signal: AbortSignal) => Promise<ApiObject | undefined>;

/** How long after a namespace's DELETE the plugin reads it live rather than from the cache (kube: 30 s). */
export const FORCE_LIVE_LOOKUP_MS = 30_000;

export interface NamespaceLifecycleOptions {
  /** A current read of the store. */
  readonly lookup: NamespaceLookup;
  /**
   * A read of the watch cache (kube's informer lister), which may lag the store: a namespace it
   * does not have, or one deleted in the last {@link FORCE_LIVE_LOOKUP_MS} that it still shows
   * active, is read again with `lookup`. Without it every check reads `lookup`.
   */
  readonly cachedLookup?: NamespaceLookup;
  /** Milliseconds now (default `Date.now`), for the forced live lookups after a delete. */
  readonly now?: () => number;
  /** Namespaces that can never be deleted (kube: default, kube-system, kube-public). */
  readonly immortal: readonly string[];
  /**
   * Resources whose creates need no existing namespace: kube exempts the access reviews
   * (`localsubjectaccessreviews`), which store nothing.
   */
  readonly exempt?: readonly { readonly group: string; readonly resource: string }[];
}

/**
 * kube's `NamespaceLifecycle` (validating): new objects only in a namespace that exists (404
 * for the namespace otherwise) and is not being terminated (403 with a `NamespaceTerminating`
 * cause); the immortal namespaces may not be deleted (403). As kube does, it reads the cache
 * first and the store when the cache has no such namespace, or when the namespace was deleted
 * recently and the cache still shows it active.
 */
export function namespaceLifecycle(o: NamespaceLifecycleOptions): AdmissionPlugin {
  const immortal = new Set(o.immortal);
  const exempt = new Set((o.exempt ?? []).map((r) => `${r.resource}.${r.group}`));
  const now = o.now ?? Date.now;
  /** Namespaces whose DELETE was admitted, until when they are read live. */
  const forceLive = new Map<string, number>();
  const recentlyDeleted = (name: string): boolean => {
    const until = forceLive.get(name);
    if (until === undefined) return false;
    if (until > now()) return true;
    forceLive.delete(name);
    return false;
  };
  const lookup = async (name: string, signal: AbortSignal): Promise<ApiObject | undefined> => {
    if (o.cachedLookup === undefined) return o.lookup(name, signal);
    const cached = await o.cachedLookup(name, signal);
    if (cached !== undefined && !(recentlyDeleted(name) && !isTerminating(cached))) return cached;
    return o.lookup(name, signal);
  };
  return {
    name: NAMESPACE_LIFECYCLE,
    handles: (op: Operation) => op === 'CREATE' || op === 'DELETE',
    async validate(a: AdmissionAttributes, signal: AbortSignal): Promise<void> {
      if (a.operation === 'DELETE') {
        if (isNamespace(a) && a.subresource === '') {
          if (immortal.has(a.name)) {
            throw apiErrors.forbidden(
              { group: '', resource: 'namespaces' },
              a.name,
              'this namespace may not be deleted',
            );
          }
          // Expired entries go as they are read, and at most one per namespace is kept.
          forceLive.set(a.name, now() + FORCE_LIVE_LOOKUP_MS);
        }
        return;
      }
      // Cluster-scoped objects (namespaces included) have no namespace to check.
      if (a.namespace === '' || a.subresource !== '') return;
      if (exempt.has(`${a.resource.resource}.${a.resource.group}`)) return;
      const ns = await lookup(a.namespace, signal);
      if (!ns) throw apiErrors.notFound({ group: '', resource: 'namespaces' }, a.namespace);
      if (isTerminating(ns)) throw terminating(a);
    },
  };
}

function isTerminating(ns: ApiObject): boolean {
  const phase = (ns.status as { phase?: string } | undefined)?.phase;
  return phase === 'Terminating' || ns.metadata.deletionTimestamp !== undefined;
}

function isNamespace(a: AdmissionAttributes): boolean {
  return a.kind.group === '' && a.kind.kind === 'Namespace';
}

function terminating(a: AdmissionAttributes): StatusError {
  const gr = { group: a.resource.group, resource: a.resource.resource };
  const message = `unable to create new content in namespace ${a.namespace} because it is being terminated`;
  const e = apiErrors.forbidden(gr, a.name, message);
  return new StatusError(403, 'Forbidden', e.message, {
    ...e.details,
    causes: [
      {
        reason: 'NamespaceTerminating',
        message: `namespace ${a.namespace} is being terminated`,
        field: 'metadata.namespace',
      },
    ],
  });
}
