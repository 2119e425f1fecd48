import { crc32 } from 'node:zlib';
import { compareGoStrings } from '../../util/go-strings.js';
import type { LmdbDatabases } from './lmdb-env.js';
import { readRevision } from './lmdb-env.js';
import { assertValidKey } from './lmdb-keys.js';
import { decodeLogRecord, RECORD_PUT, recoverKeyOfDamagedRecord, valueChecksumOf } from './record-codec.js';

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
 * Entries are also kept in an array in UTF-8 byte order of their keys, for ranges. New entries
 * are collected and merged into it before the next ordered read, so writes stay O(1) and a range
 * pays for the keys created since the previous one.
 *
 * Values checked at load: the load reads every record anyway, so when asked it also verifies the
 * value checksum of each live key's latest record. The first range that reaches the key then
 * trusts that instead of reading the record once more before handing out a reloadable item (the
 * watch caches' first lists), which makes the store's open and those lists one pass over the log.
 * A write of the key clears the mark; a range consumes it, so later ranges verify again.
 */
export class KeyIndex {
  private entries = new Map<string, Entry>();
  /** The entries known at the last merge, in key order (forgotten ones marked `gone`). */
  private ordered: Entry[] = [];
  /** Entries added since the last merge. */
  private added: Entry[] = [];
  /** Entries forgotten since the last merge. */
  private forgotten = 0;
  private appliedRevision = 0;
  /** Revisions of log records whose key could not be read at load. */
  private unattributed: number[] = [];

  /** `checkValues`: verify the latest values in this first load (see the class comment). */
  constructor(
    private readonly dbs: LmdbDatabases,
    checkValues = false,
  ) {
    this.reload(checkValues);
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
      entry = new Entry(key, false, 0, 0, false);
      this.entries.set(key, entry);
      this.added.push(entry);
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
    entry.valueChecked = false;
  }

  /**
   * Whether the load verified the value checksum of `entry`'s latest record (a live, undamaged
   * key not written since); true only once per entry.
   */
  takeValueChecked(entry: OrderedEntry): boolean {
    const e = entry as Entry;
    if (!e.valueChecked) return false;
    e.valueChecked = false;
    return e.live && !e.damaged;
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
    entry.gone = true;
    this.forgotten++;
  }

  /**
   * The entries in key order, and the positions `[start, end)` of those under `prefix` (after
   * `after`, when given); skip entries marked `gone`. The array is valid until the index next
   * changes: callers read it within one synchronous turn, and resume in a later one with the
   * last key they saw.
   */
  seek(prefix: string, after?: string): OrderedRange {
    const entries = this.sortedEntries();
    const start =
      after !== undefined && compareGoStrings(after, prefix) >= 0
        ? firstIndex(entries, (e) => compareGoStrings(e.key, after) > 0)
        : firstIndex(entries, (e) => compareGoStrings(e.key, prefix) >= 0);
    // Keys under a prefix are one run in byte order: the run ends at the first key above
    // `prefix` that does not start with it.
    const end = firstIndex(entries, (e) => compareGoStrings(e.key, prefix) > 0 && !e.key.startsWith(prefix));
    return { entries, start: Math.min(start, end), end };
  }

  /** Live keys under `prefix`. */
  countLive(prefix: string): number {
    const { entries, start, end } = this.seek(prefix);
    let n = 0;
    for (let i = start; i < end; i++) {
      const entry = entries[i];
      if (entry.live && !entry.gone) n++;
    }
    return n;
  }

  /**
   * Rebuilds the index from the log in the latest snapshot (on open, and after a foreign write).
   * Records are visited newest first, so the first record seen of a key is its latest and older
   * ones only need their key read; with `checkValues`, the value checksum of each key's latest
   * put is verified too (see the class comment).
   */
  reload(checkValues = false): void {
    const entries = new Map<string, Entry>();
    const unattributed: number[] = [];
    this.dbs.root.resetReadTxn();
    const txn = this.dbs.root.useReadTransaction();
    try {
      const revision = readRevision(this.dbs, txn);
      const read = { transaction: txn };
      // Keys, then each record through lmdb's shared read buffer: only headers are decoded, so
      // no record is copied out.
      for (const rev of this.dbs.log.getKeys({ ...read, reverse: true })) {
        if (rev > revision) continue;
        const value = this.dbs.log.getBinaryFast(rev, read);
        if (value === undefined) continue;
        const rec = decodeLogRecord(value, HEADER_ONLY);
        if (rec !== undefined && rec.modRevision === rev) {
          if (entries.has(rec.key)) continue;
          const live = rec.type === RECORD_PUT;
          const entry = new Entry(rec.key, live, rev, live ? rec.createRevision : 0, false);
          // A value failing its checksum is left unmarked: the read reports it corrupt.
          entry.valueChecked = live && checkValues && crc32(rec.value) >>> 0 === valueChecksumOf(value);
          entries.set(rec.key, entry);
          continue;
        }
        // A damaged header: its key bytes may still be readable. The key then counts as live
        // with an unreadable latest value (a read reports it corrupt; a delete removes it),
        // unless a later record of the key was seen.
        const key = recoverKeyOfDamagedRecord(value);
        if (key !== undefined && isStorableKey(key)) {
          if (!entries.has(key)) entries.set(key, new Entry(key, true, rev, 0, true));
        } else unattributed.push(rev);
      }
      this.entries = entries;
      this.ordered = sortByKey([...entries.values()]);
      this.added = [];
      this.forgotten = 0;
      this.unattributed = unattributed.reverse();
      this.appliedRevision = revision;
    } finally {
      txn.done();
    }
  }

  /** The ordered entries, after merging in those added and dropping those forgotten since. */
  private sortedEntries(): readonly Entry[] {
    if (this.added.length === 0 && this.forgotten === 0) return this.ordered;
    const base = this.forgotten > 0 ? this.ordered.filter((e) => !e.gone) : this.ordered;
    const added = sortByKey(this.added.filter((e) => !e.gone));
    const merged: Entry[] = new Array(base.length + added.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < base.length || j < added.length) {
      if (j >= added.length || (i < base.length && compareGoStrings(base[i].key, added[j].key) <= 0))
        merged[n++] = base[i++];
      else merged[n++] = added[j++];
    }
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

/** Entries in key order and the positions `[start, end)` of a range of them. */
export interface OrderedRange {
  readonly entries: readonly OrderedEntry[];
  readonly start: number;
  readonly end: number;
}

/** An entry of the ordered view: its key, and whether it has left the index since. */
export interface OrderedEntry extends IndexEntry {
  readonly key: string;
  readonly gone: boolean;
}

const LIVE = 1;
const DAMAGED = 2;
const GONE = 4;
const VALUE_CHECKED = 8;

/** An index entry; its four states in one number (the index holds one entry per key). */
class Entry implements KeySlot, OrderedEntry {
  pending: unknown = undefined;
  private flags: number;
  constructor(
    readonly key: string,
    live: boolean,
    public modRevision: number,
    public createRevision: number,
    damaged: boolean,
  ) {
    this.flags = (live ? LIVE : 0) | (damaged ? DAMAGED : 0);
  }

  get live(): boolean {
    return (this.flags & LIVE) !== 0;
  }

  set live(on: boolean) {
    this.flags = on ? this.flags | LIVE : this.flags & ~LIVE;
  }

  get damaged(): boolean {
    return (this.flags & DAMAGED) !== 0;
  }

  set damaged(on: boolean) {
    this.flags = on ? this.flags | DAMAGED : this.flags & ~DAMAGED;
  }

  get gone(): boolean {
    return (this.flags & GONE) !== 0;
  }

  set gone(on: boolean) {
    this.flags = on ? this.flags | GONE : this.flags & ~GONE;
  }

  /** The load verified the value checksum of the record at `modRevision` (see the class comment). */
  get valueChecked(): boolean {
    return (this.flags & VALUE_CHECKED) !== 0;
  }

  set valueChecked(on: boolean) {
    this.flags = on ? this.flags | VALUE_CHECKED : this.flags & ~VALUE_CHECKED;
  }
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

function byKey(a: Entry, b: Entry): number {
  return compareGoStrings(a.key, b.key);
}

function byKeyCodeUnits(a: Entry, b: Entry): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * Sorts `entries` in UTF-8 byte order of their keys. Without surrogates in any key, UTF-16 code
 * unit order is that order, and the native comparison is several times faster than Go's.
 */
function sortByKey(entries: Entry[]): Entry[] {
  return entries.sort(entries.some((e) => SURROGATE.test(e.key)) ? byKey : byKeyCodeUnits);
}

/** The first index of sorted `items` for which `isAtOrAfter` holds (it must be monotonic). */
function firstIndex<T>(items: readonly T[], isAtOrAfter: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isAtOrAfter(items[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
