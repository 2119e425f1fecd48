import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject, OwnerReference } from '../../apis/object.js';
import type { Authorizer } from '../../authz/index.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ResourceSet } from '../../registry/resource-set/index.js';
import type { Logger } from '../../util/logger.js';
import { ControllerClient, controllerIdentity } from '../controller-client.js';
import type { InformerSet } from '../informer/informer-set.js';
import type { ResourceInformer } from '../informer/resource-informer.js';
import { DependencyGraph, type GraphNode, nodeOf } from './dependency-graph.js';
import { attemptToDelete, attemptToOrphan, type GcContext, UnresolvableOwnerError } from './gc-actions.js';
import { OwnerResolver } from './owner-resolver.js';

export interface GarbageCollectorOptions {
  readonly resources: ResourceSet;
  readonly informers: InformerSet;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /** How long to wait for every informer's first list before working anyway. Default 10 s. */
  readonly syncTimeoutMs?: number;
  /** Concurrent workers per queue. Default 2. */
  readonly workers?: number;
  /** Names the collector's identity (its service account lives in the system namespace). */
  readonly domain: ApiDomain;
  /** Decides on every request of the collector (its role: `system:controller:generic-garbage-collector`). */
  readonly authorizer: Authorizer;
}

type Key = `delete:${string}` | `orphan:${string}`;

/** kube-controller-manager's name for the garbage collector (its service account and field manager). */
export const GARBAGE_COLLECTOR_NAME = 'generic-garbage-collector';

/**
 * The garbage collector, in process: an owner → dependents graph over every served resource
 * (fed by the shared informers, so a restart or a re-list reconciles it from scratch), and two
 * kinds of work per object uid, retried with backoff until they succeed:
 *
 * - `delete`: is the object garbage (all owners absent), or an owner deleting its dependents?
 *   Queued for objects with owners when they appear or their owners change, for the dependents
 *   of a deleted object or of an owner starting foreground deletion, and for foreground owners
 *   when a blocking dependent goes away.
 * - `orphan`: an owner deleted with `orphan`: strip it from its dependents, then drop the finalizer.
 *
 * All reads that decide a deletion are live reads through the registries; the graph only says
 * which objects to look at.
 */
export class GarbageCollector {
  private readonly graph = new DependencyGraph();
  private readonly queue: WorkQueue<Key>;
  private readonly ctx: GcContext;

  constructor(private readonly options: GarbageCollectorOptions) {
    this.queue = new WorkQueue<Key>({ signal: options.signal });
    this.ctx = {
      graph: this.graph,
      resolver: new OwnerResolver(options.resources),
      logger: options.logger,
      signal: options.signal,
      client: new ControllerClient(controllerIdentity(GARBAGE_COLLECTOR_NAME, options.domain), options.authorizer),
      enqueueDelete: (uid) => this.queue.add(`delete:${uid}`),
    };
    for (const informer of options.informers.all()) this.watch(informer);
    options.informers.onAdded((informer) => this.watch(informer));
  }

  /** Processes work until the signal aborts; starts after the informers' first lists. */
  async run(): Promise<void> {
    const { informers, signal, logger } = this.options;
    const synced = await informers.waitForSync(this.options.syncTimeoutMs ?? 10_000, signal);
    if (signal.aborted) return;
    if (!synced) logger.warn('garbage collector: not every resource could be listed; starting anyway');
    await this.queue.run((key) => this.process(key), {
      workers: this.options.workers ?? 2,
      onError: (key, err) => {
        const log = err instanceof UnresolvableOwnerError ? logger.info : logger.warn;
        log.call(logger, 'garbage collector: retrying', {
          key,
          error: err instanceof Error ? err.message : String(err),
        });
      },
    });
  }

  private async process(key: Key): Promise<void> {
    const uid = key.slice(key.indexOf(':') + 1);
    if (key.startsWith('delete:')) await attemptToDelete(this.ctx, uid);
    else await attemptToOrphan(this.ctx, uid);
  }

  private watch(informer: ResourceInformer): void {
    const served = informer.served;
    informer.addHandlers({
      onAdd: (obj) => this.observe(nodeOf(served, obj)),
      onUpdate: (_old, obj) => this.observe(nodeOf(served, obj)),
      onDelete: (obj) => this.forget(obj),
    });
  }

  private observe(node: GraphNode): void {
    const uid = node.identity.uid;
    if (!uid) return;
    const before = this.graph.upsert(node);
    if (node.owners.length > 0 && (!before || !sameOwners(before.owners, node.owners))) {
      this.queue.add(`delete:${uid}`);
    }
    // An owner deleting its dependents may now be unblocked by this dependent's change.
    for (const ref of before?.owners ?? []) {
      const stillBlocks = node.owners.some((r) => r.uid === ref.uid && r.blockOwnerDeletion === true);
      if (ref.blockOwnerDeletion === true && !stillBlocks) this.enqueueIfDeletingDependents(ref.uid);
    }
    if (node.orphaning) this.queue.add(`orphan:${uid}`);
    if (node.deletingDependents) {
      this.queue.add(`delete:${uid}`);
      if (!before?.deletingDependents) {
        for (const dep of this.graph.dependentsOf(uid)) this.queue.add(`delete:${dep.identity.uid}`);
      }
    }
  }

  private forget(obj: ApiObject): void {
    const uid = obj.metadata.uid ?? '';
    const removed = this.graph.remove(uid);
    for (const dep of this.graph.dependentsOf(uid)) this.queue.add(`delete:${dep.identity.uid}`);
    for (const ref of removed?.owners ?? obj.metadata.ownerReferences ?? []) this.enqueueIfDeletingDependents(ref.uid);
  }

  private enqueueIfDeletingDependents(ownerUid: string): void {
    if (this.graph.get(ownerUid)?.deletingDependents) this.queue.add(`delete:${ownerUid}`);
  }
}

function sameOwners(a: readonly OwnerReference[], b: readonly OwnerReference[]): boolean {
  if (a.length !== b.length) return false;
  return a.every(
    (r, i) =>
      r.uid === b[i].uid &&
      r.name === b[i].name &&
      r.kind === b[i].kind &&
      r.apiVersion === b[i].apiVersion &&
      (r.blockOwnerDeletion ?? false) === (b[i].blockOwnerDeletion ?? false),
  );
}
