import type { ApiObject } from '../../apis/object.js';
import type { ResourceClient } from '../api/api-client.js';
import type { NamespacedObjectClient } from './object-client.js';

/**
 * Leader election's object client over any {@link ResourceClient} (in process or HTTP): get,
 * create and update (PUT with the resourceVersion as precondition, never retried) in one namespace.
 */
export function resourceObjectClient<T extends ApiObject>(
  client: ResourceClient,
  namespace: string,
): NamespacedObjectClient<T> {
  return {
    namespace,
    get: async (name, signal) => (await client.get(namespace, name, signal)) as T,
    create: async (obj, signal) => (await client.create(namespace, obj, signal)) as T,
    update: async (obj, signal) => (await client.update(obj, signal)) as T,
  };
}
