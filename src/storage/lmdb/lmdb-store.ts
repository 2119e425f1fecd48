import { type Logger, silentLogger } from '../../util/logger.js';
import { UnavailableError } from '../errors.js';
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
import { type DataDirLock, lockDataDir } from './data-dir-lock.js';
import { KeyIndex } from './key-index.js';
import { cleanUpCompacted, markCompacted } from './lmdb-compaction.js';
import { type LmdbDatabases, openEnv, readCompaction } from './lmdb-env.js';
import { assertValidKey, assertValidPrefix } from './lmdb-keys.js';
import { LmdbWatcher } from './lmdb-watcher.js';
import { checkReadRevision, readRange } from './range-reader.js';
import { MAX_REVISION } from './record-codec.js';
import { type CommittedWrite, RevisionWriter, type WriteOp, type WriteOutcome } from './revision-writer.js';
import { corruptKv, SnapshotReader } from './snapshot-reader.js';
import { WatchHub } from './watch-hub.js';

export interface LmdbStoreOptions {
  /** The data directory (created when missing). One open store per directory at a time. */
  readonly path: string;
  readonly logger?: Logger;
  /**
   * Skip the fsync at commit (tests, benchmarks): acknowledged writes then survive a crash of
   * the process but not of the machine.
   */
  readonly noSync?: boolean;
  /**
   * Acknowledge a write only once lmdb has flushed it to disk. By default a write is
   * acknowledged when its transaction commits; lmdb flushes right after (overlapping sync), so
   * a process crash never loses an acknowledged write, and a machine crash can only lose the
   * last moments of writes, falling back to a consistent earlier state.
   */
  readonly waitForFlush?: boolean;
  /** Live changes a watcher may hold undelivered before it re-reads them from the log (10 000). */
  readonly maxWatchQueue?: number;
}

/**
 * Opens the embedded LMDB store in `options.path`. Resumes an interrupted compaction cleanup in
 * the background. Throws UnavailableError when another live store holds the directory.
 */
export async function openLmdbStore(options: LmdbStoreOptions): Promise<LmdbStore> {
  const lock = lockDataDir(options.path);
  let dbs: LmdbDatabases | undefined;
  try {
    dbs = openEnv({ path: options.path, noSync: options.noSync });
    return new LmdbStore(options, lock, dbs);
  } catch (err) {
    await dbs?.root.close().catch(() => undefined);
    lock.release();
    throw err;
  }
}

/**
 * The embedded MVCC store on LMDB (see the Store contract). Layout and invariants: a
 * revision-keyed log of every change (the only data on disk), an in-memory key index naming
 * each key's latest record, deleted keys included until compaction drops their delete record
 * (KeyIndex, rebuilt from the log at open), and per-key record chains for reads at past
 * revisions (SnapshotReader); writes go through RevisionWriter (validated, revisioned,
 * group-committed); watches replay the log and then follow an in-process fan-out (LmdbWatcher,
 * WatchHub); compaction runs in bounded batches (lmdb-compaction).
 *
 * Writes are linearizable within the owning process; the data directory lock keeps other
 * processes out. A write's AbortSignal is honoured until it is queued; a queued write commits.
 * The bytes passed to create/update are kept by reference for live watch events (no copy):
 * callers must not modify them afterwards.
 */
export class LmdbStore implements Store {
  private readonly logger: Logger;
  private readonly hub: WatchHub;
  private readonly writer: RevisionWriter;
  private readonly watchers = new Set<LmdbWatcher>();
  private readonly maxWatchQueue: number;
  /** Reads lmdb's shared read snapshot, which is stable within one synchronous turn. */
  private readonly reader: SnapshotReader;
  private readonly keyIndex: KeyIndex;
  private compaction: Promise<void> = Promise.resolve();
  private readonly compactionAbort = new AbortController();
  private closing: Promise<void> | undefined;
  private readonly ranges = new Set<Promise<void>>();

