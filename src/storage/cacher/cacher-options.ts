import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import type { Store } from '../store.js';
import type { Decoder } from './types.js';

export interface CacherOptions<T> {
  readonly store: Store;
  /** The resource's key prefix, ending in `/` (e.g. `/registry/core/configmaps/`). */
  readonly prefix: string;
  /**
   * Turns a stored value into the cached object; must set the object's resourceVersion from
   * `kv.modRevision`. For a DELETED event it is called with the last value and `modRevision` set to
   * the deletion revision. Throwing marks the value as unreadable.
   */
  readonly decode: Decoder<T>;
  /**
   * Called for an object that leaves the current state (replaced or deleted) but stays in the
   * history: returns one that does not rely on the store keeping its value (a decoder that keeps
   * `kv.values` instead of the bytes reads them now). Default: the object as it is.
   */
  readonly retain?: (obj: T) => T;
  /** Time source for the history window (default: the system clock). */
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Keep events at least this long (default 5 minutes, the spec's retained watch history). */
  readonly historyWindowMs?: number;
  /** Keep at least this many events whatever their age (default 100). */
  readonly minHistoryEvents?: number;
  /** Memory bound on the event buffer (default 250,000 events). */
  readonly maxHistoryEvents?: number;
  /** Default bound of each watcher's queue of undelivered live events (default 1,000). */
  readonly watcherBufferSize?: number;
  /** How often idle watchers that allow bookmarks receive one (default 60 s, kube's frequency). */
  readonly bookmarkIntervalMs?: number;
  /**
   * Progress notifications asked of the store's watch (default 100 ms): they advance the cache's
   * revision while its prefix is idle, which is what lets a consistent read complete without a
   * change under the prefix. etcd sends them at its `--experimental-watch-progress-notify-interval`.
   */
  readonly progressIntervalMs?: number;
  /** How long a read waits for the cache to reach a requested revision (default 3 s, as kube). */
  readonly waitTimeoutMs?: number;
  /** How long a watch waits for a cache that is (re-)listing (default 3 s). */
  readonly readyTimeoutMs?: number;
  /**
   * Serve from the store what the cache cannot (default true): lists and gets while the cache is
   * not ready, Exact lists older than the history, consistent reads the cache did not catch up
   * with in time. When false those fail with CacherNotReadyError, ResourceVersionTooOldError and
   * TooLargeResourceVersionError.
   */
  readonly fallbackToStore?: boolean;
  /** Keys per range request of a (re-)list (default 10,000). */
  readonly listPageSize?: number;
  /** Backoff between retries of a failed list or watch (default 100 ms doubling to 5 s). */
  readonly retryDelayMs?: { readonly initial: number; readonly max: number };
}

export type ResolvedCacherOptions<T> = Required<Omit<CacherOptions<T>, 'clock' | 'logger' | 'retain'>> &
  Pick<CacherOptions<T>, 'clock' | 'logger' | 'retain'>;

/** Applies defaults and validates once, at construction. */
export function resolveCacherOptions<T>(o: CacherOptions<T>): ResolvedCacherOptions<T> {
  if (!o.prefix.startsWith('/') || !o.prefix.endsWith('/')) {
    throw new RangeError(`cacher prefix must start and end with "/": ${o.prefix}`);
  }
  const resolved = {
    ...o,
    historyWindowMs: o.historyWindowMs ?? 5 * 60_000,
    minHistoryEvents: o.minHistoryEvents ?? 100,
    maxHistoryEvents: o.maxHistoryEvents ?? 250_000,
    watcherBufferSize: o.watcherBufferSize ?? 1000,
    bookmarkIntervalMs: o.bookmarkIntervalMs ?? 60_000,
    progressIntervalMs: o.progressIntervalMs ?? 100,
    waitTimeoutMs: o.waitTimeoutMs ?? 3000,
    readyTimeoutMs: o.readyTimeoutMs ?? 3000,
    fallbackToStore: o.fallbackToStore ?? true,
    listPageSize: o.listPageSize ?? 10_000,
    retryDelayMs: o.retryDelayMs ?? { initial: 100, max: 5000 },
  };
  const positive: (keyof typeof resolved)[] = [
    'watcherBufferSize',
    'bookmarkIntervalMs',
    'progressIntervalMs',
    'listPageSize',
    'maxHistoryEvents',
  ];
  for (const name of positive) {
    const v = resolved[name] as number;
    if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`cacher option ${String(name)} must be positive: ${v}`);
  }
  const nonNegative = ['historyWindowMs', 'minHistoryEvents', 'waitTimeoutMs', 'readyTimeoutMs'] as const;
  for (const name of nonNegative) {
    if (!(resolved[name] >= 0)) throw new RangeError(`cacher option ${name} must be >= 0: ${resolved[name]}`);
  }
  const { initial, max } = resolved.retryDelayMs;
  if (!(initial > 0 && max >= initial)) throw new RangeError(`cacher retryDelayMs needs 0 < initial <= max`);
  return resolved;
}
