import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from '../../util/logger.js';
import { CompactedError } from '../errors.js';
import type { StoreEvent, StoreProgress } from '../store.js';
import { type LmdbDatabases, readCompaction, readRevision } from './lmdb-env.js';
import { decodeLogRecord } from './record-codec.js';
import { SnapshotReader } from './snapshot-reader.js';
import type { SyncedWatcher, WatchHub } from './watch-hub.js';

/** Log records read per catch-up step; the event loop gets a turn between steps. */
const CATCH_UP_CHUNK = 512;

export interface LmdbWatcherOptions {
  readonly dbs: LmdbDatabases;
  readonly hub: WatchHub;
  readonly logger: Logger;
  readonly prefix: string;
  readonly afterRevision: number;
  readonly signal: AbortSignal;
  readonly progressIntervalMs?: number;
  /** Undelivered live changes a watcher may hold before it falls back to reading the log. */
  readonly maxQueue: number;
  /** Called once when the iteration ends (abort, close, error, `return()`). */
  readonly onEnd: (watcher: LmdbWatcher) => void;
}

type Item = StoreEvent | StoreProgress;

const DONE: IteratorResult<Item> = { done: true, value: undefined };

/**
 * One watch: replays the log from `afterRevision + 1`, then receives changes live from the
 * {@link WatchHub}. Pull-based: nothing is read before the consumer asks.
 *
 * States: catching up (reading the log in chunks, `cursor` is the next revision to read) and
 * synced (registered in the hub, live changes queue up here). A synced watcher whose consumer
 * lags by more than `maxQueue` changes drops its queue and catches up again from the first
 * undelivered revision, so a slow consumer costs disk reads, not unbounded memory.
 *
 * The hand-off from the log to live delivery (in {@link LmdbWatcher.catchUp}) is gap-free and
 * duplicate-free; see the comment there.
 */
export class LmdbWatcher implements AsyncIterableIterator<Item>, SyncedWatcher {
  readonly prefix: string;
  private cursor: number;
  /** While synced: live changes below this revision were already read from the log. */
  private liveFrom = 0;
  private synced = false;
  private queue: StoreEvent[] = [];
  private head = 0;
  private ended = false;
  private wake: ((why: 'event' | 'end' | 'progress') => void) | undefined;
  /** A reader asked for progress (see Store.requestWatchProgress); answered once idle. */
  private progressWanted = false;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly onAbort = () => this.end();