  /** Use {@link openLmdbStore}. */
  constructor(
    options: LmdbStoreOptions,
    private readonly lock: DataDirLock,
    private readonly dbs: LmdbDatabases,
  ) {
    this.logger = options.logger ?? silentLogger;
    this.maxWatchQueue = options.maxWatchQueue ?? 10_000;
    // The open verifies the latest values too: the watch caches' first lists then need not.
    this.keyIndex = new KeyIndex(dbs, true);
    this.hub = new WatchHub(this.keyIndex.revision);
    this.reader = new SnapshotReader(dbs);
    for (const revision of this.keyIndex.unattributedRecords) {
      this.logger.error('lmdb store: a log record header is damaged and its key unknown', { revision });
    }
    this.writer = new RevisionWriter({
      dbs,
      keyIndex: this.keyIndex,
      logger: this.logger,
      waitForFlush: options.waitForFlush,
      onCommitted: (writes) => this.publish(writes),
    });
    const { compacted, cleaned } = readCompaction(dbs);
    if (cleaned < compacted) this.compaction = this.cleanUp();
  }

  async currentRevision(signal?: AbortSignal): Promise<bigint> {
    this.check(signal);
    return BigInt(this.keyIndex.revision);
  }

  async compactedRevision(signal?: AbortSignal): Promise<bigint> {
    this.check(signal);
    return BigInt(readCompaction(this.dbs).compacted);
  }

  async get(key: string, opts: { revision?: bigint; signal?: AbortSignal } = {}): Promise<KeyValue | undefined> {
    this.check(opts.signal);
    assertValidKey(key);
    const revision = toRevision(opts.revision);
    // The key index holds the latest committed revision of every key; the log record it names
    // is readable in lmdb's current snapshot (compaction never drops a key's latest record).
    const entry = this.keyIndex.get(key);
    const at = checkReadRevision(this.dbs, this.keyIndex.revision, revision);
    const kv = entry === undefined ? undefined : this.reader.valueAt(key, entry, at);
    if (kv?.corrupt) throw kv.corrupt;
    return kv;
  }

