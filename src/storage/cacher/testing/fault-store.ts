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
} from '../../store.js';

/**
 * Test-only fault injection around a real {@link Store}: every call goes to the wrapped store; on
 * request, open watches fail with a given error (as when the backend restarts or the stream
 * breaks) and new watches are held back (as when the client is reconnecting), so a test can
 * change the store in between. Nothing else is simulated: errors raised after the release,
 * CompactedError included, come from the real store.
 */
export class FaultStore implements Store {
  private readonly breakers = new Set<(error: unknown) => void>();
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;
  /** Number of `watch` iterations started (each reconnect of a consumer adds one). */
  watchesStarted = 0;

  /** The inner store's, when it has one: a cacher reads consistently from a store without it. */
  readonly requestWatchProgress?: (prefix: string) => void;

  constructor(readonly inner: Store) {
    const request = inner.requestWatchProgress?.bind(inner);
    if (request) this.requestWatchProgress = request;
  }

  /** Makes every open watch throw `error` at its next read. */
  failWatches(error: unknown): void {
    for (const fail of [...this.breakers]) fail(error);
  }

  /** New watches wait until {@link FaultStore.releaseWatches}. */
  holdWatches(): void {
    if (this.held !== undefined) return;
    this.held = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  releaseWatches(): void {
    this.release?.();
    this.held = undefined;
    this.release = undefined;
  }

  currentRevision(signal?: AbortSignal): Promise<bigint> {
    return this.inner.currentRevision(signal);
  }
  compactedRevision(signal?: AbortSignal): Promise<bigint> {
    return this.inner.compactedRevision(signal);
  }
  get(key: string, opts?: { revision?: bigint; signal?: AbortSignal }): Promise<KeyValue | undefined> {
    return this.inner.get(key, opts);
  }
  range(prefix: string, opts?: RangeOptions & { signal?: AbortSignal }): Promise<RangeResult> {
    return this.inner.range(prefix, opts);
  }
  count(prefix: string, signal?: AbortSignal): Promise<number> {
    return this.inner.count(prefix, signal);
  }
  create(key: string, value: Uint8Array, signal?: AbortSignal): Promise<WriteResult> {
    return this.inner.create(key, value, signal);
  }
  update(key: string, value: Uint8Array, expectedModRevision?: bigint, signal?: AbortSignal): Promise<WriteResult> {
    return this.inner.update(key, value, expectedModRevision, signal);
  }
  delete(key: string, expectedModRevision?: bigint, signal?: AbortSignal): Promise<DeleteResult> {
    return this.inner.delete(key, expectedModRevision, signal);
  }
  compact(revision: bigint, signal?: AbortSignal): Promise<void> {
    return this.inner.compact(revision, signal);
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  watch(prefix: string, opts: WatchOptions): AsyncIterable<StoreEvent | StoreProgress> {
    return this.watchWithFaults(prefix, opts);
  }

  private async *watchWithFaults(prefix: string, opts: WatchOptions): AsyncGenerator<StoreEvent | StoreProgress> {
    while (this.held !== undefined) await this.held;
    this.watchesStarted++;
    const inner = new AbortController();
    const onAbort = () => inner.abort();
    opts.signal.addEventListener('abort', onAbort, { once: true });
    if (opts.signal.aborted) inner.abort();
    let failure: { error: unknown } | undefined;
    let wake: (() => void) | undefined;
    const fail = (error: unknown) => {
      failure = { error };
      inner.abort();
      wake?.();
    };
    this.breakers.add(fail);
    const iterator = this.inner.watch(prefix, { ...opts, signal: inner.signal })[Symbol.asyncIterator]();
    try {
      for (;;) {
        const broken = new Promise<'broken'>((resolve) => {
          wake = () => resolve('broken');
          if (failure !== undefined) resolve('broken');
        });
        const next = await Promise.race([iterator.next(), broken]);
        if (failure !== undefined) throw failure.error;
        if (next === 'broken') continue;
        if (next.done) return;
        yield next.value;
      }
    } finally {
      this.breakers.delete(fail);
      opts.signal.removeEventListener('abort', onAbort);
      inner.abort();
    }
  }
}