  constructor(private readonly options: LmdbWatcherOptions) {
    this.prefix = options.prefix;
    this.cursor = Math.max(0, options.afterRevision) + 1;
    if (options.signal.aborted) this.end();
    else options.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** True once the iteration has ended. */
  get done(): boolean {
    return this.ended;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Item> {
    return this;
  }

  /** Concurrent calls are served one after the other, like an async generator's. */
  next(): Promise<IteratorResult<Item>> {
    const result = this.tail.then(() => this.step());
    this.tail = result.catch(() => undefined);
    return result;
  }

  async return(): Promise<IteratorResult<Item>> {
    this.end();
    return DONE;
  }

  /** From the hub: a committed change under the prefix. */
  push(event: StoreEvent): void {
    if (Number(event.revision) < this.liveFrom) return;
    this.queue.push(event);
    if (this.queue.length - this.head > this.options.maxQueue) this.fallBehind();
    this.wake?.('event');
  }

  /** From the hub: a reader asked for this watch's progress; it is reported once the queue is empty. */
  progressRequested(): void {
    if (this.options.progressIntervalMs === undefined) return;
    this.progressWanted = true;
    this.wake?.('progress');
  }

  /** Ends the iteration: a pending or later `next()` reports done. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.options.hub.remove(this);
    this.options.signal.removeEventListener('abort', this.onAbort);
    this.queue = [];
    this.head = 0;
    this.wake?.('end');
    this.options.onEnd(this);
  }

  private async step(): Promise<IteratorResult<Item>> {
    for (;;) {
      if (this.ended) return DONE;
      if (this.head < this.queue.length) return { done: false, value: this.shift() };
      if (!this.synced) {
        try {
          this.catchUp();
        } catch (err) {
          this.end();
          throw err;
        }
        if (!this.synced && this.head === this.queue.length) await yieldToEventLoop();
        continue;
      }
      if (this.progressWanted) {
        // The queue is empty and holds every change up to the hub's published revision: this
        // revision, read now, runs ahead of no undelivered change.
        this.progressWanted = false;
        const revision = Math.max(this.options.hub.published, this.liveFrom - 1);
        return { done: false, value: { type: 'progress', revision: BigInt(revision) } };
      }
      // Progress is reported at the top of the loop, after whatever was queued meanwhile.
      if ((await this.idle()) === 'progress') this.progressWanted = true;
    }
  }

  private shift(): StoreEvent {
    const event = this.queue[this.head++];
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    }
    return event;
  }

  /**
   * Reads the next chunk of the log into the queue and, once the log is exhausted, switches to
   * live delivery.
   *
   * The hand-off. The chunk is read from one snapshot S whose current revision is `snapshot`.
   * When S holds no log records beyond the ones read, every change up to `snapshot` has been
   * queued (compaction was checked in S, so none was dropped). The hub has handed out every
   * change up to `hub.published` and will hand out every later one. If `snapshot >=
   * hub.published`, registering now with `liveFrom = snapshot + 1` delivers exactly the
   * changes above `snapshot`: those in (published, snapshot] that the hub publishes later are
   * dropped as already read, and no change above `snapshot` was published before we
   * registered. Reading, checking and registering happen in one synchronous step, so no
   * publish can run in between. If S predates `hub.published` (a stale read snapshot), the
   * read snapshot is reset and the step repeats.
   */
  private catchUp(): void {
    const { dbs, hub, prefix } = this.options;
    const txn = dbs.root.useReadTransaction();
    try {
      const { compacted } = readCompaction(dbs, txn);
      if (this.cursor <= compacted) throw new CompactedError(BigInt(this.cursor), BigInt(compacted));
      const reader = new SnapshotReader(dbs, txn);
      let read = 0;
      for (const { key: revision, value } of dbs.log.getRange({
        start: this.cursor,
        limit: CATCH_UP_CHUNK,
        transaction: txn,
      })) {
        read++;
        this.cursor = revision + 1;
        const rec = decodeLogRecord(value);
        if (rec === undefined) {
          this.options.logger.error('lmdb watch: skipping a log record with a damaged header', { revision });
          continue;
        }
        if (rec.key.startsWith(prefix)) this.queue.push(reader.event(rec));
      }
      if (read === CATCH_UP_CHUNK) return;
      const snapshot = readRevision(dbs, txn);
      if (snapshot < hub.published) {
        dbs.root.resetReadTxn();
        return;
      }
      this.cursor = Math.max(this.cursor, snapshot + 1);
      this.liveFrom = this.cursor;
      this.synced = true;
      hub.add(this);
    } finally {
      txn.done();
    }
  }

  /** Too far behind for live delivery: forget the queue and re-read it from the log. */
  private fallBehind(): void {
    this.options.hub.remove(this);
    this.synced = false;
    this.cursor = Number(this.queue[this.head].revision);
    this.queue = [];
    this.head = 0;
  }

  /** Waits for a change or the end; with progress enabled, for at most one interval. */
  private idle(): Promise<'event' | 'end' | 'progress'> {
    return new Promise((resolve) => {
      const interval = this.options.progressIntervalMs;
      const timer =
        interval !== undefined && interval > 0
          ? setTimeout(() => {
              this.wake = undefined;
              resolve('progress');
            }, interval)
          : undefined;
      this.wake = (why) => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve(why);
      };
    });
  }
}
