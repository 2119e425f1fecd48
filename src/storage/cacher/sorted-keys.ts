/**
 * An ordered set of strings for the cache's key index: sorted leaves of at most `leafSize` keys
 * (a two-level B-tree without inner nodes).
 *
 * Costs at n keys: insert/remove O(log n + leafSize); `rank` and `countBetween` O(log n) after the
 * leaf-start table has been rebuilt, which happens lazily (O(n / leafSize)) after a change; a scan
 * visits each key in O(1). Bulk loading from sorted input is O(n). Order is JavaScript string
 * order (UTF-16 code units), equal to UTF-8 byte order for the ASCII storage keys.
 */
export class SortedKeys {
  private leaves: string[][] = [];
  /** `starts[i]` = number of keys in leaves before leaf i; valid while `startsValid`. */
  private starts: number[] = [];
  private startsValid = true;
  private total = 0;

  constructor(private readonly leafSize = 256) {
    if (!Number.isInteger(leafSize) || leafSize < 4)
      throw new RangeError(`leafSize must be an integer >= 4: ${leafSize}`);
  }

  /** Builds a set from keys already in strictly ascending order (throws otherwise). */
  static fromSorted(keys: readonly string[], leafSize = 256): SortedKeys {
    const set = new SortedKeys(leafSize);
    for (let i = 1; i < keys.length; i++) {
      if (!(keys[i - 1] < keys[i])) throw new Error(`fromSorted: keys out of order at ${i}: ${keys[i]}`);
    }
    // Half-full leaves leave room for inserts without an immediate split.
    const fill = Math.max(2, leafSize >>> 1);
    for (let i = 0; i < keys.length; i += fill) set.leaves.push(keys.slice(i, i + fill));
    set.total = keys.length;
    set.startsValid = false;
    return set;
  }

  get size(): number {
    return this.total;
  }

  has(key: string): boolean {
    const leaf = this.leaves[this.leafFor(key)];
    if (leaf === undefined) return false;
    return leaf[lowerBound(leaf, key)] === key;
  }

  /** Adds `key`; false when it was present. */
  insert(key: string): boolean {
    const leaves = this.leaves;
    if (leaves.length === 0) {
      leaves.push([key]);
      this.total = 1;
      this.startsValid = false;
      return true;
    }
    let li = this.leafFor(key);
    if (li === leaves.length) li--;
    const leaf = leaves[li];
    const at = lowerBound(leaf, key);
    if (leaf[at] === key) return false;
    if (at === leaf.length) leaf.push(key);
    else leaf.splice(at, 0, key);
    this.total++;
    if (leaf.length > this.leafSize) leaves.splice(li + 1, 0, leaf.splice(leaf.length >>> 1));
    this.startsValid = false;
    return true;
  }

  /** Removes `key`; false when it was absent. */
  remove(key: string): boolean {
    const li = this.leafFor(key);
    const leaf = this.leaves[li];
    if (leaf === undefined) return false;
    const at = lowerBound(leaf, key);
    if (leaf[at] !== key) return false;
    leaf.splice(at, 1);
    if (leaf.length === 0) this.leaves.splice(li, 1);
    this.total--;
    this.startsValid = false;
    return true;
  }

  /** Number of keys strictly below `key`. */
  rank(key: string): number {
    const li = this.leafFor(key);
    if (li === this.leaves.length) return this.total;
    return this.leafStart(li) + lowerBound(this.leaves[li], key);
  }

  /** Number of keys `k` with `from <= k < to`; no upper bound when `to` is undefined. */
  countBetween(from: string, to: string | undefined): number {
    const hi = to === undefined ? this.total : this.rank(to);
    return Math.max(0, hi - this.rank(from));
  }

  /**
   * Calls `visit` for each key `k` with `from <= k < to` in ascending order until it returns
   * false. The set must not change during the scan.
   */
  scan(from: string, to: string | undefined, visit: (key: string) => boolean): void {
    const leaves = this.leaves;
    let li = this.leafFor(from);
    if (li === leaves.length) return;
    let i = lowerBound(leaves[li], from);
    for (; li < leaves.length; li++, i = 0) {
      const leaf = leaves[li];
      for (; i < leaf.length; i++) {
        const key = leaf[i];
        if (to !== undefined && key >= to) return;
        if (!visit(key)) return;
      }
    }
  }

  /** Index of the first leaf whose last key is `>= key` (leaves.length when none). */
  private leafFor(key: string): number {
    const leaves = this.leaves;
    let lo = 0;
    let hi = leaves.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const leaf = leaves[mid];
      if (leaf[leaf.length - 1] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private leafStart(li: number): number {
    if (!this.startsValid) {
      const starts = new Array<number>(this.leaves.length);
      let sum = 0;
      for (let i = 0; i < this.leaves.length; i++) {
        starts[i] = sum;
        sum += this.leaves[i].length;
      }
      this.starts = starts;
      this.startsValid = true;
    }
    return this.starts[li];
  }
}

/** First index in sorted `arr` whose element is `>= key`. */
export function lowerBound(arr: readonly string[], key: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The least string above every string that starts with `prefix`, or undefined when there is none;
 * the keys under `prefix` are exactly `[prefix, upperBoundOfPrefix(prefix))`.
 */
export function upperBoundOfPrefix(prefix: string): string | undefined {
  for (let n = prefix.length; n > 0; n--) {
    const code = prefix.charCodeAt(n - 1);
    if (code !== 0xffff) return prefix.slice(0, n - 1) + String.fromCharCode(code + 1);
  }
  return undefined;
}
