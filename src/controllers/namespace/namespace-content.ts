import { StatusError } from '../../apis/meta/status.js';
import type { ServedResource } from '../../registry/resource-set/index.js';
import type { DeleteOptions } from '../../registry/types.js';
import type { ControllerClient } from '../controller-client.js';
import type { ContentTotals } from './namespace-conditions.js';

// The namespace controller deletes in the background: the GC must not orphan anything, and
// the controller itself waits for whatever stays behind (kube's choice).
const BACKGROUND: Omit<DeleteOptions, 'dryRun'> = { propagationPolicy: 'Background' };

function groupVersionResource(served: ServedResource): string {
  const d = served.def;
  return `${d.group}/${d.version}, Resource=${d.resource}`;
}

/**
 * One pass of kube's `deleteAllContent` over the namespaced resources: delete the collection
 * in the namespace (or each object, for resources without deletecollection), then list what is
 * left. Objects that stay because of finalizers are normal and counted per finalizer; objects
 * left without any finalizer are an error, as is a failed delete or list. Errors of one resource
 * do not stop the others.
 */
export async function deleteAllContent(
  client: ControllerClient,
  resources: readonly ServedResource[],
  namespace: string,
  signal: AbortSignal,
): Promise<ContentTotals> {
  const remainingByResource = new Map<string, number>();
  const remainingByFinalizer = new Map<string, number>();
  const errors: string[] = [];
  for (const served of resources) {
    const verbs = served.def.verbs;
    if (!verbs.includes('list') || !(verbs.includes('delete') || verbs.includes('deletecollection'))) continue;
    try {
      if (verbs.includes('deletecollection')) {
        await client.deleteCollection(served, namespace, BACKGROUND, signal);
      } else {
        const list = await client.list(served, namespace, {}, signal);
        for (const item of list.items) {
          try {
            await client.delete(served, { namespace, name: item.metadata.name ?? '' }, BACKGROUND, signal);
          } catch (e) {
            if (!(e instanceof StatusError && e.code === 404)) throw e;
          }
        }
      }
      const left = (await client.list(served, namespace, {}, signal)).items;
      if (left.length === 0) continue;
      const d = served.def;
      remainingByResource.set(`${d.resource}.${d.group}`, left.length);
      let withFinalizers = 0;
      for (const item of left) {
        const finalizers = item.metadata.finalizers ?? [];
        if (finalizers.length > 0) withFinalizers++;
        for (const f of finalizers) remainingByFinalizer.set(f, (remainingByFinalizer.get(f) ?? 0) + 1);
      }
      if (withFinalizers === 0) {
        errors.push(
          `unexpected items still remain in namespace: ${namespace} for gvr: ${groupVersionResource(served)}`,
        );
      }
    } catch (e) {
      if (signal.aborted) throw e;
      errors.push(e instanceof Error ? e.message : String(e));
    }
  }
  return { remainingByResource, remainingByFinalizer, errors };
}
