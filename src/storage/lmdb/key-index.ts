import type { LmdbDatabases } from './lmdb-env.js';
import { readRevision } from './lmdb-env.js';
import { assertValidKey, compareKeys } from './lmdb-keys.js';
import { decodeLogRecord, RECORD_PUT, recoverKeyOfDamagedRecord } from './record-codec.js';

/** What the store knows about a key's latest committed record. */
export interface IndexEntry {
  /**
   * True for a live key; false for a deleted one whose delete record is still kept, or for a
   * key whose first write is still being committed (modRevision 0).
   */
  readonly live: boolean;
  /** The revision of the key's latest record (a put, or the delete); 0 for none yet. */
  readonly modRevision: number;
  /** createRevision of a live key's incarnation (0 when unknown or deleted). */
  readonly createRevision: number;
  /** The latest record's header failed its checksum: only its revision is known. */
  readonly damaged: boolean;
}

/**
 * The key index, kept in memory only, as etcd keeps its own: for every key whose latest record
 * is still in the log, that record's revision and kind. The log is the one structure on disk;
 * this index is rebuilt from it when the store opens (one pass over the log), updated when a
 * write batch commits (before its writers are acknowledged), and pruned when compaction drops
 * the delete record of a key.
 *
 * `revision` is the revision up to which committed writes are applied here: reads at the latest
 * revision use it, so they never see a revision whose writes the index does not have yet.
 *
 * Keys are also kept in UTF-8 byte order for ranges. New keys are collected and merged into the
 * ordered array before the next ordered read, so writes stay O(1) and a range pays for the keys
 * created since the previous one.
 */
export class KeyIndex {
  private entries = new Map<string, Entry>();
  /** Every key of `entries` that was known at the last merge, in byte order (plus forgotten ones). */
  private ordered: string[] = [];
  /** Keys added to `entries` since the last merge. */
  private added: string[] = [];
  /** Keys removed from `entries` since the last merge. */
  private forgotten = 0;
  private appliedRevision = 0;
  /** Revisions of log records whose key could not be read at load. */
  private unattributed: number[] = [];

  constructor(private readonly dbs: LmdbDatabases) {
    this.reload();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The revision whose writes (and all before it) are reflected here. */
  get revision(): number {
    return this.appliedRevision;
  }

  /** Log records with damaged headers whose key is unknown (found by the last load). */
  get unattributedRecords(): readonly number[] {
    return this.unattributed;
  }

  get(key: string): IndexEntry | undefined {
    return this.entries.get(key);
  }

  /** The writer's handle on `key`'s entry, if the key has one. */
  find(key: string): KeySlot | undefined {
    return this.entries.get(key);
  }

  /**
   * The writer's handle on `key`'s entry, created (with no committed record) when missing, so a
   * queued write can be applied later without looking the key up again.
   */
  slot(key: string): KeySlot {
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = new Entry(false, 0, 0, false);
      this.entries.set(key, entry);
      this.added.push(key);
    }
    return entry;
  }

  /** A write of `key` committed at `modRevision` (updated in place: no garbage per write). */
  committed(key: string, live: boolean, modRevision: number, createRevision: number): void {
    this.apply(this.slot(key), live, modRevision, createRevision);
  }

  /** A write committed at `modRevision`, applied to the slot its writer holds. */
  apply(slot: KeySlot, live: boolean, modRevision: number, createRevision: number): void {
    const entry = slot as Entry;
    entry.live = live;
    entry.modRevision = modRevision;
    entry.createRevision = live ? createRevision : 0;
    entry.damaged = false;
  }

  /** Every write up to `revision` has been applied with {@link KeyIndex.committed}. */
  advance(revision: number): void {
    if (revision > this.appliedRevision) this.appliedRevision = revision;
  }

