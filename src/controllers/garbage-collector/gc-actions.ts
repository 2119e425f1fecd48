import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../apis/meta/object-meta-validation.js';
import type { ApiObject, OwnerReference } from '../../apis/object.js';
import type { ClientDeleteOptions } from '../../client/api/api-client.js';
import type { Logger } from '../../util/logger.js';
import { deleteLive, getLive, type ObjectRef, updateLive } from '../object-client.js';
import { type DependencyGraph, type GraphNode, hasFinalizer, isDeletingDependents } from './dependency-graph.js';
import type { OwnerResolver } from './owner-resolver.js';

/** What the actions need; `enqueueDelete` asks for `attemptToDelete` of a uid later. */
export interface GcContext {
  readonly graph: DependencyGraph;
  readonly resolver: OwnerResolver;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  enqueueDelete(uid: string): void;
}

/** An owner reference that cannot be checked yet (its kind is not served); the item is retried. */
export class UnresolvableOwnerError extends Error {}

function refOf(node: GraphNode): ObjectRef {
  return node.identity;
}

type OwnerState = 'solid' | 'dangling' | 'waiting';

/**
 * Whether an owner exists, by a live read (never the graph: an owner that appeared after its
 * dependent may not be in it yet). A namespaced owner is looked up in the dependent's namespace;
 * absent or of another uid it is dangling; being deleted in the foreground, it is waiting.
 */
async function ownerState(ctx: GcContext, node: GraphNode, ref: OwnerReference): Promise<OwnerState> {
  const client = ctx.resolver.resolve(ref);
  if (!client) throw new UnresolvableOwnerError(`cannot resolve owner kind ${ref.apiVersion}, Kind=${ref.kind}`);
  const namespaced = client.resource.namespaced;
  // A cluster-scoped dependent cannot have a namespaced owner: kube keeps such a dependent.
  if (namespaced && !node.identity.client.resource.namespaced) return 'solid';
  const owner = await getLive(
    { client, namespace: namespaced ? node.identity.namespace : '', name: ref.name, uid: ref.uid },
    ctx.signal,
  );
  if (!owner) return 'dangling';
  return isDeletingDependents(owner) ? 'waiting' : 'solid';
}

/**
 * kube's `attemptToDeleteItem`: decides, from a live read of the object and of its owners, whether
 * the object is garbage. With an existing owner it stays (references to absent owners and owners
 * deleting their dependents are dropped from it); with none left it is deleted, in the foreground
 * when an owner waits for it and it has dependents of its own, else with the policy its
 * finalizers name (Background by default). An object deleting its dependents is handed to
 * {@link processDeletingDependents}.
 */
export async function attemptToDelete(ctx: GcContext, uid: string): Promise<void> {
  const node = ctx.graph.get(uid);
  if (!node) return;
  if (node.beingDeleted && !node.deletingDependents) return;
  const latest = await getLive(refOf(node), ctx.signal);
  if (!latest) return;
  if (isDeletingDependents(latest)) return processDeletingDependents(ctx, node);
  const owners = latest.metadata.ownerReferences ?? [];
  if (owners.length === 0) return;
  const states = await Promise.all(owners.map((r) => ownerState(ctx, node, r)));
  const solid = owners.filter((_, i) => states[i] === 'solid');
  const dropped = new Set(owners.filter((_, i) => states[i] !== 'solid').map((r) => r.uid));
  const waiting = owners.filter((_, i) => states[i] === 'waiting');
  if (solid.length > 0) {
    if (dropped.size === 0) return;
    ctx.logger.info('garbage collector: removing references to absent or deleting owners', {
      object: describe(node),
      owners: [...dropped],
    });
    await updateLive(
      refOf(node),
      (obj) => {
        const refs = obj.metadata.ownerReferences ?? [];
        const kept = refs.filter((r) => !dropped.has(r.uid));
        if (kept.length === refs.length) return false;
        setOwnerReferences(obj, kept);
        return true;
      },
      { signal: ctx.signal },
    );
    return;
  }
  let policy: NonNullable<ClientDeleteOptions['propagationPolicy']>;
  if (waiting.length > 0 && ctx.graph.dependentsOf(uid).length > 0) {
    if (ctx.graph.dependentsOf(uid).some((d) => d.deletingDependents)) {
      // Its own dependent waits for it too: unblock its owners first, or neither could go.
      await updateLive(refOf(node), unblockOwnerReferences, { signal: ctx.signal });
    }
    policy = 'Foreground';
  } else if (hasFinalizer(latest, FINALIZER_ORPHAN_DEPENDENTS)) policy = 'Orphan';
  else if (hasFinalizer(latest, FINALIZER_DELETE_DEPENDENTS)) policy = 'Foreground';
  else policy = 'Background';
  ctx.logger.info('garbage collector: deleting object whose owners are gone', { object: describe(node), policy });
  await deleteLive(refOf(node), { propagationPolicy: policy }, ctx.signal);
}

