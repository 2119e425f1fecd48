import { SortedKeys } from './sorted-keys.js';
import type { CachedItem } from './types.js';

/**
 * The cacher's current state: every live key under its prefix with its cached item, in key order.
 * Point lookups are O(1) (a Map); ordered scans and counts go through {@link SortedKeys}.
 */
export class StateIndex<T> {
  private readonly items = new Map<string, CachedItem<T>>();
  private readonly keys: SortedKeys;

  private constructor(keys: SortedKeys) {
    this.keys = keys;
  }

  static empty<T>(): StateIndex<T> {
    return new StateIndex<T>(new SortedKeys());
  }

  /** Builds an index from items in strictly ascending key order (a store range's order). */
  static fromSorted<T>(items: readonly CachedItem<T>[]): StateIndex<T> {
    const index = new StateIndex<T>(SortedKeys.fromSorted(items.map((i) => i.key)));
    for (const item of items) index.items.set(item.key, item);
    return index;
  }

  get size(): number {
    return this.items.size;
  }

  get(key: string): CachedItem<T> | undefined {
    return this.items.get(key);
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  /** Sets the key's item; returns the one it replaced. */
  put(item: CachedItem<T>): CachedItem<T> | undefined {
    const prev = this.items.get(item.key);
    this.items.set(item.key, item);
    if (prev === undefined) this.keys.insert(item.key);
    return prev;
  }

  /** Removes the key; returns its item. */
  remove(key: string): CachedItem<T> | undefined {
    const prev = this.items.get(key);
    if (prev === undefined) return undefined;
    this.items.delete(key);
    this.keys.remove(key);
    return prev;
  }

  /** Number of keys `k` with `from <= k < to` (no upper bound when `to` is undefined). */
  countBetween(from: string, to: string | undefined): number {
    return this.keys.countBetween(from, to);
  }

  /** Visits items with `from <= key < to` in key order until `visit` returns false. */
  scan(from: string, to: string | undefined, visit: (item: CachedItem<T>) => boolean): void {
    const items = this.items;
    this.keys.scan(from, to, (key) => visit(items.get(key) as CachedItem<T>));
  }
}
