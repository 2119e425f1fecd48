import {
  CompactedError,
  ConflictError,
  CorruptValueError,
  KeyExistsError,
  NotFoundError,
  RevisionTooNewError,
  UnavailableError,
} from '../errors.js';
import type {
  DeleteResult,
  KeyValue,
  RangeOptions,
  RangeResult,
  Store,
  StoreEvent,
  StoreProgress,
  WatchOptions,
  WriteResult,
} from '../store.js';
import { KeyHistory, type KeyRecord } from './key-history.js';
import { type LogEntry, RevisionLog } from './revision-log.js';
import { prefixEnd, SortedKeySet } from './sorted-key-set.js';
import { WatchHub } from './watch-hub.js';

export interface MemoryStoreOptions {
  /**
   * Copy values on write and on every read, so no caller can alter stored bytes through a buffer
   * it passed in or received (default true). Turn off only when every caller treats values as
   * immutable.
   */
  readonly copyValues?: boolean;
}

export interface CorruptRecordOptions {
  /**
   * Damage the current record in place, without a new revision (like a torn page: every read of
   * that version fails, no watch event). Default: commit a damaged record at a new revision, like
   * a foreign writer putting unreadable bytes (watchers receive a `put` whose kv has `corrupt`).
   */
  readonly inPlace?: boolean;
}

/** Sizes of the internal structures, for tests and debugging. */
export interface MemoryStoreStats {
  /** Keys with any retained version (live or deleted but not yet compacted). */
  readonly indexedKeys: number;
  readonly liveKeys: number;
  /** Entries in the revision log (writes since the compacted revision). */
  readonly logEntries: number;
  readonly watchers: number;
}

const EMPTY = new Uint8Array(0);

/**
 * An in-process MVCC {@link Store}: a revision log, a per-key version history and two sorted key
 * indexes (keys with history, keys live at the latest revision). Every write gets the next
 * revision with no gaps. Watches replay from the log and then receive commits synchronously, so a
 * watch never misses or repeats a change.
 *
 * Costs at n keys: point reads O(log versions); a range page of k items at the latest revision
 * O(log n + k + n/512); at a past revision R also O(min(keys under the prefix, writes since R))
 * to compute `remaining`; compaction O(writes being compacted).
 *
 * Test hooks: {@link MemoryStore.corruptRecord} and {@link MemoryStore.setAvailable}.
 */
export class MemoryStore implements Store {
  private revision = 0n;
  private compacted = 0n;
  private readonly histories = new Map<string, KeyHistory>();
  private readonly indexedKeys = new SortedKeySet();
  private readonly liveKeys = new SortedKeySet();
  private readonly log = new RevisionLog();
  private readonly hub = new WatchHub();
  private readonly copyValues: boolean;
  private closed = false;
  private available = true;

  constructor(options: MemoryStoreOptions = {}) {
    this.copyValues = options.copyValues ?? true;
  }

  async currentRevision(signal?: AbortSignal): Promise<bigint> {
    this.check(signal);
    return this.revision;
  }

  async compactedRevision(signal?: AbortSignal): Promise<bigint> {
    this.check(signal);
    return this.compacted;
  }

  async get(key: string, opts: { revision?: bigint; signal?: AbortSignal } = {}): Promise<KeyValue | undefined> {
    this.check(opts.signal);
    const revision = this.readRevision(opts.revision);
    const record = this.histories.get(key)?.at(revision);
    if (record === undefined) return undefined;
    if (record.corrupt !== undefined) throw new CorruptValueError(key, record.corrupt);
    return this.toKeyValue(record);
  }

  async range(prefix: string, opts: RangeOptions & { signal?: AbortSignal } = {}): Promise<RangeResult> {
    this.check(opts.signal);
    const revision = this.readRevision(opts.revision);
    const limit = opts.limit ?? 0;
    if (!Number.isInteger(limit) || limit < 0)
      throw new RangeError(`range limit must be a non-negative integer: ${limit}`);
    const end = prefixEnd(prefix);
    // The smallest key strictly greater than `startAfter` is `startAfter + "\0"`.
    const from = opts.startAfter !== undefined && opts.startAfter >= prefix ? `${opts.startAfter}\u0000` : prefix;
    const atLatest = revision === this.revision;
    const kvs: KeyValue[] = [];
    let next = from;
    const source = atLatest ? this.liveKeys : this.indexedKeys;
    for (const key of source.iterate(from, end)) {
      if (limit > 0 && kvs.length === limit) break;
      const record = this.histories.get(key)?.at(revision);
      next = `${key}\u0000`;
      if (record !== undefined) kvs.push(this.toKeyValue(record));
    }
    const remaining = limit === 0 ? 0 : this.countAt(revision, next, end);
    return { kvs, revision, more: remaining > 0, remaining };
  }

