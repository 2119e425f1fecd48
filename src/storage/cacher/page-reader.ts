import type { EventBuffer } from './event-buffer.js';
import { lowerBound, upperBoundOfPrefix } from './sorted-keys.js';
import type { StateIndex } from './state-index.js';
import type { CachedItem } from './types.js';

export interface PageRequest<T> {
  /** Only keys under this prefix. */
  readonly prefix: string;
  /** Only keys strictly greater than this one. */
  readonly startAfter?: string;
  /** At most this many items; 0 means no limit. */
  readonly limit: number;
  /** Only objects it accepts (selectors). */
  readonly filter?: (obj: T) => boolean;
}

export interface Page<T> {
  /** In ascending key order. */
  readonly items: T[];
  /** The key of the last item in `items` (the position a continue token carries). */
  readonly lastKey: string | undefined;
  /**
   * Whether more items follow the last one. Without a filter: any key remains; with a filter: an
   * item the filter accepts remains (found by scanning on, so a last page is never empty).
   */
  readonly more: boolean;
  /** Keys remaining after the last item; 0 without a limit, undefined with a filter. */
  readonly remaining: number | undefined;
}

/** The key range `[from, to)` a request covers (`to` undefined: unbounded). */
export function pageRange(request: { readonly prefix: string; readonly startAfter?: string }): {
  from: string;
  to: string | undefined;
} {
  const { prefix, startAfter } = request;
  // The least key strictly greater than `startAfter` is `startAfter + "\0"`.
  const from = startAfter !== undefined && startAfter >= prefix ? `${startAfter}\u0000` : prefix;
  return { from, to: upperBoundOfPrefix(prefix) };
}

/**
 * The state at a past revision R, restricted to a key range: for each key changed after R, its
 * item at R (undefined when it did not exist at R). Every other key's item is the current one.
 */
export interface PastOverlay<T> {
  readonly changed: Map<string, CachedItem<T> | undefined>;
  /** The keys of `changed`, ascending. */
  readonly sortedKeys: string[];
}

/**
 * Builds the overlay that turns the current state into the state at `revision` for keys in
 * `[from, to)`. Requires `revision >= buffer.oldestRevision` (the caller checks). Cost: the
 * number of buffered events after `revision`.
 */
export function overlayAt<T>(
  buffer: EventBuffer<T>,
  revision: bigint,
  from: string,
  to: string | undefined,
): PastOverlay<T> {
  const changed = new Map<string, CachedItem<T> | undefined>();
  for (let i = buffer.firstAfter(revision), n = buffer.size; i < n; i++) {
    const event = buffer.at(i);
    const key = event.key;
    if (key < from || (to !== undefined && key >= to) || changed.has(key)) continue;
    // The first change after `revision` saw the key's state at `revision` as its previous item.
    changed.set(key, event.prev);
  }
  const sortedKeys = [...changed.keys()].sort();
  return { changed, sortedKeys };
}

/**
 * Reads one page from `state`, or from the state at a past revision when `overlay` (built by
 * {@link overlayAt} for a range covering the request) is given. Synchronous: the result is one
 * consistent snapshot. Throws the decode error of an unreadable item the page would contain.
 */
export function readPage<T>(state: StateIndex<T>, request: PageRequest<T>, overlay?: PastOverlay<T>): Page<T> {
  const { limit, filter } = request;
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer: ${limit}`);
  const { from, to } = pageRange(request);
  const items: T[] = [];
  let lastKey: string | undefined;
  let full = false;
  let more = false;

  /** Takes the item of one key in order; false stops the scan. */
  const offer = (item: CachedItem<T> | undefined): boolean => {
    if (item === undefined) return true;
    if (full) {
      // Only a filtered read scans past a full page: to learn whether a later item matches.
      if (item.error === undefined && filter?.(item.object as T) === false) return true;
      more = true;
      return false;
    }
    if (item.error !== undefined) throw item.error;
    const obj = item.object as T;
    if (filter !== undefined && !filter(obj)) return true;
    items.push(obj);
    lastKey = item.key;
    if (limit > 0 && items.length === limit) {
      full = true;
      return filter !== undefined;
    }
    return true;
  };

  if (overlay === undefined) {
    state.scan(from, to, offer);
  } else {
    const { changed, sortedKeys } = overlay;
    let j = lowerBound(sortedKeys, from);
    let going = true;
    state.scan(from, to, (item) => {
      // Keys that existed at the revision but are gone now come before this live key.
      while (going && j < sortedKeys.length && sortedKeys[j] < item.key) going = offer(changed.get(sortedKeys[j++]));
      if (!going) return false;
      if (j < sortedKeys.length && sortedKeys[j] === item.key) {
        going = offer(changed.get(sortedKeys[j++]));
      } else {
        going = offer(item);
      }
      return going;
    });
    while (going && j < sortedKeys.length && (to === undefined || sortedKeys[j] < to)) {
      going = offer(changed.get(sortedKeys[j++]));
    }
  }

  if (!full || filter !== undefined) {
    return { items, lastKey, more, remaining: filter === undefined ? 0 : undefined };
  }
  const remaining = countAfter(state, lastKey as string, to, overlay);
  return { items, lastKey, more: remaining > 0, remaining };
}

/** Keys in `(after, to)` at the page's revision. */
function countAfter<T>(
  state: StateIndex<T>,
  after: string,
  to: string | undefined,
  overlay: PastOverlay<T> | undefined,
): number {
  const from = `${after}\u0000`;
  let n = state.countBetween(from, to);
  if (overlay === undefined) return n;
  const { changed, sortedKeys } = overlay;
  for (let j = lowerBound(sortedKeys, from); j < sortedKeys.length; j++) {
    const key = sortedKeys[j];
    if (to !== undefined && key >= to) break;
    n += (changed.get(key) !== undefined ? 1 : 0) - (state.has(key) ? 1 : 0);
  }
  return n;
}
