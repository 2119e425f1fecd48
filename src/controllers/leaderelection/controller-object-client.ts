import type { ApiObject } from '../../apis/object.js';
import type { NamespacedObjectClient } from '../../client/leaderelection/object-client.js';
import type { ServedResource } from '../../registry/resource-set/index.js';
import type { ControllerClient } from '../controller-client.js';

/**
 * Leader election's object client in process: get, create and update of one served resource in
 * one namespace through a controller client (authorized and admitted as the controller's user).
 * An update is never retried on conflict: the object's resourceVersion is the precondition, so a
 * write based on a stale read fails with 409, as over HTTP.
 */
export function controllerObjectClient<T extends ApiObject>(
  client: ControllerClient,
  served: ServedResource,
  namespace: string,
): NamespacedObjectClient<T> {
  return {
    namespace,
    get: async (name, signal) => (await client.get(served, { namespace, name }, signal)) as T,
    create: async (obj, signal) => (await client.create(served, namespace, obj, signal)) as T,
    update: async (obj, signal) =>
      (await client.update(
        served,
        { namespace, name: obj.metadata.name ?? '' },
        { retryOnConflict: false, compute: () => structuredClone(obj) },
        signal,
      )) as T,
  };
}
