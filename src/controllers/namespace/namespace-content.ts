import { StatusError } from '../../apis/meta/status.js';
import type { ServedResource } from '../../registry/resource-set/index.js';
import type { DeleteOptions, RequestContext } from '../../registry/types.js';
import { type ControllerIdentity, controllerContext } from '../object-client.js';
import type { ContentTotals } from './namespace-conditions.js';

// The namespace controller deletes in the background: the GC must not orphan anything, and
// the controller itself waits for whatever stays behind (kube's choice).
const BACKGROUND: DeleteOptions = { dryRun: false, propagationPolicy: 'Background' };

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
  who: ControllerIdentity,
  resources: readonly ServedResource[],
  namespace: string,
  signal: AbortSignal,
): Promise<ContentTotals> {
  const remainingByResource = new Map<string, number>();
  const remainingByFinalizer = new Map<string, number>();
  const errors: string[] = [];
  for (const served of resources) {
    const ctx = (verb: string): RequestContext => controllerContext(who, served, { verb, namespace, signal });
    const verbs = served.def.verbs;
    if (!verbs.includes('list') || !(verbs.includes('delete') || verbs.includes('deletecollection'))) continue;
    try {
      if (verbs.includes('deletecollection')) {
        await served.store.deleteCollection(ctx('deletecollection'), BACKGROUND, {});
      } else {
        const list = await served.store.list(ctx('list'), {});
        for (const item of list.items) {
          try {
            await served.store.delete(ctx('delete'), item.metadata.name ?? '', BACKGROUND);
          } catch (e) {
            if (!(e instanceof StatusError && e.code === 404)) throw e;
          }
        }
      }
      const left = (await served.store.list(ctx('list'), {})).items;
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
