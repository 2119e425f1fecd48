/**
 * `status.completedIndexes` of Indexed Jobs: ordered, non-overlapping intervals written as
 * `0-2,4,7-9` (adjacent intervals merged), as kube's job controller reads and writes them.
 */

/** A set of completion indexes below a Job's completions. Immutable. */
export class CompletedIndexes {
  private constructor(private readonly sorted: readonly number[]) {}

  static readonly EMPTY = new CompletedIndexes([]);

  /**
   * Parses `text`, keeping the indexes below `completions`; malformed intervals are skipped
   * (kube logs and drops them).
   */
  static parse(text: string | undefined, completions: number): CompletedIndexes {
    const out = new Set<number>();
    for (const part of (text ?? '').split(',')) {
      const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
      if (!m) continue;
      const first = Number(m[1]);
      const last = Math.min(m[2] === undefined ? first : Number(m[2]), completions - 1);
      for (let i = first; i <= last; i++) out.add(i);
    }
    return new CompletedIndexes([...out].sort((a, b) => a - b));
  }

  has(index: number): boolean {
    return this.set().has(index);
  }

  get total(): number {
    return this.sorted.length;
  }

  /** This set plus `indexes`. */
  with(indexes: Iterable<number>): CompletedIndexes {
    const out = new Set([...this.sorted, ...indexes]);
    return new CompletedIndexes([...out].sort((a, b) => a - b));
  }

  /** `0-2,4`: runs of consecutive indexes as intervals. */
  toString(): string {
    const parts: string[] = [];
    let i = 0;
    while (i < this.sorted.length) {
      let j = i;
      while (j + 1 < this.sorted.length && this.sorted[j + 1] === this.sorted[j] + 1) j++;
      parts.push(i === j ? String(this.sorted[i]) : `${this.sorted[i]}-${this.sorted[j]}`);
      i = j + 1;
    }
    return parts.join(',');
  }

  private cached: Set<number> | undefined;
  private set(): Set<number> {
    this.cached ??= new Set(this.sorted);
    return this.cached;
  }
}
