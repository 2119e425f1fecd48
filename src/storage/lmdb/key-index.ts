import type { LmdbDatabases } from './lmdb-env.js';
import { decodePointer, RECORD_PUT } from './record-codec.js';

/** What the store knows about a key's latest committed record. */
export interface IndexEntry {
  /** True for a live key, false for a deleted one whose tombstone is still kept. */
  readonly live: boolean;
  /** The key's latest record (a put, or the delete); 0 when the stored pointer is damaged. */
  readonly modRevision: number;
  /** createRevision of a live key's incarnation. */
  readonly createRevision: number;
  /** The stored pointer failed its checksum: the revisions above are unknown. */
  readonly damaged: boolean;
}

/**
 * An in-memory mirror of the committed `index` and `tombstones` databases (as etcd keeps its
 * key index in memory): validation of writes and point reads find a key's latest revision
 * without an lmdb lookup. Roughly 100 bytes per key. It is loaded when the store opens, updated
 * when a write batch commits (before its writers are acknowledged, so a reader that saw the
 * acknowledgement finds the write), and pruned after compaction drops tombstones. The
 * databases stay the source of truth for ranges, counts and recovery.
 */
export class KeyIndex {
  private entries = new Map<string, Entry>();

  constructor(private readonly dbs: LmdbDatabases) {
    this.reload();
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): IndexEntry | undefined {
    return this.entries.get(key);
  }

  /** A write of `key` committed at `modRevision` (updated in place: no garbage per write). */
  committed(key: string, live: boolean, modRevision: number, createRevision: number): void {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.entries.set(key, new Entry(live, modRevision, live ? createRevision : 0, false));
      return;
    }
    entry.live = live;
    entry.modRevision = modRevision;
    entry.createRevision = live ? createRevision : 0;
    entry.damaged = false;
  }

  /** Compaction dropped the tombstone of `key` at `revision` (unless it was re-created since). */
  forgetTombstone(key: string, revision: number): void {
    const entry = this.entries.get(key);
    if (entry !== undefined && !entry.live && entry.modRevision === revision) this.entries.delete(key);
  }

  /** Re-reads both databases from the latest snapshot (on open, and after a foreign write). */
  reload(): void {
    const entries = new Map<string, Entry>();
    this.dbs.root.resetReadTxn();
    for (const { key, value } of this.dbs.tombstones.getRange({})) entries.set(key, toEntry(value, false));
    for (const { key, value } of this.dbs.index.getRange({})) entries.set(key, toEntry(value, true));
    this.entries = entries;
  }
}

class Entry implements IndexEntry {
  constructor(
    public live: boolean,
    public modRevision: number,
    public createRevision: number,
    public damaged: boolean,
  ) {}
}

function toEntry(value: Uint8Array, live: boolean): Entry {
  const pointer = decodePointer(value);
  if (pointer === undefined || (pointer.type === RECORD_PUT) !== live) return new Entry(live, 0, 0, true);
  return new Entry(live, pointer.modRevision, pointer.createRevision, false);
}
