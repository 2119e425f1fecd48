import type { ClientDeleteOptions, ResourceClient } from '../../client/api/api-client.js';
import { errorText, isStatus } from '../controller-support.js';
import type { ContentTotals } from './namespace-conditions.js';

// The namespace controller deletes in the background: the GC must not orphan anything, and
// the controller itself waits for whatever stays behind (kube's choice).
const BACKGROUND: ClientDeleteOptions = { propagationPolicy: 'Background' };

function groupVersionResource(client: ResourceClient): string {
  const d = client.resource;
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
  resources: readonly ResourceClient[],
  namespace: string,
  signal: AbortSignal,
): Promise<ContentTotals> {
  const remainingByResource = new Map<string, number>();
  const remainingByFinalizer = new Map<string, number>();
  const errors: string[] = [];
  for (const client of resources) {
    const verbs = client.resource.verbs;
    if (!verbs.includes('list') || !(verbs.includes('delete') || verbs.includes('deletecollection'))) continue;
    try {
      if (verbs.includes('deletecollection')) {
        await client.deleteCollection(namespace, BACKGROUND, signal);
      } else {
        const list = await client.list(namespace, {}, signal);
        for (const item of list.items) {
          try {
            await client.delete(namespace, item.metadata.name ?? '', BACKGROUND, signal);
          } catch (e) {
            if (!isStatus(e, 404)) throw e;
          }
        }
      }
      const left = (await client.list(namespace, {}, signal)).items;
      if (left.length === 0) continue;
      const d = client.resource;
      remainingByResource.set(`${d.resource}.${d.group}`, left.length);
      let withFinalizers = 0;
      for (const item of left) {
        const finalizers = item.metadata.finalizers ?? [];
        if (finalizers.length > 0) withFinalizers++;
        for (const f of finalizers) remainingByFinalizer.set(f, (remainingByFinalizer.get(f) ?? 0) + 1);
      }
      if (withFinalizers === 0) {
        errors.push(
          `unexpected items still remain in namespace: ${namespace} for gvr: ${groupVersionResource(client)}`,
        );
      }
    } catch (e) {
      if (signal.aborted) throw e;
      errors.push(errorText(e));
    }
  }
  return { remainingByResource, remainingByFinalizer, errors };
}
