import type { PriorityClassLister, StorageClassLister } from '../admission/index.js';
import type { ApiDomain } from '../apis/api-domain.js';
import type { ApiObject } from '../apis/object.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import { defaultStorageClassAnnotations } from '../apis/storage/storage-columns.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';

/**
 * The PriorityClasses the `Priority` admission plugin reads, listed current from the store (a
 * default created just before must be seen), or from the watch cache when asked (pods). Empty
 * while the resource is not served. `resources` is bound late: the admission chain is built
 * before the resource set.
 */
export function priorityClassLister(resources: () => ResourceSet | undefined, domain: ApiDomain): PriorityClassLister {
  const group = domain.group('scheduling');
  // The cached list, kept while the watch cache's objects stay as they were: every pod create
  // reads it, and the classes rarely change.
  let kept: { readonly cacher: object; readonly version: number; readonly items: readonly ApiObject[] } | undefined;
  return {
    group,
    async list(signal, options) {
      const served = resources()?.lookup(group, 'v1', 'priorityclasses');
      if (!served) return [];
      const cacher = options?.cached && served.cacher?.ready ? served.cacher : undefined;
      const version = cacher?.stateVersion;
      if (cacher && kept?.cacher === cacher && kept.version === version) return kept.items;
      const ctx = internalRequestContext({
        user: API_SERVER_USER,
        signal,
        verb: 'list',
        group,
        version: 'v1',
        resource: 'priorityclasses',
      });
      const { items } = await served.store.list(ctx, options?.cached ? { resourceVersion: '0' } : {});
      if (cacher && version !== undefined) kept = { cacher, version, items };
      return items;
    },
  };
}

/**
 * The StorageClasses the `DefaultStorageClass` admission plugin reads, from the watch cache as
 * kube's plugin reads its informer's. Empty while the resource is not served; `resources` is
 * bound late as above.
 */
export function storageClassLister(resources: () => ResourceSet | undefined, domain: ApiDomain): StorageClassLister {
  const group = domain.group('storage');
  return {
    defaultAnnotations: defaultStorageClassAnnotations(domain),
    claimClassAnnotation: domain.key('volume.beta', 'storage-class'),
    async list(signal) {
      const served = resources()?.lookup(group, 'v1', 'storageclasses');
      if (!served) return [];
      const ctx = internalRequestContext({
        user: API_SERVER_USER,
        signal,
        verb: 'list',
        group,
        version: 'v1',
        resource: 'storageclasses',
      });
      return (await served.store.list(ctx, { resourceVersion: '0' })).items;
    },
  };
}