  async range(prefix: string, opts: RangeOptions & { signal?: AbortSignal } = {}): Promise<RangeResult> {
    this.check(opts.signal);
    assertValidPrefix(prefix);
    if (opts.startAfter !== undefined && opts.startAfter !== '') assertValidKey(opts.startAfter);
    if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit < 0)) {
      throw new RangeError(`range limit must be a non-negative integer, got ${opts.limit}`);
    }
    const reading = readRange(this.dbs, this.keyIndex, {
      prefix,
      revision: toRevision(opts.revision),
      limit: opts.limit ?? 0,
      startAfter: opts.startAfter || undefined,
      signal: opts.signal,
      reloadableValues: opts.reloadableValues,
    });
    // A long range reads across event-loop turns; close waits for it.
    const settled = reading.then(
      () => undefined,
      () => undefined,
    );
    this.ranges.add(settled);
    settled.finally(() => this.ranges.delete(settled));
    return reading;
  }

  async count(prefix: string, signal?: AbortSignal): Promise<number> {
    this.check(signal);
    assertValidPrefix(prefix);
    return this.keyIndex.countLive(prefix);
  }

  create(key: string, value: Uint8Array, signal?: AbortSignal): Promise<WriteResult> {
    return this.write({ kind: 'create', key, value }, signal);
  }

  update(key: string, value: Uint8Array, expectedModRevision?: bigint, signal?: AbortSignal): Promise<WriteResult> {
    let expected: number | undefined;
    try {
      expected = toRevision(expectedModRevision);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.write({ kind: 'update', key, value, expected }, signal);
  }

  delete(key: string, expectedModRevision?: bigint, signal?: AbortSignal): Promise<DeleteResult> {
    let expected: number | undefined;
    try {
      expected = toRevision(expectedModRevision);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.write({ kind: 'delete', key, expected }, signal);
  }

  watch(prefix: string, opts: WatchOptions): AsyncIterable<StoreEvent | StoreProgress> {
    this.check();
    assertValidPrefix(prefix);
    const watcher = new LmdbWatcher({
      dbs: this.dbs,
      hub: this.hub,
      logger: this.logger,
      prefix,
      afterRevision: opts.afterRevision < 0n ? 0 : toRevision(opts.afterRevision)!,
      signal: opts.signal,
      progressIntervalMs: opts.progressIntervalMs,
      maxQueue: this.maxWatchQueue,
      onEnd: (w) => this.watchers.delete(w),
    });
    if (!watcher.done) this.watchers.add(watcher);
    return watcher;
  }

  requestWatchProgress(prefix: string): void {
    this.hub.requestProgress(prefix);
  }

  /**
   * Marks `revision` compacted (reads and watches at or below it fail from the moment this
   * resolves), then removes the unreadable history in bounded batches before resolving.
   * Compactions run one at a time.
   */
  async compact(revision: bigint, signal?: AbortSignal): Promise<void> {
    this.check(signal);
    const target = toRevision(revision)!;
    const run = this.compaction.then(async () => {
      this.check(signal);
      await markCompacted({ dbs: this.dbs, logger: this.logger }, target);
      await this.cleanUp(signal);
    });
    this.compaction = run.catch(() => undefined);
    return run;
  }

  /** Ends every watch, waits for queued writes and the running compaction batch, closes lmdb. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const watcher of [...this.watchers]) watcher.end();
      this.compactionAbort.abort();
      await this.writer.close();
      await this.compaction;
      await Promise.all(this.ranges);
      await this.dbs.root.close();
      this.lock.release();
    })();
    return this.closing;
  }

  /** @internal The raw databases, for test helpers that damage records on purpose. */
  databasesForTesting(): LmdbDatabases {
    return this.dbs;
  }

  /** @internal The in-memory key index, for invariant checks in tests. */
  keyIndexForTesting(): KeyIndex {
    return this.keyIndex;
  }

  /** Not an async function: a write is on lmdb's hot path, one promise per write is enough. */
  private write(op: WriteOp, signal?: AbortSignal): Promise<WriteOutcome> {
    try {
      this.check(signal);
      assertValidKey(op.key);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.writer.write(op);
  }

  private cleanUp(signal?: AbortSignal): Promise<void> {
    const abort = signal ? AbortSignal.any([signal, this.compactionAbort.signal]) : this.compactionAbort.signal;
    const deps = {
      dbs: this.dbs,
      logger: this.logger,
      keyIndex: this.keyIndex,
    };
    return cleanUpCompacted(deps, abort).catch((err: unknown) => {
      this.logger.error('lmdb compaction cleanup failed', { error: String(err) });
    });
  }

  /** Hands a committed batch to the synced watchers; values for `prev` are read only if needed. */
  private publish(writes: readonly CommittedWrite[]): void {
    const last = writes[writes.length - 1].revision;
    if (this.hub.size === 0) {
      this.hub.publish(NO_EVENTS, last);
      return;
    }
    const events: StoreEvent[] = [];
    for (const w of writes) {
      const { key } = w.op;
      if (!this.hub.interested(key)) continue;
      const revision = BigInt(w.revision);
      if (w.op.kind === 'delete') {
        events.push({ type: 'delete', key, revision, prev: w.prev });
        continue;
      }
      events.push({ type: 'put', key, revision, kv: w.kv(), prev: this.previousValue(key, w.previousRevision) });
    }
    this.hub.publish(events, last);
  }

  /**
   * The value a put replaced, for its watch event. Never throws: a failed read becomes a corrupt
   * item, so one bad record cannot stop the fan-out (which would leave watchers with a gap).
   */
  private previousValue(key: string, previousRevision: number): KeyValue | undefined {
    if (previousRevision === 0) return undefined;
    try {
      return this.reader.recordAsKv(key, previousRevision);
    } catch (err) {
      this.logger.error('lmdb watch: cannot read a previous value', { key, revision: previousRevision });
      return corruptKv(key, previousRevision, 0, `the previous value cannot be read: ${String(err)}`);
    }
  }

  private check(signal?: AbortSignal): void {
    signal?.throwIfAborted();
    if (this.closing) throw new UnavailableError('the LMDB store is closed');
  }
}

const NO_EVENTS: readonly StoreEvent[] = [];

function toRevision(revision: bigint | undefined): number | undefined {
  if (revision === undefined) return undefined;
  if (revision < 0n || revision > BigInt(MAX_REVISION)) throw new RangeError(`revision out of range: ${revision}`);
  return Number(revision);
}
