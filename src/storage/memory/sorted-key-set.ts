/**
 * A sorted set of strings kept as a list of sorted chunks (a flat, two-level B-tree).
 *
 * Costs at n keys with chunks of at most `maxChunk` keys (default 512): `add`/`delete` O(log n + chunk),
 * `rank` O(log n + n / chunk) (the chunk-offset table is rebuilt lazily after a change), iteration
 * O(1) per key. Ordering is JavaScript string order (UTF-16 code units), which equals byte order
 * of the UTF-8 encoding for every key below U+E000; storage keys are ASCII.
 */
const DEFAULT_MAX_CHUNK = 512;

/** A position in the set: chunk index and index inside the chunk. */
interface Cursor {
  chunk: number;
  index: number;
}

export class SortedKeySet {
  private chunks: string[][] = [];
  private offsets: number[] = [];
  private offsetsValid = true;
  private count = 0;

  constructor(private readonly maxChunk = DEFAULT_MAX_CHUNK) {
    if (!Number.isInteger(maxChunk) || maxChunk < 2)
      throw new RangeError(`maxChunk must be an integer >= 2: ${maxChunk}`);
  }

  get size(): number {
    return this.count;
  }

  has(key: string): boolean {
    const at = this.lowerBound(key);
    const chunk = this.chunks[at.chunk];
    return chunk !== undefined && chunk[at.index] === key;
  }

  /** Inserts `key`; false when it was already present. */
  add(key: string): boolean {
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.count = 1;
      this.offsetsValid = false;
      return true;
    }
    const at = this.lowerBound(key);
    // Past the end: append to the last chunk.
    const chunkIndex = at.chunk === this.chunks.length ? this.chunks.length - 1 : at.chunk;
    const chunk = this.chunks[chunkIndex];
    const index = at.chunk === this.chunks.length ? chunk.length : at.index;
    if (chunk[index] === key) return false;
    chunk.splice(index, 0, key);
    this.count++;
    if (chunk.length > this.maxChunk) {
      const half = chunk.length >>> 1;
      this.chunks.splice(chunkIndex + 1, 0, chunk.splice(half));
    }
    this.offsetsValid = false;
    return true;
  }

  /** Removes `key`; false when it was absent. */
  delete(key: string): boolean {
    const at = this.lowerBound(key);
    const chunk = this.chunks[at.chunk];
    if (chunk === undefined || chunk[at.index] !== key) return false;
    chunk.splice(at.index, 1);
    if (chunk.length === 0) this.chunks.splice(at.chunk, 1);
    this.count--;
    this.offsetsValid = false;
    return true;
  }

  /** Number of keys strictly less than `key`. */
  rank(key: string): number {
    const at = this.lowerBound(key);
    if (at.chunk === this.chunks.length) return this.count;
    return this.chunkOffset(at.chunk) + at.index;
  }

  /** Number of keys `k` with `from <= k < to` (`to` undefined: no upper bound). */
  countRange(from: string, to: string | undefined): number {
    const hi = to === undefined ? this.count : this.rank(to);
    return Math.max(0, hi - this.rank(from));
  }

  /** Keys `k >= from`, ascending, stopping before `to` (no upper bound when undefined). */
  *iterate(from: string, to?: string): Generator<string> {
    const pos = this.lowerBound(from);
    for (let c = pos.chunk; c < this.chunks.length; c++) {
      const chunk = this.chunks[c];
      for (let i = c === pos.chunk ? pos.index : 0; i < chunk.length; i++) {
        const key = chunk[i];
        if (to !== undefined && key >= to) return;
        yield key;
      }
    }
  }

  /** Position of the first key `>= key` (chunk === chunks.length when none). */
  private lowerBound(key: string): Cursor {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = chunks[mid];
      if (chunk[chunk.length - 1] < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo === chunks.length) return { chunk: lo, index: 0 };
    const chunk = chunks[lo];
    let a = 0;
    let b = chunk.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (chunk[mid] < key) a = mid + 1;
      else b = mid;
    }
    return { chunk: lo, index: a };
  }

  private chunkOffset(chunk: number): number {
    if (!this.offsetsValid) {
      const offsets = new Array<number>(this.chunks.length);
      let sum = 0;
      for (let i = 0; i < this.chunks.length; i++) {
        offsets[i] = sum;
        sum += this.chunks[i].length;
      }
      this.offsets = offsets;
      this.offsetsValid = true;
    }
    return this.offsets[chunk];
  }
}

/**
 * The smallest string greater than every string starting with `prefix`, or undefined when no
 * such bound exists (`prefix` is empty or all U+FFFF). Keys with the prefix are exactly those
 * in `[prefix, prefixEnd(prefix))`.
 */
export function prefixEnd(prefix: string): string | undefined {
  let end = prefix;
  while (end.length > 0) {
    const last = end.charCodeAt(end.length - 1);
    if (last < 0xffff) return end.slice(0, -1) + String.fromCharCode(last + 1);
    end = end.slice(0, -1);
  }
  return undefined;
}
