import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../apis/meta/object-meta-validation.js';
import { apiErrors } from '../../apis/meta/status.js';
import type { ControllerFinalization } from '../../apis/resource-definition.js';
import { ConflictError, NotFoundError } from '../../storage/errors.js';
import { formatTime } from '../../util/clock.js';
import type { DeleteOptions, RequestContext } from '../types.js';
import { admitDelete, type DeleteOutcome, deleteValidated, readForDelete, withValidatedOptions } from './delete.js';
import { decodeOrThrow } from './delete-corrupt-object.js';
import { checkStoragePreconditions } from './delete-options.js';
import { keyFor, type RegistryContext } from './registry-context.js';
import { toStatusError } from './storage-errors.js';
import { sameBytes } from './stored-object.js';

const MAX_ATTEMPTS = 16;

/** kube's shouldHaveOrphanFinalizer / shouldHaveDeleteDependentsFinalizer: options win, else keep. */
function gcFinalizersOf(finalizers: readonly string[], o: DeleteOptions): string[] {
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
 * Delete of a kind a controller finalizes (`strategy.controllerFinalization`; kube's namespace
 * `Delete`):
 *
 * - The first delete sets `deletionTimestamp`, lets the strategy mark the object (a namespace's
 *   `status.phase: Terminating`) and sets the GC finalizers the options ask for; the object stays
 *   and is returned: its controller then finalizes it (the namespace controller empties the
 *   namespace and removes `orch` from `spec.finalizers` through `finalize`, which removes it).
 * - Later deletes return the object unchanged while finalization is pending, and then delete it
 *   as any object (honouring `metadata.finalizers`).
 *
 * Preconditions are checked with the storage-level wording, the uid always (kube adds it).
 */
export function deleteWithFinalization(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  options: DeleteOptions,
  finalization: ControllerFinalization,
): Promise<DeleteOutcome> {
  return withValidatedOptions(rc, ctx, name, options, (o) => markOrDelete(rc, ctx, name, o, finalization));
}

async function markOrDelete(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  o: DeleteOptions,
  finalization: ControllerFinalization,
): Promise<DeleteOutcome> {
  const key = keyFor(rc, ctx.namespace, name);
  let kv = await readForDelete(rc, ctx, key, name);
  if (!kv) throw apiErrors.notFound(rc.gr, name);
  let live = decodeOrThrow(rc, kv);
  checkStoragePreconditions(rc.gr, live, o);
  await admitDelete(rc, ctx, live, o);
  // The uid the client saw (or the one just read) guards every later step.
  const guarded: DeleteOptions = {
    ...o,
    preconditions: { uid: live.metadata.uid, ...(o.preconditions ?? {}) },
  };
  if (live.metadata.deletionTimestamp) {
    if (finalization.pending(live)) return { obj: live, deleted: false };
    return deleteValidated(rc, ctx, name, guarded);
  }
  for (let attempt = 1; ; attempt++) {
    const marked = structuredClone(live);
    marked.metadata.deletionTimestamp ??= formatTime(rc.clock.now());
    finalization.markTerminating(marked);
    const finalizers = gcFinalizersOf(marked.metadata.finalizers ?? [], o);
    if (finalizers.length > 0) marked.metadata.finalizers = finalizers;
    else delete marked.metadata.finalizers;
    const value = rc.codec.encode(marked);
    if (sameBytes(value, kv.value)) return { obj: live, deleted: false };
    if (o.dryRun) return { obj: marked, deleted: false };
    try {
      const { revision } = await rc.store.update(key, value, kv.modRevision, ctx.signal);
      marked.metadata.resourceVersion = revision.toString();
      return { obj: marked, deleted: false };
    } catch (e) {
      if (e instanceof ConflictError && attempt < MAX_ATTEMPTS && e.current) {
        kv = e.current;
        live = decodeOrThrow(rc, kv);
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
