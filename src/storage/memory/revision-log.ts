import type { KeyRecord } from './key-history.js';

/** One committed write: the record it produced and the live record it replaced. */
export interface LogEntry {
  readonly revision: bigint;
  readonly type: 'put' | 'delete';
  readonly key: string;
  /** The record written (a tombstone for `delete`). */
  readonly record: KeyRecord;
  /** The live record before this write; undefined for the put that created the key. */
  readonly prev: KeyRecord | undefined;
}

/**
 * Every write since the compacted revision, in revision order (one entry per revision: the
 * memory store has no revision gaps). Watches replay from it; compaction trims its head.
 */
export class RevisionLog {
  private entries: LogEntry[] = [];

  get length(): number {
    return this.entries.length;
  }

  append(entry: LogEntry): void {
    const last = this.entries[this.entries.length - 1];
    if (last !== undefined && last.revision >= entry.revision) {
      throw new Error(`revision log out of order: ${entry.revision} after ${last.revision}`);
    }
    this.entries.push(entry);
  }

  /** Number of entries with a revision strictly greater than `revision`. */
  countAfter(revision: bigint): number {
    return this.entries.length - this.indexAfter(revision);
  }

  /** Entries with a revision strictly greater than `revision`, in order. */
  *after(revision: bigint): Generator<LogEntry> {
    const entries = this.entries;
    for (let i = this.indexAfter(revision); i < entries.length; i++) yield entries[i];
  }

  /** Removes and returns the entries at or below `revision`. */
  compact(revision: bigint): LogEntry[] {
    const cut = this.indexAfter(revision);
    const removed = this.entries.slice(0, cut);
    this.entries = this.entries.slice(cut);
    return removed;
  }

  /** Index of the first entry with a revision greater than `revision`. */
  private indexAfter(revision: bigint): number {
    const entries = this.entries;
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entries[mid].revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
