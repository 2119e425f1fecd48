/**
 * One version of a key: the value written at `modRevision`, or a tombstone (`value` null) for a
 * delete. Records are shared between the per-key history and the revision log; only
 * {@link KeyRecord.corrupt} is ever changed after creation (the in-place corruption test hook).
 */
export interface KeyRecord {
  readonly key: string;
  readonly modRevision: bigint;
  /** Revision that created the incarnation this record belongs to (0 for a tombstone). */
  readonly createRevision: bigint;
  /** Stored bytes; null marks a tombstone. */
  readonly value: Uint8Array | null;
  /** Why the record is (simulated as) unreadable; set by the corruption test hook only. */
  corrupt?: string;
}

/** The versions of one key in ascending `modRevision` order. */
export class KeyHistory {
  private records: KeyRecord[] = [];

  get isEmpty(): boolean {
    return this.records.length === 0;
  }

  /** The newest record (value or tombstone). */
  get latest(): KeyRecord | undefined {
    return this.records[this.records.length - 1];
  }

  /** Appends a record; its revision must exceed every recorded one (broken invariant: throws). */
  push(record: KeyRecord): void {
    const last = this.latest;
    if (last !== undefined && last.modRevision >= record.modRevision) {
      throw new Error(`key history out of order for ${record.key}: ${record.modRevision} after ${last.modRevision}`);
    }
    this.records.push(record);
  }

  /** The live record as of `revision`, undefined when the key did not exist then. */
  at(revision: bigint): KeyRecord | undefined {
    const records = this.records;
    // Reads mostly target recent revisions, so try the newest record before searching.
    const last = records[records.length - 1];
    if (last === undefined) return undefined;
    if (last.modRevision <= revision) return last.value === null ? undefined : last;
    let lo = 0;
    let hi = records.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (records[mid].modRevision <= revision) lo = mid + 1;
      else hi = mid;
    }
    // lo is the first record newer than `revision`.
    const found = lo === 0 ? undefined : records[lo - 1];
    return found === undefined || found.value === null ? undefined : found;
  }

  /**
   * Drops history at and below `revision`, keeping the newest record at or below it when it is a
   * live value (reads above `revision` still need it).
   */
  compact(revision: bigint): void {
    const records = this.records;
    let firstNewer = 0;
    while (firstNewer < records.length && records[firstNewer].modRevision <= revision) firstNewer++;
    if (firstNewer === 0) return;
    const keep = records[firstNewer - 1];
    const keepFrom = keep.value === null ? firstNewer : firstNewer - 1;
    if (keepFrom > 0) this.records = records.slice(keepFrom);
  }
}
