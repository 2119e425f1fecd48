import { WatcherTooSlowError } from './cacher-errors.js';
import type { BufferedEvent, CacheBookmarkEvent, CacheObjectEvent, CacheWatchEvent } from './types.js';

/** The cacher side of a watcher: how it catches up through the event buffer and leaves. */
export interface WatcherHost<T> {
  /**
   * Up to `max` events after the watcher's position, read from the event buffer, advancing the
   * position; once the buffer holds nothing newer, registers the watcher for live dispatch (in
   * the same synchronous step, so no change falls between). Throws ResourceVersionTooOldError when
   * the buffer no longer reaches back to the position.
   */
  catchUp(watcher: CacheWatcher<T>, max: number): CacheWatchEvent<T>[];
  /** Removes the watcher from dispatch and bookkeeping. Idempotent. */
  detach(watcher: CacheWatcher<T>): void;
}

export interface CacheWatcherInit<T> {
  readonly host: WatcherHost<T>;
  readonly prefix: string;
  readonly filter: ((obj: T) => boolean) | undefined;
  readonly allowBookmarks: boolean;
  /** Live events queued beyond this count terminate the watcher with WatcherTooSlowError. */
  readonly bufferSize: number;
  /** Changes up to this revision are not delivered (the start revision, or the snapshot's). */
  readonly position: bigint;
  /** Synthetic ADDED objects to send first (already filtered), at revision `position`. */
  readonly initial?: readonly T[];
  /** Send a BOOKMARK with `initialEventsEnd` after the initial objects. */
  readonly initialEventsEnd?: boolean;
  /** Stops the watcher when aborted. */
  readonly signal?: AbortSignal;
}

/** A consumer's synchronous side of a watcher (see {@link CacheWatcher.setListener}). */
export interface WatcherListener<T> {
  /** Events were queued or the watch ended: poll. */
  wake(): void;
  /** Takes one live event now, or returns false to have it queued. */
  offer?(event: CacheWatchEvent<T>): boolean;
}

/** How many events one batch carries at most while replaying the snapshot or the buffer. */
const REPLAY_BATCH = 512;

type Phase = 'initial' | 'catching-up' | 'live' | 'ended';

/**
 * A watch on the cache, one consumer at a time.
 *
 * Phases: initial (the snapshot as ADDED events) → catching-up (buffered events after the
 * position, read lazily from the shared buffer, so a watcher replaying a long history holds no
 * copy of it) → live (the dispatcher pushes each matching change into a bounded queue). A watcher
 * never sees a change twice or misses one: its position is the revision of the last change it was
 * given or passed over, and every phase delivers only changes after it.
 *
 * Consumption: iterate events (`for await`), or {@link CacheWatcher.batches} to take everything
 * queued at once (one wake-up per batch, not per event), or {@link CacheWatcher.poll} with a
 * listener ({@link CacheWatcher.setListener}) to take them synchronously as they are dispatched. Iteration ends when the watch is stopped
 * or its signal aborts; it throws ResourceVersionTooOldError or WatcherTooSlowError when the
 * cacher terminates it (after the events queued before the termination).
 */
export class CacheWatcher<T> implements AsyncIterable<CacheWatchEvent<T>> {
  readonly prefix: string;
  readonly filter: ((obj: T) => boolean) | undefined;
  readonly allowBookmarks: boolean;
  /** Revision of the last change this watcher was given or passed over. */
  position: bigint;
  /** The dispatcher's bookmark tick at the last push (idle detection). */
  lastPushTick = 0;
  private phase: Phase;
  private readonly host: WatcherHost<T>;
  private readonly bufferSize: number;
  private initial: readonly T[] | undefined;
  private initialIndex = 0;
  private readonly initialRevision: bigint;
  private sendEndBookmark: boolean;
  private queue: CacheWatchEvent<T>[] = [];
  private failure: unknown;
  private wake: (() => void) | undefined;
  private listener: WatcherListener<T> | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly onAbort = (): void => this.stop();

