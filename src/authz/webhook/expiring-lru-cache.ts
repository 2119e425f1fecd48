import type { Clock } from '../../util/clock.js';

interface Entry<V> {
  readonly value: V;
  readonly expiresAt: number;
}

/**
 * kube's `LRUExpireCache`: at most `capacity` entries, each with its own time to live; reading
 * an entry makes it the most recently used, adding past capacity drops the least recently used,
 * and an expired entry is gone when read. Time comes from the injected clock.
 */
export class ExpiringLruCache<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recent first.
  readonly #entries = new Map<string, Entry<V>>();

  constructor(
    readonly capacity: number,
    readonly clock: Clock,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The live value of `key`, or undefined. */
  get(key: string): V | undefined {
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    this.#entries.delete(key);
    if (this.clock.now().getTime() >= e.expiresAt) return undefined;
    this.#entries.set(key, e);
    return e.value;
  }

  /** Keeps `value` for `ttlMs` (nothing is kept for a ttl of 0 or less). */
  add(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.clock.now().getTime() + ttlMs });
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }
}