  async count(prefix: string, signal?: AbortSignal): Promise<number> {
    this.check(signal);
    return this.liveKeys.countRange(prefix, prefixEnd(prefix));
  }

  async create(key: string, value: Uint8Array, signal?: AbortSignal): Promise<WriteResult> {
    this.check(signal);
    if (this.liveRecord(key) !== undefined) throw new KeyExistsError(key);
    const revision = this.revision + 1n;
    this.commit('put', { key, modRevision: revision, createRevision: revision, value: this.stored(value) }, undefined);
    return { revision };
  }

  async update(
    key: string,
    value: Uint8Array,
    expectedModRevision?: bigint,
    signal?: AbortSignal,
  ): Promise<WriteResult> {
    this.check(signal);
    const current = this.guard(key, expectedModRevision);
    const revision = this.revision + 1n;
    const record = { key, modRevision: revision, createRevision: current.createRevision, value: this.stored(value) };
    this.commit('put', record, current);
    return { revision };
  }

  async delete(key: string, expectedModRevision?: bigint, signal?: AbortSignal): Promise<DeleteResult> {
    this.check(signal);
    const current = this.guard(key, expectedModRevision);
    const revision = this.revision + 1n;
    this.commit('delete', { key, modRevision: revision, createRevision: 0n, value: null }, current);
    return { revision, prev: this.toKeyValue(current) };
  }

  watch(prefix: string, opts: WatchOptions): AsyncIterable<StoreEvent | StoreProgress> {
    return this.watchEntries(prefix, opts);
  }

  requestWatchProgress(prefix: string): void {
    this.hub.requestProgress(prefix);
  }

  /**
   * Compacts history at and below `revision`. Throws RevisionTooNewError for a future revision and,
   * like etcd, CompactedError when `revision` is already compacted.
   */
  async compact(revision: bigint, signal?: AbortSignal): Promise<void> {
    this.check(signal);
    if (revision > this.revision) throw new RevisionTooNewError(revision, this.revision);
    if (revision <= this.compacted) throw new CompactedError(revision, this.compacted);
    const touched = new Set<string>();
    for (const entry of this.log.compact(revision)) touched.add(entry.key);
    // Only keys written since the previous compaction can hold versions at or below `revision`
    // beyond the single one an earlier compaction kept.
    for (const key of touched) {
      const history = this.histories.get(key);
      if (history === undefined) continue;
      history.compact(revision);
      if (history.isEmpty) {
        this.histories.delete(key);
        this.indexedKeys.delete(key);
      }
    }
    this.compacted = revision;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.hub.endAll();
  }

  /**
   * Test hook: make the record of the live `key` unreadable (see {@link CorruptRecordOptions}).
   * Afterwards `get` throws CorruptValueError and ranges carry the item with `corrupt` set.
   * NotFoundError when the key is absent.
   */
  corruptRecord(key: string, options: CorruptRecordOptions = {}): void {
    const current = this.liveRecord(key);
    if (current === undefined) throw new NotFoundError(key);
    const reason = 'stored record is damaged (simulated)';
    if (options.inPlace) {
      current.corrupt = reason;
      return;
    }
    const revision = this.revision + 1n;
    const record = {
      key,
      modRevision: revision,
      createRevision: current.createRevision,
      value: EMPTY,
      corrupt: reason,
    };
    this.commit('put', record, current);
  }

  /**
   * Test hook: while unavailable every call rejects with UnavailableError; open watches stay open
   * (like a client reconnecting to its server) but send no progress notifications.
   */
  setAvailable(available: boolean): void {
    this.available = available;
  }

  stats(): MemoryStoreStats {
    return {
      indexedKeys: this.indexedKeys.size,
      liveKeys: this.liveKeys.size,
      logEntries: this.log.length,
      watchers: this.hub.size,
    };
  }

