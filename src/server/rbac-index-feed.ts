import type { ApiDomain } from '../apis/api-domain.js';
import type { ApiObject } from '../apis/object.js';
import type { ClusterRole, Role, RoleBinding } from '../apis/rbac/rbac-types.js';
import type { RbacIndex } from '../authz/rbac/rbac-index.js';
import { ResourceInformer } from '../controllers/informer/resource-informer.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import type { Logger } from '../util/logger.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';

export interface RbacIndexFeedOptions {
  readonly resources: ResourceSet;
  readonly index: RbacIndex;
  readonly domain: ApiDomain;
  readonly logger: Logger;
  /** Stops the watches when it aborts. */
  readonly signal: AbortSignal;
}

/**
 * Keeps an RBAC index current from the four RBAC resources, as kube-apiserver's RBAC authorizer
 * reads its informers: one list and watch each (through the watch caches), every add, update and
 * delete applied to the index. Resolves once each has delivered its first list, so a server that
 * starts serving after it decides with every stored role and binding.
 */
export async function feedRbacIndex(o: RbacIndexFeedOptions): Promise<void> {
  const group = o.domain.group('rbac.authorization');
  const ns = (obj: ApiObject) => obj.metadata.namespace ?? '';
  const name = (obj: ApiObject) => obj.metadata.name ?? '';
  const feeds: { resource: string; put(obj: ApiObject): void; remove(obj: ApiObject): void }[] = [
    {
      resource: 'clusterroles',
      put: (obj) => o.index.putClusterRole(name(obj), (obj as ClusterRole).rules),
      remove: (obj) => o.index.deleteClusterRole(name(obj)),
    },
    {
      resource: 'roles',
      put: (obj) => o.index.putRole(ns(obj), name(obj), (obj as Role).rules),
      remove: (obj) => o.index.deleteRole(ns(obj), name(obj)),
    },
    {
      resource: 'clusterrolebindings',
      put: (obj) => o.index.putBinding(obj as RoleBinding),
      remove: (obj) => o.index.deleteBinding('', name(obj)),
    },
    {
      resource: 'rolebindings',
      put: (obj) => o.index.putBinding(obj as RoleBinding),
      remove: (obj) => o.index.deleteBinding(ns(obj), name(obj)),
    },
  ];
  const informers: ResourceInformer[] = [];
  for (const feed of feeds) {
    const served = o.resources.lookup(group, 'v1', feed.resource);
    if (!served) throw new Error(`RBAC needs ${feed.resource}.${group}/v1 served`);
    const informer = new ResourceInformer({
      served,
      identity: { user: API_SERVER_USER, manager: o.domain.apiServerManager },
      logger: o.logger,
      signal: o.signal,
    });
    informer.addHandlers({
      onAdd: (obj) => feed.put(obj),
      onUpdate: (_old, obj) => feed.put(obj),
      onDelete: (obj) => feed.remove(obj),
    });
    informer.start();
    informers.push(informer);
  }
  await Promise.all(informers.map((i) => i.synced()));
}