  /** Compaction dropped the delete record of `key` at `revision` (unless it was re-created since). */
  forgetTombstone(key: string, revision: number): void {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.live || entry.modRevision !== revision) return;
    if (entry.pending !== undefined) {
      // A write of the key is being committed: keep its slot, with no record behind it.
      entry.modRevision = 0;
      return;
    }
    this.entries.delete(key);
    this.forgotten++;
  }

  /**
   * Keys under `prefix` in byte order, starting after `after` (when given), with their entries.
   * The index must not change while the iteration runs: callers consume it within one
   * synchronous turn, and resume in a later one by calling again with the last key they saw.
   */
  *scan(prefix: string, after?: string): Generator<[string, IndexEntry]> {
    const keys = this.sortedKeys();
    let i = after !== undefined && compareKeys(after, prefix) >= 0 ? upperBound(keys, after) : lowerBound(keys, prefix);
    for (; i < keys.length; i++) {
      const key = keys[i];
      if (!key.startsWith(prefix)) return;
      const entry = this.entries.get(key);
      if (entry !== undefined) yield [key, entry];
    }
  }

  /** Live keys under `prefix`. */
  countLive(prefix: string): number {
    let n = 0;
    for (const [, entry] of this.scan(prefix)) if (entry.live) n++;
    return n;
  }

  /**
   * Rebuilds the index from the log in the latest snapshot (on open, and after a foreign write):
   * records are visited in revision order, so each key ends at its latest record.
   */
  reload(): void {
    const entries = new Map<string, Entry>();
    const unattributed: number[] = [];
    this.dbs.root.resetReadTxn();
    const txn = this.dbs.root.useReadTransaction();
    try {
      const revision = readRevision(this.dbs, txn);
      for (const { key: rev, value } of this.dbs.log.getRange({ transaction: txn })) {
        if (rev > revision) break;
        const rec = decodeLogRecord(value, HEADER_ONLY);
        if (rec !== undefined && rec.modRevision === rev) {
          const live = rec.type === RECORD_PUT;
          const entry = entries.get(rec.key);
          if (entry === undefined) entries.set(rec.key, new Entry(live, rev, live ? rec.createRevision : 0, false));
          else {
            entry.live = live;
            entry.modRevision = rev;
            entry.createRevision = live ? rec.createRevision : 0;
            entry.damaged = false;
          }
          continue;
        }
        // A damaged header: its key bytes may still be readable. The key then counts as live
        // with an unreadable latest value (a read reports it corrupt; a delete removes it).
        const key = recoverKeyOfDamagedRecord(value);
        if (key !== undefined && isStorableKey(key)) entries.set(key, new Entry(true, rev, 0, true));
        else unattributed.push(rev);
      }
      this.entries = entries;
      this.ordered = [...entries.keys()].sort(compareKeys);
      this.added = [];
      this.forgotten = 0;
      this.unattributed = unattributed;
      this.appliedRevision = revision;
    } finally {
      txn.done();
    }
  }

  /** The ordered keys, after merging in the keys added and dropping those forgotten since. */
  private sortedKeys(): readonly string[] {
    if (this.added.length === 0 && this.forgotten === 0) return this.ordered;
    let base = this.ordered;
    if (this.forgotten > 0) base = base.filter((key) => this.entries.has(key));
    const added = this.added.filter((key) => this.entries.has(key)).sort(compareKeys);
    const merged: string[] = new Array(base.length + added.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < base.length || j < added.length) {
      let next: string;
      if (j >= added.length || (i < base.length && compareKeys(base[i], added[j]) <= 0)) next = base[i++];
      else next = added[j++];
      // A key forgotten and added again before this merge is in both lists.
      if (n === 0 || merged[n - 1] !== next) merged[n++] = next;
    }
    merged.length = n;
    this.ordered = merged;
    this.added = [];
    this.forgotten = 0;
    return merged;
  }
}

/** An index entry as the writer sees it: with the latest write of the key still being committed. */
export interface KeySlot extends IndexEntry {
  pending: unknown;
}

class Entry implements KeySlot {
  pending: unknown = undefined;
  constructor(
    public live: boolean,
    public modRevision: number,
    public createRevision: number,
    public damaged: boolean,
  ) {}
}

const HEADER_ONLY = { checkValue: false } as const;

function isStorableKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

/** The first index whose key is >= `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keys[mid], key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose key is > `key`. */
function upperBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keys[mid], key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
