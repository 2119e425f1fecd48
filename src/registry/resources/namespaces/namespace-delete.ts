import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../../apis/meta/object-meta-validation.js';
import { apiErrors } from '../../../apis/meta/status.js';
import type { ApiObject } from '../../../apis/object.js';
import { ConflictError, NotFoundError } from '../../../storage/errors.js';
import type { KeyValue } from '../../../storage/store.js';
import { formatTime } from '../../../util/clock.js';
import { type DeleteOutcome, deleteValidated } from '../../generic/delete.js';
import { decodeOrThrow, deleteCorruptObject, readErrorToStatus } from '../../generic/delete-corrupt-object.js';
import {
  checkStoragePreconditions,
  effectiveDeleteOptions,
  validateDeleteOptions,
} from '../../generic/delete-options.js';
import { keyFor, type RegistryContext } from '../../generic/registry-context.js';
import { toStatusError } from '../../generic/storage-errors.js';
import { encodeStored, sameBytes } from '../../generic/stored-object.js';
import type { DeleteOptions, RequestContext } from '../../types.js';

/** Namespaces that can never be deleted (kube: default, kube-system, kube-public). */
export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'orch-system', 'orch-public'];

const MAX_ATTEMPTS = 16;

interface NamespaceLike extends ApiObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string };
}

/** A namespace is finalized once its `spec.finalizers` is empty. */
export function namespaceFinalizationPending(obj: ApiObject): boolean {
  return ((obj as NamespaceLike).spec?.finalizers ?? []).length > 0;
}

/** kube's shouldHaveOrphanFinalizer / shouldHaveDeleteDependentsFinalizer: options win, else keep. */
function gcFinalizersOfNamespace(finalizers: readonly string[], o: DeleteOptions): string[] {
  let orphan = finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS);
  let foreground = finalizers.includes(FINALIZER_DELETE_DEPENDENTS);
  if (o.orphanDependents !== undefined) {
    orphan = o.orphanDependents;
    foreground = !o.orphanDependents;
  } else if (o.propagationPolicy !== undefined) {
    orphan = o.propagationPolicy === 'Orphan';
    foreground = o.propagationPolicy === 'Foreground';
  }
  const next = finalizers.filter((f) => f !== FINALIZER_ORPHAN_DEPENDENTS && f !== FINALIZER_DELETE_DEPENDENTS);
  if (orphan) next.push(FINALIZER_ORPHAN_DEPENDENTS);
  if (foreground) next.push(FINALIZER_DELETE_DEPENDENTS);
  return next;
}

/**
 * kube's namespace `Delete`, the lifecycle rules of namespace termination:
 *
 * - `default`, `orch-system` and `orch-public` may not be deleted (403, NamespaceLifecycle).
 * - The first delete sets `deletionTimestamp` and `status.phase: Terminating` (and the GC
 *   finalizers the options ask for), keeps the namespace and returns it: the namespace
 *   controller then empties it and removes `orch` from `spec.finalizers` through `finalize`,
 *   which removes the namespace.
 * - Later deletes return the namespace unchanged while `spec.finalizers` is not empty, and then
 *   delete it as any object (honouring `metadata.finalizers`).
 *
 * Preconditions are checked with the storage-level wording, the uid always (kube adds it).
 */
export async function deleteNamespace(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  options: DeleteOptions,
): Promise<DeleteOutcome> {
  const o = effectiveDeleteOptions(options, rc.allowUnsafeMalformedObjectDeletion === true);
  validateDeleteOptions(o);
  if (o.ignoreStoreReadErrorWithClusterBreakingPotential === true) return deleteCorruptObject(rc, ctx, name, o);
  const key = keyFor(rc, ctx.namespace, name);
  let kv: KeyValue | undefined;
  try {
    kv = await rc.store.get(key, { signal: ctx.signal });
  } catch (e) {
    throw readErrorToStatus(rc, e, name);
  }
  if (!kv) throw apiErrors.notFound(rc.gr, name);
  let live = decodeOrThrow(rc, kv) as NamespaceLike;
  checkStoragePreconditions(rc.gr, live, o);
  if (IMMORTAL_NAMESPACES.includes(name)) throw apiErrors.forbidden(rc.gr, name, 'this namespace may not be deleted');
  // The uid the client saw (or the one just read) guards every later step.
  const guarded: DeleteOptions = {
    ...o,
    preconditions: { uid: live.metadata.uid, ...(o.preconditions ?? {}) },
  };
  if (live.metadata.deletionTimestamp) {
    if (namespaceFinalizationPending(live)) return { obj: live, deleted: false };
    return deleteValidated(rc, ctx, name, guarded);
  }
  for (let attempt = 1; ; attempt++) {
    const marked = structuredClone(live);
    marked.metadata.deletionTimestamp ??= formatTime(rc.clock.now());
    marked.status = { ...(marked.status ?? {}), phase: 'Terminating' };
    const finalizers = gcFinalizersOfNamespace(marked.metadata.finalizers ?? [], o);
    if (finalizers.length > 0) marked.metadata.finalizers = finalizers;
    else delete marked.metadata.finalizers;
    const value = encodeStored(marked);
    if (sameBytes(value, kv.value)) return { obj: live, deleted: false };
    if (o.dryRun) return { obj: marked, deleted: false };
    try {
      const { revision } = await rc.store.update(key, value, kv.modRevision, ctx.signal);
      marked.metadata.resourceVersion = revision.toString();
      return { obj: marked, deleted: false };
    } catch (e) {
      if (e instanceof ConflictError && attempt < MAX_ATTEMPTS && e.current) {
        kv = e.current;
        live = decodeOrThrow(rc, kv) as NamespaceLike;
        checkStoragePreconditions(rc.gr, live, guarded);
        continue;
      }
      if (e instanceof NotFoundError || (e instanceof ConflictError && !e.current)) {
        throw apiErrors.notFound(rc.gr, name);
      }
      throw toStatusError(e, rc.gr, name);
    }
  }
}
