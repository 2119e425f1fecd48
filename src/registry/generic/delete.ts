import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { ConflictError, NotFoundError } from '../../storage/errors.js';
import type { KeyValue } from '../../storage/store.js';
import type { DeleteOptions, RequestContext } from '../types.js';
import { admitWrite, validateWrite } from './admission-calls.js';
import { decodeOrThrow, deleteCorruptObject, readErrorToStatus } from './delete-corrupt-object.js';
import { finalizersForGarbageCollection, markAsDeleting } from './delete-finalizers.js';
import { checkDeletePreconditions, effectiveDeleteOptions, validateDeleteOptions } from './delete-options.js';
import { keyFor, type RegistryContext } from './registry-context.js';
import { toStatusError } from './storage-errors.js';
import { convertOneFromStorage } from './stored-conversion.js';
import { sameBytes } from './stored-object.js';

const MAX_ATTEMPTS = 16;

/** What a delete did: `deleted` is false while the object stays (finalizers pending). */
export interface DeleteOutcome {
  readonly obj: ApiObject;
  readonly deleted: boolean;
}

/**
 * Delete, as kube-apiserver's generic store does it for kinds without graceful deletion:
 *
 * 1. Options are validated (422), and the unsafe delete of a corrupt object branches off.
 * 2. Preconditions (uid, resourceVersion) are checked against the live object (409).
 * 3. `orphan` / `foregroundDeletion` are set or cleared per `propagationPolicy` /
 *    `orphanDependents` (default Background: neither).
 * 4. An object left with finalizers is marked: `deletionTimestamp` (set once),
 *    `deletionGracePeriodSeconds: 0`, generation bumped; it stays, and is returned with
 *    `deleted: false`. A later delete changes nothing but the GC finalizers.
 * 5. Otherwise it is removed from the store, guarded by the revision that was checked.
 *
 * A concurrent writer makes the guarded write fail; the delete then re-reads and re-checks.
 * `gracePeriodSeconds` does not matter: no Orch kind deletes gracefully.
 */
export async function deleteObject(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  options: DeleteOptions,
): Promise<DeleteOutcome> {
  return withValidatedOptions(rc, ctx, name, options, (o) => deleteValidated(rc, ctx, name, o));
}

/**
 * Step 1 of every delete: the options are validated (422) and the unsafe delete of a corrupt
 * object branches off; otherwise `then` deletes with the effective options.
 */
export function withValidatedOptions(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  options: DeleteOptions,
  then: (o: DeleteOptions) => Promise<DeleteOutcome>,
): Promise<DeleteOutcome> {
  const o = effectiveDeleteOptions(options, rc.allowUnsafeMalformedObjectDeletion === true);
  validateDeleteOptions(o, rc.domain.metaGroup);
  if (o.ignoreStoreReadErrorWithClusterBreakingPotential === true) return deleteCorruptObject(rc, ctx, name, o);
  return then(o);
}

/** Steps 2–5 of {@link deleteObject}, for options already validated (namespace registry, collections). */
export async function deleteValidated(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  o: DeleteOptions,
): Promise<DeleteOutcome> {
  const key = keyFor(rc, ctx.namespace, name);
  let kv = await readForDelete(rc, ctx, key, name);
  for (let attempt = 1; ; attempt++) {
    if (!kv) throw apiErrors.notFound(rc.gr, name);
    const live = decodeOrThrow(rc, kv);
    checkDeletePreconditions({ group: rc.def.group, kind: rc.def.kind }, live, o);
    await admitDelete(rc, ctx, live, o);
    try {
      return await deleteOnce(rc, ctx, key, kv, live, o);
    } catch (e) {
      if (e instanceof ConflictError && attempt < MAX_ATTEMPTS) {
        kv = e.current;
        continue;
      }
      if (e instanceof NotFoundError) throw apiErrors.notFound(rc.gr, name);
      throw toStatusError(e, rc.gr, name);
    }
  }
}

async function deleteOnce(
  rc: RegistryContext,
  ctx: RequestContext,
  key: string,
  kv: KeyValue,
  live: ApiObject,
  o: DeleteOptions,
): Promise<DeleteOutcome> {
  const current = live.metadata.finalizers ?? [];
  const gc = finalizersForGarbageCollection(current, o);
  if (current.length > 0 || gc.changed) {
    const marked = structuredClone(live);
    if (gc.changed) marked.metadata.finalizers = gc.finalizers;
    if (gc.finalizers.length > 0) {
      markAsDeleting(marked, rc.clock.now());
      const value = rc.codec.encode(marked);
      // A repeated delete of an object already marked writes nothing.
      if (sameBytes(value, kv.value)) return { obj: live, deleted: false };
      if (o.dryRun) return { obj: marked, deleted: false };
      const { revision } = await rc.store.update(key, value, kv.modRevision, ctx.signal);
      marked.metadata.resourceVersion = revision.toString();
      return { obj: marked, deleted: false };
    }
    // The options removed the only finalizer (e.g. `orphan`, now Background): delete now.
  }
  if (!o.dryRun) await rc.store.delete(key, kv.modRevision, ctx.signal);
  // [write hooks] What the object held outside the store is released (Service allocations).
  await rc.hooks?.afterDelete?.(ctx, live, { dryRun: o.dryRun });
  return { obj: live, deleted: true };
}

/**
 * Mutating, then validating admission of a delete, with the live object (as stored; shown in
 * the request's version) as the old one.
 */
export async function admitDelete(
  rc: RegistryContext,
  ctx: RequestContext,
  live: ApiObject,
  o: DeleteOptions,
): Promise<void> {
  // [conversion] Admission sees a webhook-converted resource in the request's version.
  const old = rc.codec.async ? await convertOneFromStorage(rc, live, ctx.signal) : live;
  const call = {
    operation: 'DELETE',
    object: undefined,
    oldObject: old,
    name: live.metadata.name ?? '',
    dryRun: o.dryRun,
    options: deleteOptionsObject(o),
  } as const;
  await admitWrite(rc, ctx, call);
  await validateWrite(rc, ctx, call);
}

function deleteOptionsObject(o: DeleteOptions): Record<string, unknown> {
  const { dryRun, ...rest } = o;
  return { ...rest, dryRun: dryRun ? ['All'] : undefined };
}

/** The stored object a delete starts from (undefined when absent); read errors as kube reports them. */
export async function readForDelete(
  rc: RegistryContext,
  ctx: RequestContext,
  key: string,
  name: string,
): Promise<KeyValue | undefined> {
  try {
    return await rc.store.get(key, { signal: ctx.signal });
  } catch (e) {
    throw readErrorToStatus(rc, e, name);
  }
}
