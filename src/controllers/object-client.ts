import type { ApiObject } from '../apis/object.js';
import type { ClientDeleteOptions, ResourceClient } from '../client/api/api-client.js';
import { isStatus } from './controller-support.js';

/** An object, named as controllers name it. */
export interface ObjectRef {
  /** The client of the object's resource (as the controller's identity). */
  readonly client: ResourceClient;
  readonly namespace: string;
  readonly name: string;
  /** When set, an object of that name with another uid counts as gone. */
  readonly uid?: string;
}

/** How often a read-modify-write is retried after 409 Conflict before giving up (the queue retries later). */
const MAX_CONFLICT_RETRIES = 5;

/**
 * A live read (never a cache); undefined when absent (or replaced by another uid).
 * @throws StatusError for other failures, a 403 included.
 */
export async function getLive(ref: ObjectRef, signal: AbortSignal): Promise<ApiObject | undefined> {
  try {
    const obj = await ref.client.get(ref.namespace, ref.name, signal);
    if (ref.uid !== undefined && obj.metadata.uid !== ref.uid) return undefined;
    return obj;
  } catch (e) {
    if (isStatus(e, 404)) return undefined;
    throw e;
  }
}

/**
 * Read-modify-write: reads the object, lets `mutate` edit a copy (it says whether it changed
 * anything; nothing is written otherwise) and writes it back with PUT, the read's
 * resourceVersion as precondition; on 409 Conflict it reads again and retries. Returns the
 * object written (or read), or undefined when the object is gone (or replaced).
 */
export async function updateLive(
  ref: ObjectRef,
  mutate: (obj: ApiObject) => boolean,
  opts: { signal: AbortSignal; subresource?: string },
): Promise<ApiObject | undefined> {
  for (let attempt = 0; ; attempt++) {
    const live = await getLive(ref, opts.signal);
    if (!live) return undefined;
    const next = structuredClone(live);
    if (!mutate(next)) return live;
    try {
      return await ref.client.update(next, opts.signal, { subresource: opts.subresource });
    } catch (e) {
      if (isStatus(e, 404)) return undefined;
      if (isStatus(e, 409) && attempt < MAX_CONFLICT_RETRIES) continue;
      throw e;
    }
  }
}

/**
 * Server-side apply of `config` to an existing object, as the client's field manager with
 * `force` (controllers own what they apply). Returns the object written, or undefined when the
 * object is gone, was replaced, or no longer satisfies `still` (checked against a live read
 * just before the apply).
 */
export async function applyLive(
  ref: ObjectRef,
  config: ApiObject,
  o: { readonly signal: AbortSignal; readonly still?: (live: ApiObject) => boolean },
): Promise<ApiObject | undefined> {
  const live = await getLive(ref, o.signal);
  if (!live || (o.still && !o.still(live))) return undefined;
  try {
    return await ref.client.apply(ref.namespace, ref.name, config, o.signal, { force: true });
  } catch (e) {
    if (isStatus(e, 404)) return undefined;
    throw e;
  }
}

/**
 * Deletes, guarded by the object's uid when known. Returns false when the object was already
 * gone (or replaced), true otherwise (deleted or marked for deletion).
 */
export async function deleteLive(ref: ObjectRef, options: ClientDeleteOptions, signal: AbortSignal): Promise<boolean> {
  const preconditions = ref.uid !== undefined ? { uid: ref.uid } : undefined;
  try {
    await ref.client.delete(ref.namespace, ref.name, { preconditions, ...options }, signal);
    return true;
  } catch (e) {
    // 409: the uid precondition failed, so the object we meant is gone.
    if (isStatus(e, 404) || isStatus(e, 409)) return false;
    throw e;
  }
}
