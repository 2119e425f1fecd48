/** Options of a {@link WorkQueue}. */
export interface WorkQueueOptions {
  /** The queue stops handing out keys once this aborts. */
  readonly signal: AbortSignal;
  /** First retry delay after a failure; doubles per consecutive failure of the key. Default 50 ms. */
  readonly baseRetryDelayMs?: number;
  /** Cap of the retry delay. Default 10 s. */
  readonly maxRetryDelayMs?: number;
}

/**
 * A de-duplicating work queue, as client-go's rate-limited workqueue: a key is queued at most
 * once; a key added while it is being processed is processed again afterwards (never twice at
 * the same time); failures are retried with per-key exponential backoff until the key succeeds.
 */
export class WorkQueue<K> {
  private readonly queue: K[] = [];
  private readonly queued = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly dirty = new Set<K>();
  private readonly failures = new Map<K, number>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private waiters: (() => void)[] = [];
  private readonly base: number;
  private readonly max: number;

  constructor(private readonly options: WorkQueueOptions) {
    this.base = options.baseRetryDelayMs ?? 50;
    this.max = options.maxRetryDelayMs ?? 10_000;
    options.signal.addEventListener(
      'abort',
      () => {
        for (const t of this.timers) clearTimeout(t);
        this.timers.clear();
        this.wakeAll();
      },
      { once: true },
    );
  }

  /** Queues `key` unless it is queued already. */
  add(key: K): void {
    if (this.options.signal.aborted) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.wakeAll();
  }

  /** Queues `key` after `delayMs`. */
  addAfter(key: K, delayMs: number): void {
    if (this.options.signal.aborted) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.add(key);
    }, delayMs);
    t.unref?.();
    this.timers.add(t);
  }

  /** Queues `key` again after its backoff delay (which grows with each consecutive failure). */
  retry(key: K): void {
    const n = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, n);
    this.addAfter(key, Math.min(this.max, this.base * 2 ** (n - 1)));
  }

  /** Resets the backoff of `key` (after it succeeded). */
  forget(key: K): void {
    this.failures.delete(key);
  }

  /** Number of keys waiting (not counting delayed ones). */
  get length(): number {
    return this.queue.length;
  }

  /**
   * Runs `process` on keys with `workers` concurrent workers until the signal aborts. A thrown
   * error retries the key with backoff (reported to `onError`); success resets its backoff.
   */
  async run(
    process: (key: K) => Promise<void>,
    opts: { workers?: number; onError?: (key: K, err: unknown) => void } = {},
  ): Promise<void> {
    const worker = async () => {
      for (;;) {
        const key = await this.next();
        if (key === undefined) return;
        try {
          await process(key);
          this.forget(key);
        } catch (e) {
          if (this.options.signal.aborted) return;
          opts.onError?.(key, e);
          this.retry(key);
        } finally {
          this.done(key);
        }
      }
    };
    await Promise.all(Array.from({ length: opts.workers ?? 1 }, worker));
  }

  private async next(): Promise<K | undefined> {
    for (;;) {
      if (this.options.signal.aborted) return undefined;
      const key = this.queue.shift();
      if (key !== undefined) {
        this.queued.delete(key);
        this.processing.add(key);
        return key;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private wakeAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private done(key: K): void {
    this.processing.delete(key);
    if (this.dirty.delete(key)) this.add(key);
  }
}