  constructor(init: CacheWatcherInit<T>) {
    this.host = init.host;
    this.prefix = init.prefix;
    this.filter = init.filter;
    this.allowBookmarks = init.allowBookmarks;
    this.bufferSize = init.bufferSize;
    this.position = init.position;
    this.initialRevision = init.position;
    this.initial = init.initial;
    this.sendEndBookmark = init.initialEventsEnd ?? false;
    this.phase = init.initial !== undefined || this.sendEndBookmark ? 'initial' : 'catching-up';
    this.signal = init.signal;
    this.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  get ended(): boolean {
    return this.phase === 'ended';
  }

  /** Events waiting in the live queue (bounded by the buffer size). */
  get queued(): number {
    return this.queue.length;
  }

  /** Called by the host when the watcher joins live dispatch. */
  goLive(): void {
    if (this.phase === 'catching-up') this.phase = 'live';
  }

  /** Live dispatch of one buffered change under this watcher's prefix. */
  deliver(event: BufferedEvent<T>): void {
    if (this.phase !== 'live' || event.revision <= this.position) return;
    this.position = event.revision;
    const view = viewFor(event, this.filter);
    if (view !== undefined) this.push(view);
  }

  /** Queues a bookmark (the dispatcher only calls this while the watcher is idle). */
  bookmark(event: CacheBookmarkEvent): void {
    if (this.phase !== 'live' || event.revision <= this.position) return;
    this.position = event.revision;
    this.push(event);
  }

  /**
   * Ends the watcher because the cacher cannot serve it any longer: events already queued are
   * still handed out, then iteration throws `error`.
   */
  terminate(error: unknown): void {
    if (this.phase === 'ended') return;
    this.phase = 'ended';
    this.failure = error;
    this.initial = undefined;
    this.release();
  }

  /** Ends the watch: iteration finishes without error. Idempotent. */
  stop(): void {
    if (this.phase === 'ended' && this.failure === undefined && this.queue.length === 0) return;
    this.phase = 'ended';
    this.failure = undefined;
    this.queue = [];
    this.initial = undefined;
    this.release();
  }

  /**
   * The next batch of events if one is ready now, without waiting: the events, `undefined` once
   * the watch has ended, or `null` when nothing is ready yet (the listener, see
   * {@link CacheWatcher.setListener}, or {@link CacheWatcher.nextBatch} learns when something is).
   * Throws what {@link CacheWatcher.nextBatch} rejects with. One caller at a time.
   */
  poll(): CacheWatchEvent<T>[] | undefined | null {
    for (;;) {
      if (this.phase === 'initial') {
        const initial = this.initial ?? [];
        if (this.initialIndex < initial.length) {
          const end = Math.min(initial.length, this.initialIndex + REPLAY_BATCH);
          const batch: CacheWatchEvent<T>[] = [];
          for (let i = this.initialIndex; i < end; i++) {
            batch.push({ type: 'ADDED', object: initial[i], revision: this.initialRevision, derived: undefined });
          }
          this.initialIndex = end;
          return batch;
        }
        this.initial = undefined;
        this.phase = 'catching-up';
        if (this.sendEndBookmark) {
          this.sendEndBookmark = false;
          return [{ type: 'BOOKMARK', revision: this.initialRevision, initialEventsEnd: true }];
        }
      }
      if (this.phase === 'catching-up') {
        let batch: CacheWatchEvent<T>[];
        try {
          batch = this.host.catchUp(this, REPLAY_BATCH);
        } catch (e) {
          this.terminate(e);
          continue;
        }
        if (batch.length > 0) return batch;
        continue;
      }
      if (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        return batch;
      }
      if (this.phase === 'ended') {
        const failure = this.failure;
        if (failure === undefined) return undefined;
        this.failure = undefined;
        throw failure;
      }
      return null;
    }
  }

  /** The next batch of events, or undefined once the watch has ended. One caller at a time. */
  async nextBatch(): Promise<CacheWatchEvent<T>[] | undefined> {
    for (;;) {
      const batch = this.poll();
      if (batch !== null) return batch;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  /**
   * Registers the consumer's synchronous side (undefined removes it). `listener.wake` is called,
   * in the same synchronous step, each time events are queued or the watch ends, so the consumer
   * can take them with {@link CacheWatcher.poll} without a promise per wake-up. `listener.offer`,
   * when set, is first offered each live event while nothing is queued: returning true takes the
   * event (it is not queued and no wake-up follows); false queues it as usual (a consumer that is
   * paused). Both run inside the cacher's dispatch of a change to every watcher: they must be
   * quick and must not throw (if one throws, the listener is removed and the watcher ends with
   * the error).
   */
  setListener(listener: WatcherListener<T> | undefined): void {
    this.listener = listener;
  }

  /** Batches of events as they become available (see {@link CacheWatcher.nextBatch}). */
  async *batches(): AsyncGenerator<CacheWatchEvent<T>[]> {
    try {
      for (let b = await this.nextBatch(); b !== undefined; b = await this.nextBatch()) yield b;
    } finally {
      this.stop();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<CacheWatchEvent<T>> {
    try {
      for (let b = await this.nextBatch(); b !== undefined; b = await this.nextBatch()) yield* b;
    } finally {
      this.stop();
    }
  }

  private push(event: CacheWatchEvent<T>): void {
    if (this.queue.length >= this.bufferSize) {
      // Why terminate rather than wait: dispatch is synchronous and shared by every watcher, so
      // waiting for one consumer would stall all of them; dropping an event would leave a gap.
      this.terminate(new WatcherTooSlowError(this.bufferSize, this.lastQueuedRevision()));
      return;
    }
    const listener = this.listener;
    if (this.queue.length === 0 && listener?.offer !== undefined && this.phase === 'live') {
      // Straight to the consumer: no queue, no wake-up, no poll.
      try {
        if (listener.offer(event)) return;
      } catch (e) {
        this.listenerFailed(e);
        return;
      }
    }
    this.queue.push(event);
    this.notify();
  }

  private listenerFailed(error: unknown): void {
    // Never into the dispatch loop: one broken consumer must not stop the others' events.
    this.listener = undefined;
    this.terminate(error);
  }

  private lastQueuedRevision(): bigint {
    const last = this.queue[this.queue.length - 1];
    return last === undefined ? this.initialRevision : last.revision;
  }

  private release(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    this.host.detach(this);
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
    const listener = this.listener;
    if (listener === undefined) return;
    try {
      listener.wake();
    } catch (e) {
      this.listenerFailed(e);
    }
  }
}

/**
 * The event a watcher with `filter` receives for a buffered change, or undefined for none. With a
 * filter, an update that makes an object stop matching is a DELETED of the new object and one
 * that makes it start matching is an ADDED, as kube's cacher does. The event objects are built
 * once per change and shared by every watcher that receives the same variant.
 */
export function viewFor<T>(
  event: BufferedEvent<T>,
  filter: ((obj: T) => boolean) | undefined,
): CacheObjectEvent<T> | undefined {
  if (filter === undefined || event.plain === undefined) return event.plain;
  const prevObj = event.prev?.object;
  const wasIn = prevObj !== undefined && filter(prevObj);
  if (event.item === undefined) return wasIn ? event.plain : undefined;
  const obj = event.item.object as T;
  const isIn = filter(obj);
  if (isIn && wasIn) return event.plain;
  if (isIn) {
    if (event.plain.type === 'ADDED') return event.plain;
    event.added ??= { type: 'ADDED', object: obj, revision: event.revision, derived: undefined };
    return event.added;
  }
  if (!wasIn) return undefined;
  event.deletedByFilter ??= { type: 'DELETED', object: obj, revision: event.revision, derived: undefined };
  return event.deletedByFilter;
}
