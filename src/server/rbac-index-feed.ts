import type { ApiDomain } from '../apis/api-domain.js';
import type { ApiObject } from '../apis/object.js';
import type { ClusterRole, Role, RoleBinding } from '../apis/rbac/rbac-types.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { RbacIndex } from '../authz/rbac/rbac-index.js';
import { ResourceInformer } from '../client/informer/resource-informer.js';
import { ControllerClient, frozenUser } from '../controllers/controller-client.js';
import { inProcessResourceClient } from '../controllers/in-process-api-client.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import type { Logger } from '../util/logger.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';

/** The RBAC resources the index is fed from. */
export const RBAC_RESOURCES = ['clusterroles', 'roles', 'clusterrolebindings', 'rolebindings'] as const;
export type RbacResource = (typeof RBAC_RESOURCES)[number];

export interface RbacIndexFeedOptions {
  readonly resources: ResourceSet;
  readonly index: RbacIndex;
  readonly domain: ApiDomain;
  readonly logger: Logger;
  /** Decides on the feed's lists and watches (made as the API server itself). */
  readonly authorizer: Authorizer;
  /** Stops the watches when it aborts. */
  readonly signal: AbortSignal;
}

/** A write whose effect the index must show: the resourceVersion of an object of `resource`. */
export interface RbacWrite {
  readonly resource: RbacResource;
  readonly resourceVersion: string;
}

/** A running feed. */
export interface RbacIndexFeed {
  /**
   * Resolves once the index has applied every change of each resource up to the given
   * resourceVersion (a write's own change included), or when `signal` aborts. Used to let the
   * in-process controllers decide only after the default policy written at start-up is in.
   */
  caughtUp(writes: readonly RbacWrite[], signal: AbortSignal): Promise<void>;
}

interface Waiter {
  readonly revision: bigint;
  readonly resolve: () => void;
}

/** Tracks the highest resourceVersion a feed has applied, and who waits for one. */
class Progress {
  revision = 0n;
  private waiters: Waiter[] = [];

  observe(obj: ApiObject): void {
    const rv = obj.metadata.resourceVersion;
    if (!rv || !/^\d+$/.test(rv)) return;
    const revision = BigInt(rv);
    if (revision <= this.revision) return;
    this.revision = revision;
    const ready = this.waiters.filter((w) => w.revision <= revision);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.revision > revision);
    for (const w of ready) w.resolve();
  }

  reached(revision: bigint, signal: AbortSignal): Promise<void> {
    if (revision <= this.revision || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      this.waiters.push({ revision, resolve: done });
    });
  }
}

/**
 * Keeps an RBAC index current from the four RBAC resources, as kube-apiserver's RBAC authorizer
 * reads its informers: one list and watch each (through the watch caches), every add, update and
 * delete applied to the index. Resolves once each has delivered its first list, so a server that
 * starts serving after it decides with every stored role and binding; the feed it returns tells
 * when later writes are in.
 */
export async function feedRbacIndex(o: RbacIndexFeedOptions): Promise<RbacIndexFeed> {
  const group = o.domain.group('rbac.authorization');
  const ns = (obj: ApiObject) => obj.metadata.namespace ?? '';
  const name = (obj: ApiObject) => obj.metadata.name ?? '';
  const feeds: Record<RbacResource, { put(obj: ApiObject): void; remove(obj: ApiObject): void }> = {
    clusterroles: {
      put: (obj) => o.index.putClusterRole(name(obj), (obj as ClusterRole).rules),
      remove: (obj) => o.index.deleteClusterRole(name(obj)),
    },
    roles: {
      put: (obj) => o.index.putRole(ns(obj), name(obj), (obj as Role).rules),
      remove: (obj) => o.index.deleteRole(ns(obj), name(obj)),
    },
    clusterrolebindings: {
      put: (obj) => o.index.putBinding(obj as RoleBinding),
      remove: (obj) => o.index.deleteBinding('', name(obj)),
    },
    rolebindings: {
      put: (obj) => o.index.putBinding(obj as RoleBinding),
      remove: (obj) => o.index.deleteBinding(ns(obj), name(obj)),
    },
  };
  const client = new ControllerClient(
    { user: frozenUser(API_SERVER_USER), manager: o.domain.apiServerManager },
    o.authorizer,
  );
  const progress = new Map<RbacResource, Progress>();
  const informers: ResourceInformer[] = [];
  for (const resource of RBAC_RESOURCES) {
    const feed = feeds[resource];
    const served = o.resources.lookup(group, 'v1', resource);
    if (!served) throw new Error(`RBAC needs ${resource}.${group}/v1 served`);
    const p = new Progress();
    progress.set(resource, p);
    const informer = new ResourceInformer({
      client: inProcessResourceClient(served, client),
      logger: o.logger,
      signal: o.signal,
    });
    // The index first, then the progress: a waiter woken up finds the change applied.
    informer.addHandlers({
      onAdd: (obj) => {
        feed.put(obj);
        p.observe(obj);
      },
      onUpdate: (_old, obj) => {
        feed.put(obj);
        p.observe(obj);
      },
      onDelete: (obj) => {
        feed.remove(obj);
        p.observe(obj);
      },
    });
    informer.start();
    informers.push(informer);
  }
  await Promise.all(informers.map((i) => i.synced()));
  return {
    async caughtUp(writes, signal) {
      await Promise.all(
        writes
          .filter((w) => /^\d+$/.test(w.resourceVersion))
          .map((w) => progress.get(w.resource)?.reached(BigInt(w.resourceVersion), signal)),
      );
    },
  };
}
