import type { StoreProgress } from '../store.js';
import type { LogEntry } from './revision-log.js';

/** How a subscription produces progress notifications while idle. */
export interface ProgressSource {
  readonly intervalMs: number;
  /** The revision every change has been delivered up to, or undefined when it cannot be vouched for. */
  revision(): bigint | undefined;
}

/**
 * One watcher's queue. The store hands it entries synchronously as it commits them, so an empty
 * queue means every committed change under the prefix has been taken by the consumer: that is
 * what makes a progress notification at the current revision truthful.
 */
export class WatchSubscription {
  private queue: (LogEntry | undefined)[];
  private head = 0;
  private ended = false;
  private wake: (() => void) | undefined;
  /** A reader asked for progress (see Store.requestWatchProgress); answered once the queue is empty. */
  private progressWanted = false;

  constructor(
    readonly prefix: string,
    backlog: LogEntry[],
    private readonly onDispose: (sub: WatchSubscription) => void,
  ) {
    this.queue = backlog;
  }

  /** Queues a committed change (the hub has already matched the prefix). */
  deliver(entry: LogEntry): void {
    if (this.ended) return;
    this.queue.push(entry);
    this.notify();
  }

  /** A reader asked for this watch's progress: woken, it reports progress once its queue is empty. */
  progressRequested(): void {
    if (this.ended) return;
    this.progressWanted = true;
    this.notify();
  }

  /** Ends the subscription: `next` resolves undefined from now on. Idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = [];
    this.head = 0;
    this.notify();
    this.onDispose(this);
  }

  /**
   * The next change in revision order, a progress notification after `progress.intervalMs` of
   * idleness or once asked for, or undefined once ended. One caller at a time.
   */
  async next(progress?: ProgressSource): Promise<LogEntry | StoreProgress | undefined> {
    for (;;) {
      if (this.ended) return undefined;
      if (this.head < this.queue.length) return this.shift();
      if (this.progressWanted && progress !== undefined) {
        this.progressWanted = false;
        const revision = progress.revision();
        if (revision !== undefined) return { type: 'progress', revision };
      }
      const woken = await this.waitForWake(progress?.intervalMs);
      if (!woken && progress !== undefined && !this.ended && this.head === this.queue.length) {
        const revision = progress.revision();
        if (revision !== undefined) return { type: 'progress', revision };
      }
    }
  }

  private shift(): LogEntry {
    const entry = this.queue[this.head] as LogEntry;
    this.queue[this.head++] = undefined;
    // Reclaim the consumed head once it dominates the array.
    if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return entry;
  }

  /** Resolves true when woken by an entry or the end, false when `timeoutMs` passed first. */
  private waitForWake(timeoutMs: number | undefined): Promise<boolean> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      this.wake = () => {
        if (timer !== undefined) clearTimeout(timer);
        resolve(true);
      };
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.wake = undefined;
          resolve(false);
        }, timeoutMs);
      }
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** In-process fan-out of committed changes to every subscription whose prefix matches. */
export class WatchHub {
  private readonly subs = new Set<WatchSubscription>();

  get size(): number {
    return this.subs.size;
  }

  /** Registers a subscription that first yields `backlog`, then every published entry. */
  subscribe(prefix: string, backlog: LogEntry[]): WatchSubscription {
    const sub = new WatchSubscription(prefix, backlog, (s) => this.subs.delete(s));
    this.subs.add(sub);
    return sub;
  }

  publish(entry: LogEntry): void {
    for (const sub of this.subs) {
      if (entry.key.startsWith(sub.prefix)) sub.deliver(entry);
    }
  }

  /** Asks the subscriptions of exactly `prefix` for progress (see Store.requestWatchProgress). */
  requestProgress(prefix: string): void {
    for (const sub of this.subs) if (sub.prefix === prefix) sub.progressRequested();
  }

  /** Ends every subscription. */
  endAll(): void {
    for (const sub of [...this.subs]) sub.end();
  }
}
