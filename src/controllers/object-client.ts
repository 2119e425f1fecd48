import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import type { ServedResource } from '../registry/resource-set/index.js';
import type { DeleteOptions } from '../registry/types.js';
import type { ControllerClient } from './controller-client.js';

/** An object, named as controllers name it. */
export interface ObjectRef {
  readonly served: ServedResource;
  readonly namespace: string;
  readonly name: string;
  /** When set, an object of that name with another uid counts as gone. */
  readonly uid?: string;
}

function isCode(e: unknown, code: number): boolean {
  return e instanceof StatusError && e.code === code;
}

/** Thrown inside an update's compute when the object is not the one meant. */
class ObjectReplaced extends Error {}

/** Throws {@link ObjectReplaced} unless `live` is the object `ref` means. */
function expectObject(ref: ObjectRef, live: ApiObject | undefined): asserts live is ApiObject {
  if (!live || (ref.uid !== undefined && live.metadata.uid !== ref.uid)) throw new ObjectReplaced();
}

/**
 * A live read through the registry; undefined when absent (or replaced by another uid).
 * @throws StatusError for other failures, a 403 from the authorizer included.
 */
export async function getLive(
  client: ControllerClient,
  ref: ObjectRef,
  signal: AbortSignal,
): Promise<ApiObject | undefined> {
  try {
    const obj = await client.get(ref.served, ref, signal);
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
  client: ControllerClient,
  ref: ObjectRef,
  mutate: (obj: ApiObject) => boolean,
  opts: { signal: AbortSignal; subresource?: string },
): Promise<ApiObject | undefined> {
  try {
    return await client.update(
      ref.served,
      { namespace: ref.namespace, name: ref.name, subresource: opts.subresource },
      {
        retryOnConflict: true,
        compute(live) {
          expectObject(ref, live);
          const next = structuredClone(live);
          return mutate(next) ? next : live;
        },
      },
      opts.signal,
    );
  } catch (e) {
    if (e instanceof ObjectReplaced || isCode(e, 404)) return undefined;
    throw e;
  }
}

/**
 * Server-side apply of `config` to an existing object, as the controller's field manager with
 * `force` (controllers own what they apply). Returns the object written, or undefined when the
 * object is gone, was replaced, or no longer satisfies `still` (checked against the freshest
 * object on every attempt): an apply never creates the object again.
 */
export async function applyLive(
  client: ControllerClient,
  ref: ObjectRef,
  config: ApiObject,
  o: { readonly signal: AbortSignal; readonly still?: (live: ApiObject) => boolean },
): Promise<ApiObject | undefined> {
  try {
    return await client.apply(ref.served, ref, config, {
      force: true,
      signal: o.signal,
      expect(live) {
        expectObject(ref, live);
        if (o.still && !o.still(live)) throw new ObjectReplaced();
      },
    });
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
  client: ControllerClient,
  ref: ObjectRef,
  options: Omit<DeleteOptions, 'dryRun'>,
  signal: AbortSignal,
): Promise<boolean> {
  const preconditions = ref.uid !== undefined ? { uid: ref.uid } : undefined;
  try {
    await client.delete(ref.served, ref, { preconditions, ...options }, signal);
    return true;
  } catch (e) {
    // 409: the uid precondition failed, so the object we meant is gone.
    if (isCode(e, 404) || isCode(e, 409)) return false;
    throw e;
  }
}
