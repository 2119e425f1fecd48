import assert from 'node:assert/strict';
import type { Store, StoreEvent, StoreProgress } from '../store.js';
import { describeError, TimeoutError } from './conformance-helpers.js';
import { describeEvent } from './store-model.js';

export type WatchItem = StoreEvent | StoreProgress;

/** Default wait for one watch item; a healthy backend delivers in milliseconds. */
export const WATCH_ITEM_TIMEOUT_MS = 5_000;

export interface WatchReaderOptions {
  readonly afterRevision: bigint;
  readonly progressIntervalMs?: number;
  /** Aborting this also ends the watch (e.g. the test's signal). */
  readonly signal?: AbortSignal;
}

/**
 * Pulls items from one `Store.watch` iteration with a deadline on every read, so a broken
 * backend fails the test instead of hanging it. At most one `next()` of the underlying iterator
 * is outstanding: after a timeout the same pending read is awaited again by the next call.
 */
export class WatchReader {
  /** Progress notifications skipped by {@link WatchReader.next}, in arrival order. */
  readonly progress: StoreProgress[] = [];
  private readonly controller = new AbortController();
  private readonly iterator: AsyncIterator<WatchItem>;
  private pending: Promise<IteratorResult<WatchItem>> | undefined;
  private finished = false;

  constructor(
    store: Store,
    readonly prefix: string,
    options: WatchReaderOptions,
  ) {
    const parent = options.signal;
    if (parent?.aborted) this.controller.abort();
    else parent?.addEventListener('abort', () => this.controller.abort(), { once: true });
    const iterable = store.watch(prefix, {
      afterRevision: options.afterRevision,
      signal: this.controller.signal,
      progressIntervalMs: options.progressIntervalMs,
    });
    this.iterator = iterable[Symbol.asyncIterator]();
    // Start reading at once, as a `for await` consumer would: a lazily started backend then
    // registers the watch now, so writes made after construction are delivered live, not replayed.
    this.read();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(): void {
    this.controller.abort();
  }

  /**
   * The next item (progress included) or `'end'` when the iteration finished. Rejects with the
   * iteration's own error, or with TimeoutError when nothing arrived within `timeoutMs`.
   */
  async nextItem(timeoutMs = WATCH_ITEM_TIMEOUT_MS): Promise<WatchItem | 'end'> {
    if (this.finished) return 'end';
    const read = this.read();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const result = await Promise.race([read, timeout]);
      if (result === 'timeout') throw new TimeoutError(`watch ${this.prefix} read`, timeoutMs);
      this.pending = undefined;
      if (result.done) {
        this.finished = true;
        return 'end';
      }
      return result.value;
    } catch (err) {
      if (!(err instanceof TimeoutError)) {
        this.pending = undefined;
        this.finished = true;
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The outstanding read of the iterator, started when there is none. */
  private read(): Promise<IteratorResult<WatchItem>> {
    if (this.pending === undefined) {
      const read = this.iterator.next();
      // A read abandoned at the end of a test must not surface as an unhandled rejection.
      read.catch(() => {});
      this.pending = read;
    }
    return this.pending;
  }

  /** The next change; progress notifications are recorded and skipped. Fails on end. */
  async next(timeoutMs = WATCH_ITEM_TIMEOUT_MS): Promise<StoreEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const item = await this.nextItem(Math.max(1, deadline - Date.now()));
      if (item === 'end') assert.fail(`watch ${this.prefix} ended while an event was expected`);
      if (item.type === 'progress') {
        this.progress.push(item);
        continue;
      }
      return item;
    }
  }

  /** The next `n` changes. */
  async take(n: number, timeoutMs = WATCH_ITEM_TIMEOUT_MS): Promise<StoreEvent[]> {
    const events: StoreEvent[] = [];
    for (let i = 0; i < n; i++) {
      try {
        events.push(await this.next(timeoutMs));
      } catch (err) {
        throw new Error(`watch ${this.prefix}: got ${i} of ${n} events: ${describeError(err)}`, { cause: err });
      }
    }
    return events;
  }

  /** Asserts that no change arrives within `ms` (progress notifications are allowed). */
  async expectQuiet(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      let item: WatchItem | 'end';
      try {
        item = await this.nextItem(left);
      } catch (err) {
        if (err instanceof TimeoutError) return;
        throw err;
      }
      if (item === 'end') assert.fail(`watch ${this.prefix} ended unexpectedly`);
      if (item.type === 'progress') this.progress.push(item);
      else assert.fail(`watch ${this.prefix}: unexpected extra event ${describeEvent(item)}`);
    }
  }

  /** Asserts that the iteration finishes (without error) within `timeoutMs`, skipping progress. */
  async expectEnd(timeoutMs = WATCH_ITEM_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const item = await this.nextItem(Math.max(1, deadline - Date.now()));
      if (item === 'end') return;
      if (item.type !== 'progress')
        assert.fail(`watch ${this.prefix}: event ${describeEvent(item)} instead of the end`);
    }
  }

  /** Asserts that the iteration throws within `timeoutMs` and returns the error. */
  async expectFailure(timeoutMs = WATCH_ITEM_TIMEOUT_MS): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let item: WatchItem | 'end';
      try {
        item = await this.nextItem(Math.max(1, deadline - Date.now()));
      } catch (err) {
        if (err instanceof TimeoutError) assert.fail(`watch ${this.prefix} did not fail within ${timeoutMs} ms`);
        return err;
      }
      if (item === 'end') assert.fail(`watch ${this.prefix} ended without the expected error`);
      if (item.type !== 'progress')
        assert.fail(`watch ${this.prefix}: event ${describeEvent(item)} instead of an error`);
    }
  }
}
