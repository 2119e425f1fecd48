import assert from 'node:assert/strict';
import { type LmdbDatabases, readCompaction, readRevision } from '../lmdb-env.js';
import type { LmdbStore } from '../lmdb-store.js';
import { decodeLogRecord, decodePointer, type LogRecord, RECORD_DELETE, RECORD_PUT } from '../record-codec.js';

export interface InvariantReport {
  readonly revision: number;
  readonly compacted: number;
  readonly logRecords: number;
  readonly liveKeys: number;
}

/**
 * Walks every database of an open LMDB store (no writes may run meanwhile) and asserts the
 * layout's invariants: log records are well-formed and stored under their own revision, none
 * is above the current revision; record chains point backwards at records of the same key;
 * the index holds exactly the keys whose latest record is a put, pointing at that record;
 * tombstones hold exactly the deleted keys whose delete record is still in the log.
 */
export function assertLmdbInvariants(store: LmdbStore): InvariantReport {
  const dbs: LmdbDatabases = store.databasesForTesting();
  dbs.root.resetReadTxn();
  const txn = dbs.root.useReadTransaction();
  try {
    const options = { transaction: txn };
    const revision = readRevision(dbs, txn);
    const { compacted, cleaned } = readCompaction(dbs, txn);
    assert.ok(cleaned <= compacted && compacted <= revision, `compaction ${cleaned}/${compacted} vs ${revision}`);

    const records = new Map<number, LogRecord>();
    const latest = new Map<string, LogRecord>();
    let previous = 0;
    for (const { key: rev, value } of dbs.log.getRange({ transaction: txn })) {
      assert.ok(rev > previous, `log revisions ascend (${rev} after ${previous})`);
      previous = rev;
      assert.ok(rev <= revision, `log record ${rev} above the current revision ${revision}`);
      const rec = decodeLogRecord(value);
      assert.ok(rec?.valueOk, `log record ${rev} is well-formed`);
      assert.equal(rec.modRevision, rev, `log record ${rev} is stored under its own revision`);
      assert.ok(rec.previousRevision < rev, `log record ${rev} points backwards`);
      if (rec.type === RECORD_PUT && rec.createRevision !== rev) {
        assert.ok(rec.createRevision < rev, `log record ${rev}: createRevision ${rec.createRevision}`);
      }
      records.set(rev, rec);
      latest.set(rec.key, rec);
    }
    for (const rec of records.values()) {
      // Chains above the compacted revision are intact.
      if (rec.previousRevision > compacted) {
        const prev = records.get(rec.previousRevision);
        assert.ok(prev, `record ${rec.modRevision} (${rec.key}): previous ${rec.previousRevision} missing`);
        assert.equal(prev.key, rec.key, `record ${rec.modRevision}: previous record belongs to another key`);
      }
    }

    let liveKeys = 0;
    for (const { key, value } of dbs.index.getRange({ transaction: txn })) {
      const pointer = decodePointer(value);
      assert.ok(pointer && pointer.type === RECORD_PUT, `index entry of ${key} is well-formed`);
      const rec = latest.get(key);
      assert.ok(rec, `index entry of ${key} has log records`);
      assert.equal(rec.modRevision, pointer.modRevision, `index of ${key} points at its latest record`);
      assert.equal(rec.type, RECORD_PUT, `the latest record of live key ${key} is a put`);
      assert.equal(rec.createRevision, pointer.createRevision, `createRevision of ${key}`);
      liveKeys++;
    }
    for (const { key, value } of dbs.tombstones.getRange({ transaction: txn })) {
      const pointer = decodePointer(value);
      assert.ok(pointer && pointer.type === RECORD_DELETE, `tombstone of ${key} is well-formed`);
      assert.equal(dbs.index.get(key, options), undefined, `${key} is live and deleted at once`);
      const rec = latest.get(key);
      assert.ok(rec, `tombstone of ${key} has its delete record`);
      assert.equal(rec.modRevision, pointer.modRevision, `tombstone of ${key} points at its latest record`);
      assert.equal(rec.type, RECORD_DELETE, `the latest record of deleted key ${key} is a delete`);
    }
    for (const [key, rec] of latest) {
      if (rec.type === RECORD_PUT) assert.ok(dbs.index.get(key, options), `live key ${key} is in the index`);
      else assert.ok(dbs.tombstones.get(key, options), `deleted key ${key} has its tombstone`);
    }
    return { revision, compacted, logRecords: records.size, liveKeys };
  } finally {
    txn.done();
  }
}
