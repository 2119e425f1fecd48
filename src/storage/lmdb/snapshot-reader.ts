import { CorruptValueError } from '../errors.js';
import type { KeyValue, StoreEvent } from '../store.js';
import type { IndexEntry } from './key-index.js';
import { EMPTY_BYTES, type LmdbDatabases, type ReadTxn } from './lmdb-env.js';
import { decodeLogRecord, type LogRecord, RECORD_DELETE, RECORD_PUT } from './record-codec.js';

/**
 * Reads of one consistent snapshot: a key's latest value, its value as of a past revision, and
 * log records turned into events. Pure reads; the caller owns the snapshot (`txn`, or lmdb's
 * shared read transaction when undefined, which is stable within one synchronous turn).
 *
 * Past revisions are resolved along each key's chain of records: every log record points at the
 * key's previous record (`previousRevision`), and the key index names the latest. Reading key K at revision R walks back from the latest until a record
 * at or below R; its type says whether K existed at R. Compaction keeps, for every key, the
 * latest record at or below the compacted revision, so a walk for any readable R ends on a
 * record that still exists.
 */
export class SnapshotReader {
  private readonly options: { transaction: ReadTxn } | undefined;

  constructor(
    private readonly dbs: LmdbDatabases,
    txn?: ReadTxn,
  ) {
    this.options = txn ? { transaction: txn } : undefined;
  }

  /**
   * The full log record stored under `revision` (its value copied out of lmdb's buffer),
   * `damaged`, or undefined. `key`, when known, is not decoded again.
   */
  record(revision: number, key?: string): LogRecord | 'damaged' | undefined {
    const buf = this.dbs.log.getBinaryFast(revision, this.options);
    if (buf === undefined) return undefined;
    return decodeLogRecord(buf, { copyValue: true, key }) ?? 'damaged';
  }

  /**
   * The log record under `revision` with its value as a view of lmdb's read buffer (its checksum
   * verified unless `checkValue` is false): valid only until the next read of this store.
   * `damaged`, or undefined.
   */
  recordView(revision: number, key?: string, checkValue = true): LogRecord | 'damaged' | undefined {
    const buf = this.dbs.log.getBinaryFast(revision, this.options);
    if (buf === undefined) return undefined;
    return decodeLogRecord(buf, { key, checkValue }) ?? 'damaged';
  }

  /** Only the header of a log record (no copy of the value, value checksum not verified). */
  private header(revision: number, key: string): LogRecord | 'damaged' | undefined {
    const buf = this.dbs.log.getBinaryFast(revision, this.options);
    if (buf === undefined) return undefined;
    return decodeLogRecord(buf, { checkValue: false, key }) ?? 'damaged';
  }

  /** The latest value of a live key, given its index entry (corrupt items included). */
  latest(key: string, entry: Pick<IndexEntry, 'modRevision' | 'createRevision' | 'damaged'>): KeyValue {
    const { modRevision, createRevision } = entry;
    if (entry.damaged) {
      return corruptKv(key, modRevision, createRevision, `the log record at revision ${modRevision} is damaged`);
    }
    // The index names the key's record; the header checksum covers the key bytes.
    const rec = this.record(modRevision, key);
    if (rec === undefined) return corruptKv(key, modRevision, createRevision, 'the log record is missing');
    if (rec === 'damaged' || rec.type !== RECORD_PUT) {
      return corruptKv(key, modRevision, createRevision, 'the log record is damaged');
    }
    return kvFromRecord(rec);
  }

  /**
   * `key` as of `revision`, starting from its latest record `latestRevision`; undefined when the
   * key did not exist then. The caller has checked that `revision` is not compacted.
   */
  at(key: string, latestRevision: number, revision: number): KeyValue | undefined {
    let rev = latestRevision;
    while (rev > revision) {
      const head = this.header(rev, key);
      // A missing record was a tombstone that compaction dropped: the key was absent.
      if (head === undefined) return undefined;
      if (head === 'damaged') return corruptKv(key, 0, 0, `the log record at revision ${rev} is damaged`);
      rev = head.previousRevision;
    }
    if (rev === 0) return undefined;
    return this.recordAsKv(key, rev);
  }

  /** Whether `key` existed at `revision` (like {@link SnapshotReader.at}, without copying values). */
  existsAt(key: string, latestRevision: number, revision: number): boolean {
    let rev = latestRevision;
    for (;;) {
      if (rev === 0) return false;
      const head = this.header(rev, key);
      if (head === undefined) return false;
      // A damaged record is reported as a corrupt item by `at`, so it counts as present.
      if (head === 'damaged') return true;
      if (rev <= revision) return head.type === RECORD_PUT;
      rev = head.previousRevision;
    }
  }

  /**
   * `key` as of `revision`, given its key index entry: read directly when its latest record is
   * at or below `revision`, else walked back along its record chain. Undefined when the key did
   * not exist then; a damaged entry is a corrupt item at any revision.
   */
  valueAt(key: string, entry: IndexEntry, revision: number): KeyValue | undefined {
    if (entry.damaged) return this.latest(key, entry);
    if (entry.modRevision <= revision) return entry.live ? this.latest(key, entry) : undefined;
    return this.at(key, entry.modRevision, revision);
  }

  /** Whether `key` existed at `revision` (see {@link SnapshotReader.valueAt}), mostly without a read. */
  presentAt(key: string, entry: IndexEntry, revision: number): boolean {
    if (entry.damaged) return true;
    if (entry.modRevision <= revision) return entry.live;
    return this.existsAt(key, entry.modRevision, revision);
  }

  /** The value of the record at `revision` when it is a put of `key`; undefined for a delete. */
  recordAsKv(key: string, revision: number): KeyValue | undefined {
    // Record chains and index entries only ever point at records of their own key.
    const rec = this.record(revision, key);
    if (rec === undefined) return undefined;
    if (rec === 'damaged') {
      return corruptKv(key, revision, 0, `the log record at revision ${revision} is damaged`);
    }
    return rec.type === RECORD_DELETE ? undefined : kvFromRecord(rec);
  }

  /** The event a log record stands for, with the key's previous value as `prev`. */
  event(rec: LogRecord): StoreEvent {
    const prev = rec.previousRevision > 0 ? this.recordAsKv(rec.key, rec.previousRevision) : undefined;
    const revision = BigInt(rec.modRevision);
    if (rec.type === RECORD_DELETE) return { type: 'delete', key: rec.key, revision, prev };
    return { type: 'put', key: rec.key, revision, kv: kvFromRecord(rec), prev };
  }
}

/** The KeyValue of a put record; a value failing its checksum makes a corrupt item. */
function kvFromRecord(rec: LogRecord): KeyValue {
  if (!rec.valueOk) return corruptKv(rec.key, rec.modRevision, rec.createRevision, 'the value fails its checksum');
  return {
    key: rec.key,
    value: rec.value,
    createRevision: BigInt(rec.createRevision),
    modRevision: BigInt(rec.modRevision),
  };
}

/** An item standing for a record that cannot be read back (empty value, `corrupt` set). */
export function corruptKv(key: string, modRevision: number, createRevision: number, reason: string): KeyValue {
  return {
    key,
    value: EMPTY_BYTES,
    createRevision: BigInt(createRevision),
    modRevision: BigInt(modRevision),
    corrupt: new CorruptValueError(key, reason),
  };
}
