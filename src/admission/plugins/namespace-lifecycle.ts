import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import type { AdmissionPlugin } from '../admission-plugin.js';

export const NAMESPACE_LIFECYCLE = 'NamespaceLifecycle';

/** Looks a namespace up (undefined when it does not exist). */
export type NamespaceLookup = (name: string, signal: AbortSignal) => Promise<ApiObject | undefined>;

export interface NamespaceLifecycleOptions {
  readonly lookup: NamespaceLookup;
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
 * cause); the immortal namespaces may not be deleted (403).
 */
export function namespaceLifecycle(o: NamespaceLifecycleOptions): AdmissionPlugin {
  const immortal = new Set(o.immortal);
  const exempt = new Set((o.exempt ?? []).map((r) => `${r.resource}.${r.group}`));
  return {
    name: NAMESPACE_LIFECYCLE,
    handles: (op: Operation) => op === 'CREATE' || op === 'DELETE',
    async validate(a: AdmissionAttributes, signal: AbortSignal): Promise<void> {
      if (a.operation === 'DELETE') {
        if (isNamespace(a) && a.subresource === '' && immortal.has(a.name)) {
          throw apiErrors.forbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
        }
        return;
      }
      // Cluster-scoped objects (namespaces included) have no namespace to check.
      if (a.namespace === '' || a.subresource !== '') return;
      if (exempt.has(`${a.resource.resource}.${a.resource.group}`)) return;
      const ns = await o.lookup(a.namespace, signal);
      if (!ns) throw apiErrors.notFound({ group: '', resource: 'namespaces' }, a.namespace);
      const phase = (ns.status as { phase?: string } | undefined)?.phase;
      if (phase === 'Terminating' || ns.metadata.deletionTimestamp) throw terminating(a);
    },
  };
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
