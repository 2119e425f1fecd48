import type { KeyValue } from '../store.js';
import type { CachedItem, Decoder } from './types.js';

/**
 * Decodes a stored key-value into a cached item. An unreadable record (flagged `corrupt` by the
 * store, or rejected by `decode`) becomes an item carrying the error instead of an object, so one
 * bad record affects only reads that include it.
 */
export function toCachedItem<T>(kv: KeyValue, decode: Decoder<T>): CachedItem<T> {
  if (kv.corrupt !== undefined) {
    return { key: kv.key, modRevision: kv.modRevision, object: undefined, error: kv.corrupt };
  }
  try {
    return { key: kv.key, modRevision: kv.modRevision, object: decode(kv) };
  } catch (error) {
    return { key: kv.key, modRevision: kv.modRevision, object: undefined, error: error ?? new Error('decode failed') };
  }
}
