import type { KeyValue } from '../store.js';

/**
 * One key's value in the cache: the decoded object, or the error decoding it raised (a corrupt
 * record, a value a foreign writer put). Shared by the current state, the event buffer and every
 * reader: treat it and its object as immutable.
 */
export interface CachedItem<T> {
  readonly key: string;
  readonly modRevision: bigint;
  /** Undefined exactly when {@link CachedItem.error} is set. */
  readonly object: T | undefined;
  readonly error?: unknown;
}

/** A watch event as the cacher hands it to its watchers. Event objects are shared: never mutate. */
export type CacheWatchEvent<T> = CacheObjectEvent<T> | CacheBookmarkEvent;

export interface CacheObjectEvent<T> {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /**
   * ADDED/MODIFIED: the object after the change. DELETED: the last state of the object with its
   * resourceVersion at the deletion revision, or, when an update made the object stop matching a
   * watcher's filter, the updated object.
   */
  readonly object: T;
  /** The revision of the change (for synthetic initial ADDED events, the snapshot's revision). */
  readonly revision: bigint;
  /**
   * The consumer's slot (the one field that is not read-only): a form the watch consumer derives
   * from this event (the API layer's watch event, with its encodings), made by the first watcher's
   * consumer and reused by every other watcher handed this same event object. The cacher only
   * creates it empty.
   */
  derived: unknown;
}

export interface CacheBookmarkEvent {
  readonly type: 'BOOKMARK';
  /** Every change up to this revision that matches the watch has been delivered. */
  readonly revision: bigint;
  /**
   * Set on the bookmark that ends the initial events of a `sendInitialEvents` watch; the API
   * layer marks it with the annotation `orch.io/initial-events-end: "true"`.
   */
  readonly initialEventsEnd?: true;
}

/** Turns a stored value into the cached object; throwing marks the item as unreadable. */
export type Decoder<T> = (kv: KeyValue) => T;

/** One change as the event buffer keeps it. */
export interface BufferedEvent<T> {
  readonly revision: bigint;
  readonly key: string;
  /** Milliseconds since the epoch at which the cacher received the change (for the history window). */
  readonly receivedAt: number;
  /** The item after the change; undefined for a deletion. */
  readonly item: CachedItem<T> | undefined;
  /** The item before the change; undefined when the change created the key. */
  readonly prev: CachedItem<T> | undefined;
  /**
   * The event an unfiltered watcher receives (undefined when the new value, or for a deletion the
   * old one, is unreadable: such changes are not delivered, as the store-backed watch does).
   */
  readonly plain: CacheObjectEvent<T> | undefined;
  /** Lazily built variants for filtered watchers, shared by all of them. */
  added?: CacheObjectEvent<T>;
  deletedByFilter?: CacheObjectEvent<T>;
}
