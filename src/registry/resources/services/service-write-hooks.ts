import type { Service } from '../../../apis/core/service-types.js';
import { type Logger, silentLogger } from '../../../util/logger.js';
import type { WriteFinish, WriteHooks } from '../../generic/write-hooks.js';
import type { AllocationTransaction, ServiceAllocations } from './service-allocations.js';

function finishing(txn: AllocationTransaction): WriteFinish {
  return (success) => (success ? txn.commit() : txn.revert());
}

/**
 * The registry hooks of core/v1 `services` (kube's service REST storage): a create or an update
 * of the main resource reserves cluster IPs and node ports before the write and settles them
 * after it; a delete releases what the Service held and deletes its Endpoints object (kube does,
 * so a Service recreated under the same name never inherits stale endpoints). Status writes keep
 * the spec and need nothing.
 */
export function serviceWriteHooks(o: {
  readonly allocations: ServiceAllocations;
  /** Deletes the Endpoints of a deleted Service; a missing one is not an error. */
  readonly deleteEndpoints?: (namespace: string, name: string) => Promise<void>;
  readonly logger?: Logger;
}): WriteHooks {
  const logger = o.logger ?? silentLogger;
  return {
    async beginCreate(ctx, obj, { dryRun }) {
      return finishing(await o.allocations.beginCreate(obj as Service, { dryRun, signal: ctx.signal }));
    },
    async beginUpdate(ctx, obj, old, { dryRun, subresource }) {
      if (subresource) return async () => {};
      return finishing(await o.allocations.beginUpdate(obj as Service, old as Service, { dryRun, signal: ctx.signal }));
    },
    async afterDelete(_ctx, obj, { dryRun }) {
      if (dryRun) return;
      const namespace = obj.metadata.namespace ?? '';
      const name = obj.metadata.name ?? '';
      try {
        await o.deleteEndpoints?.(namespace, name);
      } catch (e) {
        logger.warn('could not delete the endpoints of a deleted service', {
          namespace,
          name,
          error: e instanceof Error ? e.message : String(e),
        });
      }
      await o.allocations.release(obj as Service);
    },
  };
}
