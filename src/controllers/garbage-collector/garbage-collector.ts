import type { ApiObject, OwnerReference } from '../../apis/object.js';
import type { Informer } from '../../client/informer/informer.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import { type ControllerContext, type ControllerDescriptor, configNumber } from '../controller-descriptor.js';
import { errorText } from '../controller-support.js';
import { DependencyGraph, type GraphNode, graphNodes } from './dependency-graph.js';
import { attemptToDelete, attemptToOrphan, type GcContext, UnresolvableOwnerError } from './gc-actions.js';
import { OwnerResolver } from './owner-resolver.js';

type Key = `delete:${string}` | `orphan:${string}`;

/** kube-controller-manager's service account (and field manager) of the garbage collector. */
export const GARBAGE_COLLECTOR_NAME = 'generic-garbage-collector';

/** kube's GarbageCollectorControllerConfiguration defaults. */
const DEFAULT_CONCURRENT_GC_SYNCS = 20;
/** kube's default `GCIgnoredResources`: core events. */
export const DEFAULT_GC_IGNORED_RESOURCES: readonly { readonly group: string; readonly resource: string }[] = [
  { group: '', resource: 'events' },
];

/** The `group/resource` keys of `GCIgnoredResources` (items `{Group, Resource}`; lower-case names accepted). */
export function ignoredResources(config: Readonly<Record<string, unknown>>): Set<string> {
  const list = config.GCIgnoredResources;
  if (!Array.isArray(list)) return new Set(DEFAULT_GC_IGNORED_RESOURCES.map((r) => `${r.group}/${r.resource}`));
  const out = new Set<string>();
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const o = item as Record<string, unknown>;
    const group = o.Group ?? o.group ?? '';
    const resource = o.Resource ?? o.resource;
    if (typeof group === 'string' && typeof resource === 'string') out.add(`${group}/${resource}`);
  }
  return out;
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

/**
 * The garbage collector: an owner → dependents graph over every served resource but the
 * ignored ones (fed by the shared informers, so a restart or a re-list reconciles it from
 * scratch), and two kinds of work per object uid, retried with backoff until they succeed:
 *
 * - `delete`: is the object garbage (all owners absent), or an owner deleting its dependents?
 *   Queued for objects with owners when they appear or their owners change, for the dependents
 *   of a deleted object or of an owner starting foreground deletion, and for foreground owners
 *   when a blocking dependent goes away.
 * - `orphan`: an owner deleted with `orphan`: strip it from its dependents, then drop the finalizer.
 *
 * All reads that decide a deletion are live reads; the graph only says which objects to look at.
 */
async function runGarbageCollector(ctx: ControllerContext, syncTimeoutMs: number): Promise<void> {
  const { signal, logger, informers } = ctx;
  if (ctx.config.EnableGarbageCollector === false) {
    logger.info('garbage collector: disabled by EnableGarbageCollector');
    return;
  }
  const ignored = ignoredResources(ctx.config);
  const graph = new DependencyGraph();
  const queue = new WorkQueue<Key>({ signal });
  const gc: GcContext = {
    graph,
    resolver: new OwnerResolver(ctx.client),
    logger,
    signal,
    enqueueDelete: (uid) => queue.add(`delete:${uid}`),
  };
  const enqueueIfDeletingDependents = (ownerUid: string) => {
    if (graph.get(ownerUid)?.deletingDependents) queue.add(`delete:${ownerUid}`);
  };
  const nodeOf = graphNodes();
  const observe = (node: GraphNode) => {
    const uid = node.identity.uid;
    if (!uid) return;
    const before = graph.upsert(node);
    if (node.owners.length > 0 && (!before || !sameOwners(before.owners, node.owners))) queue.add(`delete:${uid}`);
    // An owner deleting its dependents may now be unblocked by this dependent's change.
    for (const ref of before?.owners ?? []) {
      const stillBlocks = node.owners.some((r) => r.uid === ref.uid && r.blockOwnerDeletion === true);
      if (ref.blockOwnerDeletion === true && !stillBlocks) enqueueIfDeletingDependents(ref.uid);
    }
    if (node.orphaning) queue.add(`orphan:${uid}`);
    if (node.deletingDependents) {
      queue.add(`delete:${uid}`);
      if (!before?.deletingDependents) {
        for (const dep of graph.dependentsOf(uid)) queue.add(`delete:${dep.identity.uid}`);
      }
    }
  };
  const forget = (obj: ApiObject) => {
    const uid = obj.metadata.uid ?? '';
    const removed = graph.remove(uid);
    for (const dep of graph.dependentsOf(uid)) queue.add(`delete:${dep.identity.uid}`);
    for (const ref of removed?.owners ?? obj.metadata.ownerReferences ?? []) enqueueIfDeletingDependents(ref.uid);
  };
  const watch = (informer: Informer) => {
    const r = informer.resource;
    if (ignored.has(`${r.group}/${r.resource}`)) return;
    const client = ctx.client.resource(r.group, r.version, r.resource);
    if (!client) return;
    informer.addHandlers({
      onAdd: (obj) => observe(nodeOf(client, obj)),
      // A new object without owners that is not being deleted has no place in the graph.
      ignoresAdd: (shared) =>
        shared.mentions?.('"ownerReferences"') === false && shared.mentions('"deletionTimestamp"') === false,
      onUpdate: (_old, obj) => observe(nodeOf(client, obj)),
      onDelete: forget,
    });
    // Informers started before this controller: what they hold already.
    for (const obj of informer.list()) observe(nodeOf(client, obj));
  };
  for (const informer of informers.all()) watch(informer);
  informers.onAdded(watch);

  const synced = await informers.waitForSync(syncTimeoutMs, signal);
  if (signal.aborted) return;
  if (!synced) logger.warn('garbage collector: not every resource could be listed; starting anyway');
  await queue.run(
    async (key) => {
      const uid = key.slice(key.indexOf(':') + 1);
      if (key.startsWith('delete:')) await attemptToDelete(gc, uid);
      else await attemptToOrphan(gc, uid);
    },
    {
      workers: configNumber(ctx.config, 'ConcurrentGCSyncs', DEFAULT_CONCURRENT_GC_SYNCS),
      onError: (key, err) => {
        const log = err instanceof UnresolvableOwnerError ? logger.info : logger.warn;
        log.call(logger, 'garbage collector: retrying', {
          key,
          error: errorText(err),
        });
      },
    },
  );
}

/**
 * A garbage collector descriptor; `syncTimeoutMs` is how long it waits for every informer's first
 * list before working anyway (default 10 s).
 */
export function garbageCollectorDescriptor(o: { readonly syncTimeoutMs?: number } = {}): ControllerDescriptor {
  return {
    name: 'garbage-collector-controller',
    aliases: ['garbagecollector'],
    serviceAccount: GARBAGE_COLLECTOR_NAME,
    enabledByDefault: true,
    configMember: 'GarbageCollectorController',
    run: (ctx) => runGarbageCollector(ctx, o.syncTimeoutMs ?? 10_000),
  };
}

/**
 * The garbage collector (`garbage-collector-controller`, alias `garbagecollector`), as the
 * service account `generic-garbage-collector`; reads `GarbageCollectorController`
 * (`EnableGarbageCollector`, `ConcurrentGCSyncs` workers (20), `GCIgnoredResources` (core events)).
 */
export const garbageCollectorController: ControllerDescriptor = garbageCollectorDescriptor();
