import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import type { ServedResource } from '../endpoints/served-resources.js';
import type { DeleteOptions, RequestContext } from '../registry/types.js';

/** An object, named as controllers name it. */
export interface ObjectRef {
  readonly served: ServedResource;
  readonly namespace: string;
  readonly name: string;
  /** When set, an object of that name with another uid counts as gone. */
  readonly uid?: string;
}

function ctxOf(ref: ObjectRef, signal: AbortSignal): RequestContext {
  return { namespace: ref.served.def.namespaced ? ref.namespace : '', signal };
}

function isCode(e: unknown, code: number): boolean {
  return e instanceof StatusError && e.code === code;
}

/** Thrown inside an update's compute when the object is not the one meant. */
class ObjectReplaced extends Error {}

/** A live read through the registry; undefined when absent (or replaced by another uid). */
export async function getLive(ref: ObjectRef, signal: AbortSignal): Promise<ApiObject | undefined> {
  try {
    const obj = await ref.served.store.get(ctxOf(ref, signal), ref.name, {});
    if (ref.uid !== undefined && obj.metadata.uid !== ref.uid) return undefined;
    return obj;
  } catch (e) {
    if (isCode(e, 404)) return undefined;
    throw e;
  }
}

/**
 * Read-modify-write through the registry (re-run against the freshest object on conflict).
 * `mutate` edits a copy and says whether it changed anything; nothing is written otherwise.
 * Returns the object written (or read), or undefined when the object is gone.
 */
export async function updateLive(
  ref: ObjectRef,
  mutate: (obj: ApiObject) => boolean,
  opts: { signal: AbortSignal; subresource?: string },
): Promise<ApiObject | undefined> {
  try {
    const r = await ref.served.store.update(
      ctxOf(ref, opts.signal),
      ref.name,
      {
        retryOnConflict: true,
        compute(live) {
          if (!live || (ref.uid !== undefined && live.metadata.uid !== ref.uid)) throw new ObjectReplaced();
          const next = structuredClone(live);
          return mutate(next) ? next : live;
        },
      },
      { dryRun: false, subresource: opts.subresource },
    );
    return r.obj;
  } catch (e) {
    if (e instanceof ObjectReplaced || isCode(e, 404)) return undefined;
    throw e;
  }
}

/**
 * Deletes through the registry, guarded by the object's uid when known. Returns false when the
 * object was already gone (or replaced), true otherwise (deleted or marked for deletion).
 */
export async function deleteLive(
  ref: ObjectRef,
  options: Omit<DeleteOptions, 'dryRun'>,
  signal: AbortSignal,
): Promise<boolean> {
  const preconditions = ref.uid !== undefined ? { uid: ref.uid } : undefined;
  try {
    await ref.served.store.delete(ctxOf(ref, signal), ref.name, { dryRun: false, preconditions, ...options });
    return true;
  } catch (e) {
    // 409: the uid precondition failed, so the object we meant is gone.
    if (isCode(e, 404) || isCode(e, 409)) return false;
    throw e;
  }
}
