import type { DeleteOutcome } from '../../generic/delete.js';
import { GenericRegistry } from '../../generic/generic-registry.js';
import type { RegistryContext } from '../../generic/registry-context.js';
import type { DeleteOptions, RequestContext } from '../../types.js';
import { deleteNamespace, namespaceFinalizationPending } from './namespace-delete.js';

/**
 * The registry of core/v1 `namespaces`: the generic one with kube's namespace lifecycle on delete
 * (Terminating phase, immortal system namespaces), and removal only once `spec.finalizers` is
 * empty (an update through `namespaces/finalize` that empties it removes the namespace).
 */
export class NamespaceRegistry extends GenericRegistry {
  constructor(rc: RegistryContext) {
    super({ ...rc, pendingFinalization: namespaceFinalizationPending });
  }

  override delete(ctx: RequestContext, name: string, o: DeleteOptions): Promise<DeleteOutcome> {
    return deleteNamespace(this.rc, ctx, name, o);
  }
}
