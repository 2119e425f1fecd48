interface Waiter {
  readonly revision: bigint;
  /** Settles the waiter's promise; idempotent. */
  readonly release: (reached: boolean) => void;
}

/**
 * Lets readers wait until the cache has caught up to a revision. The cacher calls
 * {@link RevisionWaiter.advance} after applying each change or progress notification; waiters
 * whose revision has been reached are released in the same step.
 */
export class RevisionWaiter {
  private current: bigint;
  /** Pending waiters; few at a time, so a plain array scanned on advance is enough. */
  private waiters: Waiter[] = [];

  constructor(initial: bigint) {
    this.current = initial;
  }

  get revision(): bigint {
    return this.current;
  }

  get pending(): number {
    return this.waiters.length;
  }

  /** Records that the cache reached `revision`; ignored unless it is newer. */
  advance(revision: bigint): void {
    if (revision > this.current) this.set(revision);
  }

  /** Sets the revision after a re-list; it may move backwards when the store lost history. */
  set(revision: bigint): void {
    this.current = revision;
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    const reached: Waiter[] = [];
    for (const w of this.waiters) (w.revision <= revision ? reached : still).push(w);
    this.waiters = still;
    for (const w of reached) w.release(true);
  }

  /**
   * Resolves true once the revision is `>= revision`, false after `timeoutMs`. Rejects with the
   * signal's reason when it aborts.
   */
  wait(revision: bigint, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (revision <= this.current) return Promise.resolve(true);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<boolean>((resolve, reject) => {
      let settled = false;
      const settle = (reached: boolean, error?: unknown): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (error !== undefined) reject(error);
        else resolve(reached);
      };
      const waiter: Waiter = { revision, release: (reached) => settle(reached) };
      const drop = (): void => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
      };
      const onAbort = (): void => {
        drop();
        settle(false, signal?.reason ?? new Error('aborted'));
      };
      const timer = setTimeout(
        () => {
          drop();
          settle(false);
        },
        Math.max(0, timeoutMs),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }
}
