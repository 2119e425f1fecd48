/**
 * The MVCC backend contract every storage backend implements (embedded LMDB, etcd, memory).
 *
 * Revisions: every successful write (create, update, delete) is assigned the next global
 * revision of the store; revisions strictly increase and are never reused. A key's
 * `modRevision` is the revision of its last write, `createRevision` that of the write that
 * created its current incarnation. `metadata.resourceVersion` is the decimal string of a
 * revision.
 *
 * Values are opaque bytes to the store.
 */
export interface KeyValue {
  readonly key: string;
  /** The stored bytes; empty when {@link KeyValue.corrupt} is set. */
  readonly value: Uint8Array;
  readonly createRevision: bigint;
  readonly modRevision: bigint;
  /**
   * Set when the stored record for this key cannot be read back (damaged framing, a value
   * written by a foreign writer). Ranges and watches carry such items instead of failing;
   * `get` throws the error.
   */
  readonly corrupt?: CorruptValueErrorLike;
  /**
   * Reads the same value again from the store (set by a store that can, when asked with
   * `reloadableValues`): `values.read(key, modRevision)`. One reader serves every item of a
   * range, so a caller that keeps many items keeps one reference each, not one closure each.
   */
  readonly values?: StoredValues;
}

/** A store's values read again on demand (see {@link KeyValue.values}). */
export interface StoredValues {
  /**
   * The value of `key` as written at `revision`: the record stays readable while it is the
   * key's latest, and until compaction passes the revision that replaced it. Throws a
   * CorruptValueError when it is gone. With `view`, the bytes may be a view of the store's read
   * buffer, valid only until the next read of the store: use them at once (no copy is made).
   */
  read(key: string, revision: bigint, view?: boolean): Uint8Array;
}

/** Structural view of CorruptValueError, to keep this file free of runtime imports. */
export interface CorruptValueErrorLike extends Error {
  readonly code: 'CorruptValue';
  readonly key: string;
}

export interface RangeOptions {
  /** Read at this revision (a consistent snapshot); the latest when unset. */
  readonly revision?: bigint;
  /** Maximum number of items; unlimited when unset or 0. */
  readonly limit?: number;
  /** Return only keys strictly greater than this one (used for continue tokens). */
  readonly startAfter?: string;
  /**
   * The caller keeps values long (a watch cache): a store that can read a value again on
   * demand sets {@link KeyValue.values} on the items, so the caller may keep that instead of
   * the bytes; `value` may then be read from the store when first asked for.
   */
  readonly reloadableValues?: boolean;
}

export interface RangeResult {
  /** Items in ascending key order. */
  readonly kvs: KeyValue[];
  /** The revision the range was read at. */
  readonly revision: bigint;
  /** True when keys beyond the last returned one remain under the prefix. */
  readonly more: boolean;
  /** How many keys under the prefix remain after the last returned one. */
  readonly remaining: number;
}

export type StoreEventType = 'put' | 'delete';

export interface StoreEvent {
  readonly type: StoreEventType;
  readonly key: string;
  /** Revision of this change. */
  readonly revision: bigint;
  /** The new value for `put`; undefined for `delete`. */
  readonly kv?: KeyValue;
  /** The value before the change; undefined for the put that created the key. */
  readonly prev?: KeyValue;
}

/** A notification that every change up to `revision` has been delivered (watch progress). */
export interface StoreProgress {
  readonly type: 'progress';
  readonly revision: bigint;
}

export interface WatchOptions {
  /** Deliver every change with a revision strictly greater than this one. */
  readonly afterRevision: bigint;
  readonly signal: AbortSignal;
  /**
   * When set, the backend also yields {@link StoreProgress} notifications while idle (at
   * most every `progressIntervalMs`), so consumers learn the store's revision advanced.
   */
  readonly progressIntervalMs?: number;
}

export interface WriteResult {
  /** The store revision assigned to the write. */
  readonly revision: bigint;
}

export interface DeleteResult extends WriteResult {
  /** The value that was deleted. */
  readonly prev: KeyValue;
}

/**
 * The storage contract. All methods may reject with a {@link StorageError} subclass:
 * `KeyExistsError`, `NotFoundError`, `ConflictError` (carrying the current value),
 * `CompactedError` (carrying the compacted revision), `RevisionTooNewError`,
 * `UnavailableError`, `CorruptValueError`.
 *
 * Concurrency: writes are linearizable; a conditional write either applies atomically at
 * its revision or fails with ConflictError. Several processes may share one backend (etcd),
 * so nothing may assume a single writer.
 */
export interface Store {
  /** The latest revision of the store (0 for an empty, never-written store). */
  currentRevision(signal?: AbortSignal): Promise<bigint>;
  /** The highest compacted revision: reads and watches at or below it fail (0 when none). */
  compactedRevision(signal?: AbortSignal): Promise<bigint>;
  /**
   * The key at the latest revision, or as of `revision`. Undefined when absent. Throws
   * CompactedError when `revision` is compacted, RevisionTooNewError when it is in the future,
   * CorruptValueError when the stored record cannot be read.
   */
  get(key: string, opts?: { revision?: bigint; signal?: AbortSignal }): Promise<KeyValue | undefined>;
  /** Keys starting with `prefix` (plain string prefix: callers end prefixes with `/`). */
  range(prefix: string, opts?: RangeOptions & { signal?: AbortSignal }): Promise<RangeResult>;
  /** Count of keys under `prefix` at the latest revision. */
  count(prefix: string, signal?: AbortSignal): Promise<number>;
  /** Create the key; KeyExistsError when it exists. */
  create(key: string, value: Uint8Array, signal?: AbortSignal): Promise<WriteResult>;
  /**
   * Replace the value of an existing key. NotFoundError when absent. When
   * `expectedModRevision` is given and differs from the key's modRevision, ConflictError
   * carrying the current value; when undefined, the write is unconditional.
   */
  update(key: string, value: Uint8Array, expectedModRevision?: bigint, signal?: AbortSignal): Promise<WriteResult>;
  /** Delete the key, guarded like {@link Store.update}. */
  delete(key: string, expectedModRevision?: bigint, signal?: AbortSignal): Promise<DeleteResult>;
  /**
   * Every change under `prefix` after `afterRevision`, in revision order, exactly once, with no
   * gaps. Iteration throws CompactedError when `afterRevision` is below the compacted revision
   * (`afterRevision + 1 <= compacted`), UnavailableError when the backend is lost for good.
   * Ends when the signal aborts.
   */
  watch(prefix: string, opts: WatchOptions): AsyncIterable<StoreEvent | StoreProgress>;
  /**
   * Asks the watches of exactly `prefix` that were opened with `progressIntervalMs` for a
   * progress notification as soon as they have delivered every change before it, rather than at
   * their next interval (kube's RequestWatchProgress): a reader waiting for a watch cache to reach
   * the store's revision after writes elsewhere need not wait an interval. Absent where the
   * backend cannot answer truthfully at once (etcd: see etcd-watch.ts).
   */
  requestWatchProgress?(prefix: string): void;
  /** Drop history at and below `revision`; later reads below it fail with CompactedError. */
  compact(revision: bigint, signal?: AbortSignal): Promise<void>;
  /** Release resources; pending watches end. */
  close(): Promise<void>;
}
