import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { deepEqual } from '../../util/deep-equal.js';
import { parseJson } from '../../util/json-text.js';
import type { WatchEvent } from '../types.js';
import type { RegistryContext } from './registry-context.js';

/**
 * The asynchronous half of the storage codec (custom resources converted by a webhook). A codec
 * without `async` converted in `encode`/`decode` already; these helpers are then never awaited
 * on the hot path: callers test `rc.codec.async` first, so built-in kinds keep their
 * synchronous reads and writes.
 */

/**
 * Objects as `rc.codec.decode` returned them, shown in the definition's version: converted in
 * one batch (one ConversionReview), one result per input, in order. Rejects with the
 * conversion's `StatusError`.
 */
export async function convertFromStorage(
  rc: RegistryContext,
  stored: readonly ApiObject[],
  signal: AbortSignal,
): Promise<ApiObject[]> {
  const conversion = rc.codec.async;
  if (!conversion || stored.length === 0) return [...stored];
  return conversion.fromStorage(stored, signal);
}

/** One stored object in the definition's version (see {@link convertFromStorage}). */
export async function convertOneFromStorage(
  rc: RegistryContext,
  stored: ApiObject,
  signal: AbortSignal,
): Promise<ApiObject> {
  const conversion = rc.codec.async;
  if (!conversion) return stored;
  const [obj] = await conversion.fromStorage([stored], signal);
  return obj as ApiObject;
}

/** An object converted for a write: the object in the storage version and its bytes. */
export interface StoredForm {
  readonly stored: ApiObject;
  readonly value: Uint8Array;
}

/**
 * The stored form of an object of the definition's version, converted to the storage version
 * (the codec must be asynchronous). Nothing is written when this rejects.
 */
export async function storedForm(rc: RegistryContext, obj: ApiObject, signal: AbortSignal): Promise<StoredForm> {
  const conversion = rc.codec.async;
  const [stored] = conversion ? await conversion.toStorage([obj], signal) : [obj];
  return { stored: stored as ApiObject, value: rc.codec.encode(stored as ApiObject) };
}

/**
 * What a write answers for a webhook-converted resource, as kube decodes the written value:
 * the stored form, at its new revision, shown in the definition's version again.
 */
export async function shownAfterWrite(
  rc: RegistryContext,
  form: StoredForm,
  revision: bigint,
  signal: AbortSignal,
): Promise<ApiObject> {
  const stored = structuredClone(form.stored);
  stored.metadata.resourceVersion = revision.toString();
  return convertOneFromStorage(rc, stored, signal);
}

const decoder = new TextDecoder();

/**
 * Whether a converted object's stored form says what the stored value says. A webhook may
 * order fields differently from the stored JSON (Go's maps have no order), so an update that
 * changes nothing is recognised by value, not by bytes.
 */
export function sameStoredValue(a: Uint8Array, b: Uint8Array): boolean {
  try {
    return deepEqual(parseJson(decoder.decode(a)), parseJson(decoder.decode(b)));
  } catch {
    return false;
  }
}

/**
 * A batch of watch events in the definition's version: the objects of change events are
 * converted in one batch (bookmarks and errors pass through). When the conversion fails the
 * batch is replaced by one ERROR event carrying the failure's `Status`, and `failed` is set
 * (the stream then ends, as a client re-lists after an ERROR event).
 */
export async function convertWatchBatch(
  rc: RegistryContext,
  batch: readonly WatchEvent[],
  signal: AbortSignal,
): Promise<{ events: WatchEvent[]; failed: boolean }> {
  const at: number[] = [];
  const objects: ApiObject[] = [];
  batch.forEach((ev, i) => {
    if (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED') {
      at.push(i);
      objects.push(ev.object);
    }
  });
  if (objects.length === 0) return { events: [...batch], failed: false };
  let converted: ApiObject[];
  try {
    converted = await convertFromStorage(rc, objects, signal);
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return { events: [{ type: 'ERROR', object: e.toStatus() as unknown as ApiObject }], failed: true };
  }
  const events = [...batch];
  at.forEach((i, n) => {
    events[i] = { type: (batch[i] as WatchEvent).type, object: converted[n] as ApiObject };
  });
  return { events, failed: false };
}
