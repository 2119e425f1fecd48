import type { DeepReadonly } from '../../util/deep-readonly.js';

/** How a read picks its revision; at most one of these may be set. Neither: the cache as it is (RV=0, "Any"). */
export interface CacheReadOptions {
  /** At least this revision (resourceVersion=N, "NotOlderThan"). */
  readonly minRevision?: bigint;
  /**
   * A consistent read (resourceVersion unset, "Most Recent"): at least the store's current
   * revision, asked when the read starts. This is how kube 1.32 serves such lists from its cache.
   */
  readonly consistent?: boolean;
  readonly signal?: AbortSignal;
}

export interface CacheListOptions<T> extends CacheReadOptions {
  /** Keys under this prefix (the cacher's prefix or a namespace prefix below it). */
  readonly prefix: string;
  /** Exactly this revision ("Exact", and every page after the first of a paginated list). */
  readonly exactRevision?: bigint;
  /** At most this many items (0 or unset: no limit). */
  readonly limit?: number;
  /** Only keys strictly after this one (the position of a continue token). */
  readonly startAfter?: string;
  /** Only objects it accepts (label and field selectors); it sees the shared objects. */
  readonly filter?: (obj: DeepReadonly<T>) => boolean;
}

export interface CacheListResult<T> {
  /** In key order; the cache's own objects (the cacher returns them as `DeepReadonly`). */
  readonly items: readonly T[];
  /** The revision the list reflects (the list's resourceVersion). */
  readonly revision: bigint;
  /** Items remain after `lastKey` (a continue token is due). */
  readonly more: boolean;
  /** Keys remaining after `lastKey` (remainingItemCount); undefined with a filter, 0 without a limit. */
  readonly remaining: number | undefined;
  /** Where the next page starts (`startAfter`); undefined when no item was returned. */
  readonly lastKey: string | undefined;
  readonly servedFrom: 'cache' | 'store';
}

export interface CacheWatchOptions<T> {
  readonly prefix: string;
  /**
   * Start after this revision: only later changes, replayed from the history then live. Unset:
   * start with the current state as ADDED events (resourceVersion unset or `0`).
   */
  readonly afterRevision?: bigint;
  /**
   * Send the state as ADDED events first even with `afterRevision`, which then is the minimum
   * revision of that state (streaming list, resourceVersionMatch=NotOlderThan).
   */
  readonly sendInitialEvents?: boolean;
  /** With `afterRevision` unset: the initial state is at least the store's current revision. */
  readonly consistent?: boolean;
  /** Only objects it accepts; it sees the shared objects. */
  readonly filter?: (obj: DeepReadonly<T>) => boolean;
  readonly allowBookmarks?: boolean;
  /** Ends the watch (iteration finishes) when aborted. */
  readonly signal: AbortSignal;
  /** Overrides the cacher's watcherBufferSize for this watcher. */
  readonly bufferSize?: number;
}

export interface CacherStats {
  readonly ready: boolean;
  /** The revision the cache has caught up to. */
  readonly revision: bigint;
  /** Watches can start after, and Exact lists be read at, any revision from this one on. */
  readonly oldestRevision: bigint;
  readonly objects: number;
  readonly bufferedEvents: number;
  readonly watchers: number;
  readonly liveWatchers: number;
  /** Completed lists, the initial one included. */
  readonly lists: number;
}