  private async *watchEntries(prefix: string, opts: WatchOptions): AsyncGenerator<StoreEvent | StoreProgress> {
    const { signal, afterRevision } = opts;
    if (signal.aborted || this.closed) return;
    const interval = opts.progressIntervalMs;
    if (interval !== undefined && !(Number.isFinite(interval) && interval > 0)) {
      throw new RangeError(`progressIntervalMs must be a positive number: ${interval}`);
    }
    if (afterRevision < this.compacted) throw new CompactedError(afterRevision + 1n, this.compacted);
    // Backlog and registration happen in one synchronous step, so no commit falls between them.
    const backlog: LogEntry[] = [];
    for (const entry of this.log.after(afterRevision)) if (entry.key.startsWith(prefix)) backlog.push(entry);
    const sub = this.hub.subscribe(prefix, backlog);
    const onAbort = () => sub.end();
    signal.addEventListener('abort', onAbort, { once: true });
    const progress =
      interval !== undefined
        ? {
            intervalMs: interval,
            revision: () => (this.available && !this.closed ? this.revision : undefined),
          }
        : undefined;
    try {
      for (;;) {
        const item = await sub.next(progress);
        if (item === undefined) return;
        yield item.type === 'progress' ? item : this.toEvent(item);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      sub.end();
    }
  }

  private commit(type: 'put' | 'delete', record: KeyRecord, prev: KeyRecord | undefined): void {
    const key = record.key;
    let history = this.histories.get(key);
    if (history === undefined) {
      history = new KeyHistory();
      this.histories.set(key, history);
      this.indexedKeys.add(key);
    }
    history.push(record);
    if (type === 'put') this.liveKeys.add(key);
    else this.liveKeys.delete(key);
    this.revision = record.modRevision;
    const entry: LogEntry = { revision: record.modRevision, type, key, record, prev };
    this.log.append(entry);
    this.hub.publish(entry);
  }

  /** The live record, checked against `expectedModRevision` (NotFoundError, ConflictError). */
  private guard(key: string, expectedModRevision: bigint | undefined): KeyRecord {
    const current = this.liveRecord(key);
    if (current === undefined) throw new NotFoundError(key);
    if (expectedModRevision !== undefined && current.modRevision !== expectedModRevision) {
      throw new ConflictError(key, expectedModRevision, this.toKeyValue(current));
    }
    return current;
  }

  private liveRecord(key: string): KeyRecord | undefined {
    const latest = this.histories.get(key)?.latest;
    return latest === undefined || latest.value === null ? undefined : latest;
  }

  /** Validates a read revision; undefined means the latest. */
  private readRevision(revision: bigint | undefined): bigint {
    if (revision === undefined) return this.revision;
    if (revision > this.revision) throw new RevisionTooNewError(revision, this.revision);
    if (this.compacted > 0n && revision <= this.compacted) throw new CompactedError(revision, this.compacted);
    return revision;
  }

  /** Keys in `[from, end)` live at `revision`. */
  private countAt(revision: bigint, from: string, end: string | undefined): number {
    const liveNow = this.liveKeys.countRange(from, end);
    if (revision === this.revision) return liveNow;
    const scanCost = this.indexedKeys.countRange(from, end);
    const replayCost = this.log.countAfter(revision);
    if (scanCost <= replayCost) {
      let n = 0;
      for (const key of this.indexedKeys.iterate(from, end)) if (this.histories.get(key)?.at(revision)) n++;
      return n;
    }
    // Start from the live count and correct it for each key written after `revision`.
    let n = liveNow;
    const seen = new Set<string>();
    for (const entry of this.log.after(revision)) {
      const key = entry.key;
      if (key < from || (end !== undefined && key >= end) || seen.has(key)) continue;
      seen.add(key);
      const history = this.histories.get(key);
      const thenLive = history?.at(revision) !== undefined;
      const nowLive = this.liveKeys.has(key);
      n += (thenLive ? 1 : 0) - (nowLive ? 1 : 0);
    }
    return n;
  }

  private check(signal: AbortSignal | undefined): void {
    signal?.throwIfAborted();
    if (this.closed) throw new UnavailableError('memory store is closed');
    if (!this.available) throw new UnavailableError('memory store is unavailable (test hook)');
  }

  private stored(value: Uint8Array): Uint8Array {
    return this.copyValues ? value.slice() : value;
  }

  private toKeyValue(record: KeyRecord): KeyValue {
    const base = { key: record.key, createRevision: record.createRevision, modRevision: record.modRevision };
    if (record.corrupt !== undefined) {
      return { ...base, value: EMPTY, corrupt: new CorruptValueError(record.key, record.corrupt) };
    }
    const value = record.value ?? EMPTY;
    return { ...base, value: this.copyValues ? value.slice() : value };
  }

  private toEvent(entry: LogEntry): StoreEvent {
    const prev = entry.prev === undefined ? undefined : this.toKeyValue(entry.prev);
    if (entry.type === 'delete') return { type: 'delete', key: entry.key, revision: entry.revision, prev };
    return { type: 'put', key: entry.key, revision: entry.revision, kv: this.toKeyValue(entry.record), prev };
  }
}