/**
 * kube's `processDeletingDependentsItem`: an owner deleted in the foreground loses its
 * `foregroundDeletion` finalizer once no dependent blocks it (`blockOwnerDeletion`); until then
 * its blocking dependents are queued for deletion.
 */
async function processDeletingDependents(ctx: GcContext, node: GraphNode): Promise<void> {
  const blocking = ctx.graph.blockingDependentsOf(node.identity.uid);
  if (blocking.length === 0) {
    ctx.logger.info('garbage collector: no blocking dependents left; removing foregroundDeletion', {
      object: describe(node),
    });
    await removeFinalizer(ctx, node, FINALIZER_DELETE_DEPENDENTS);
    return;
  }
  for (const dep of blocking) if (!dep.deletingDependents) ctx.enqueueDelete(dep.identity.uid);
}

/**
 * kube's `attemptToOrphan`: every dependent loses its owner reference to the owner, then the
 * owner loses its `orphan` finalizer (and, if that was the last one, is removed).
 */
export async function attemptToOrphan(ctx: GcContext, uid: string): Promise<void> {
  const node = ctx.graph.get(uid);
  if (!node?.orphaning) return;
  for (const dep of ctx.graph.dependentsOf(uid)) {
    await updateLive(
      refOf(dep),
      (obj) => {
        const refs = obj.metadata.ownerReferences ?? [];
        const kept = refs.filter((r) => r.uid !== uid);
        if (kept.length === refs.length) return false;
        setOwnerReferences(obj, kept);
        return true;
      },
      { signal: ctx.signal },
    );
  }
  ctx.logger.info('garbage collector: dependents orphaned; removing orphan', { object: describe(node) });
  await removeFinalizer(ctx, node, FINALIZER_ORPHAN_DEPENDENTS);
}

async function removeFinalizer(ctx: GcContext, node: GraphNode, finalizer: string): Promise<void> {
  await updateLive(
    refOf(node),
    (obj) => {
      const list = obj.metadata.finalizers ?? [];
      if (!list.includes(finalizer)) return false;
      const rest = list.filter((f) => f !== finalizer);
      if (rest.length > 0) obj.metadata.finalizers = rest;
      else delete obj.metadata.finalizers;
      return true;
    },
    { signal: ctx.signal },
  );
}

function setOwnerReferences(obj: ApiObject, refs: OwnerReference[]): void {
  if (refs.length > 0) obj.metadata.ownerReferences = refs;
  else delete obj.metadata.ownerReferences;
}

function unblockOwnerReferences(obj: ApiObject): boolean {
  let changed = false;
  for (const r of obj.metadata.ownerReferences ?? []) {
    if (r.blockOwnerDeletion === true) {
      r.blockOwnerDeletion = false;
      changed = true;
    }
  }
  return changed;
}

function describe(node: GraphNode): string {
  const d = node.identity.client.resource;
  const res = d.group ? `${d.resource}.${d.group}` : d.resource;
  return `${res} ${node.identity.namespace ? `${node.identity.namespace}/` : ''}${node.identity.name}`;
}
