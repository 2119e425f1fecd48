import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../apis/meta/object-meta-validation.js';
import type { ApiObject } from '../../apis/object.js';
import { NotFoundError } from '../../storage/errors.js';
import type { KeyValue } from '../../storage/store.js';
import { formatTime } from '../../util/clock.js';
import type { DeleteOptions, RequestContext } from '../types.js';
import type { RegistryContext } from './registry-context.js';

/**
 * Whether the garbage collector must orphan the dependents, in kube's order of precedence: the
 * legacy `orphanDependents`, then `propagationPolicy`, then a finalizer already on the object,
 * then the kind's default (Background for every Orch kind, so: no).
 */
function shouldOrphan(finalizers: readonly string[], o: DeleteOptions): boolean {
  if (o.orphanDependents !== undefined) return o.orphanDependents;
  if (o.propagationPolicy !== undefined) return o.propagationPolicy === 'Orphan';
  for (const f of finalizers) {
    if (f === FINALIZER_ORPHAN_DEPENDENTS) return true;
    if (f === FINALIZER_DELETE_DEPENDENTS) return false;
  }
  return false;
}

/** Whether the dependents must be deleted first (foreground), with the same precedence. */
function shouldDeleteInForeground(finalizers: readonly string[], o: DeleteOptions): boolean {
  if (o.orphanDependents !== undefined) return false;
  if (o.propagationPolicy !== undefined) return o.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === FINALIZER_DELETE_DEPENDENTS) return true;
    if (f === FINALIZER_ORPHAN_DEPENDENTS) return false;
  }
  return false;
}

/**
 * kube's `deletionFinalizersForGarbageCollection`: the object's finalizers with `orphan` /
 * `foregroundDeletion` set as the delete options say. `changed` is false when the set is the same.
 */
export function finalizersForGarbageCollection(
  finalizers: readonly string[],
  o: DeleteOptions,
): { changed: boolean; finalizers: string[] } {
  const next = finalizers.filter((f) => f !== FINALIZER_ORPHAN_DEPENDENTS && f !== FINALIZER_DELETE_DEPENDENTS);
  if (shouldOrphan(finalizers, o)) next.push(FINALIZER_ORPHAN_DEPENDENTS);
  if (shouldDeleteInForeground(finalizers, o)) next.push(FINALIZER_DELETE_DEPENDENTS);
  const before = new Set(finalizers);
  const after = new Set(next);
  const same = before.size === after.size && [...after].every((f) => before.has(f));
  return same ? { changed: false, finalizers: [...finalizers] } : { changed: true, finalizers: next };
}

/**
 * kube's `markAsDeleting` for kinds without graceful deletion (all Orch kinds): the first delete
 * sets `deletionTimestamp` (later ones keep it) and bumps `generation` when the kind has one;
 * `deletionGracePeriodSeconds` is 0, whatever `gracePeriodSeconds` the client asked for.
 */
export function markAsDeleting(obj: ApiObject, now: Date): void {
  const meta = obj.metadata;
  if (!meta.deletionTimestamp && typeof meta.generation === 'number' && meta.generation > 0) meta.generation += 1;
  if (!meta.deletionTimestamp || Date.parse(meta.deletionTimestamp) > now.getTime()) {
    meta.deletionTimestamp = formatTime(now);
  }
  meta.deletionGracePeriodSeconds = 0;
}

/**
 * kube's `ShouldDeleteDuringUpdate`: an update that leaves an object whose deletion started
 * without finalizers removes it (when its grace period is over, which for Orch kinds is always),
 * unless the kind holds it for its own finalization (a namespace's `spec.finalizers`).
 */
export function shouldDeleteDuringUpdate(rc: RegistryContext, next: ApiObject, live: ApiObject): boolean {
  if ((next.metadata.finalizers ?? []).length > 0) return false;
  if (!live.metadata.deletionTimestamp) return false;
  const grace = live.metadata.deletionGracePeriodSeconds;
  if (grace !== undefined && grace !== null && grace !== 0) return false;
  return !rc.def.strategy.controllerFinalization?.pending(next);
}

/**
 * Removes an object whose last finalizer an update just removed, guarded by the revision the
 * update was computed against (a concurrent write surfaces as the store's ConflictError, which
 * the update loop retries). Returns the object as the update would have written it, as kube does.
 * An object already gone (a racing finalizer removal deleted it) counts as deleted.
 */
export async function deleteDuringUpdate(
  rc: RegistryContext,
  ctx: RequestContext,
  key: string,
  live: KeyValue,
  next: ApiObject,
  dryRun: boolean,
): Promise<ApiObject> {
  if (dryRun) return next;
  try {
    await rc.store.delete(key, live.modRevision, ctx.signal);
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
  }
  return next;
}
