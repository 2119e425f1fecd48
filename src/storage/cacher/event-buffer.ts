import type { BufferedEvent } from './types.js';

export interface EventBufferOptions {
  /** Keep every event younger than this (default 5 minutes, the spec's watch history). */
  readonly historyWindowMs: number;
  /** Keep at least this many events regardless of age (default 100). */
  readonly minEvents: number;
  /**
   * Never keep more than this many events, even inside the window (memory bound; default
   * 250,000). At sustained write rates above maxEvents / window the history is shorter.
   */
  readonly maxEvents: number;
}

/**
 * The cacher's recent history: events in strictly increasing revision order, a queue over one
 * array whose consumed head is reclaimed in bulk.
 *
 * Invariant: every change under the cacher's prefix with a revision above
 * {@link EventBuffer.oldestRevision} is held. Hence a watch may start after any revision
 * `R >= oldestRevision`, and the state at such an R is the current state with the held events
 * after R undone.
 */
export class EventBuffer<T> {
  private events: (BufferedEvent<T> | undefined)[] = [];
  private head = 0;
  private oldest: bigint;

  constructor(
    private readonly options: EventBufferOptions,
    startRevision: bigint,
  ) {
    if (!(options.historyWindowMs >= 0))
      throw new RangeError(`historyWindowMs must be >= 0: ${options.historyWindowMs}`);
    if (!(options.minEvents >= 0 && options.maxEvents >= Math.max(1, options.minEvents))) {
      throw new RangeError(
        `need 0 <= minEvents <= maxEvents, maxEvents >= 1: ${options.minEvents}, ${options.maxEvents}`,
      );
    }
    this.oldest = startRevision;
  }

  get size(): number {
    return this.events.length - this.head;
  }

  /** The oldest revision a replay can start after (see the class invariant). */
  get oldestRevision(): bigint {
    return this.oldest;
  }

  /** The revision of the newest held event, or `oldestRevision` when empty. */
  get newestRevision(): bigint {
    return this.size === 0 ? this.oldest : (this.events[this.events.length - 1] as BufferedEvent<T>).revision;
  }

  /** Drops everything; the history now starts after `revision` (after a re-list at it). */
  reset(revision: bigint): void {
    this.events = [];
    this.head = 0;
    this.oldest = revision;
  }

  /** Appends `event` (its revision must exceed the newest) and evicts what fell out of the window. */
  append(event: BufferedEvent<T>, now: number): void {
    if (event.revision <= this.newestRevision) {
      throw new Error(`event buffer out of order: ${event.revision} after ${this.newestRevision}`);
    }
    this.events.push(event);
    const { minEvents, maxEvents, historyWindowMs } = this.options;
    const horizon = now - historyWindowMs;
    while (this.size > maxEvents || (this.size > minEvents && this.first().receivedAt < horizon)) {
      this.oldest = this.first().revision;
      this.events[this.head++] = undefined;
    }
    if (this.head >= 4096 && this.head * 2 >= this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * Index (an opaque cursor for {@link EventBuffer.at}) of the first held event with a revision
   * above `revision`; `end()` when none. The caller checks `revision >= oldestRevision` first.
   */
  firstAfter(revision: bigint): number {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.events[mid] as BufferedEvent<T>).revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.head;
  }

  /** The event at position `i` counted from the oldest held one. */
  at(i: number): BufferedEvent<T> {
    const event = this.events[this.head + i];
    if (event === undefined) throw new RangeError(`event buffer index out of range: ${i}`);
    return event;
  }

  private first(): BufferedEvent<T> {
    return this.events[this.head] as BufferedEvent<T>;
  }
}
