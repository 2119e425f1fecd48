import assert from 'node:assert/strict';
import { compareGoStrings } from '../../../util/go-strings.js';
import { type LmdbDatabases, readCompaction, readRevision } from '../lmdb-env.js';
import type { LmdbStore } from '../lmdb-store.js';
import { decodeLogRecord, type LogRecord, RECORD_PUT } from '../record-codec.js';

export interface InvariantReport {
  readonly revision: number;
  readonly compacted: number;
  readonly logRecords: number;
  readonly liveKeys: number;
}

/**
 * Walks the log of an open LMDB store (no writes may run meanwhile) and asserts the layout's
 * invariants: log records are well-formed and stored under their own revision, none is above
 * the current revision; record chains point backwards at records of the same key; the
 * in-memory key index holds, in byte order, exactly the keys that have log records, each
 * naming its latest record (live for a put, deleted for a delete).
 */
export function assertLmdbInvariants(store: LmdbStore): InvariantReport {
  const dbs: LmdbDatabases = store.databasesForTesting();
  dbs.root.resetReadTxn();
  const txn = dbs.root.useReadTransaction();
  try {
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

    const index = store.keyIndexForTesting();
    assert.equal(index.revision, revision, 'the key index has applied every committed write');
    let liveKeys = 0;
    let indexed = 0;
    let previousKey: string | undefined;
    const { entries } = index.seek('');
    for (const entry of entries) {
      if (entry.gone) continue;
      const key = entry.key;
      if (previousKey !== undefined) assert.ok(compareGoStrings(previousKey, key) < 0, `index order: ${key}`);
      previousKey = key;
      indexed++;
      assert.ok(!entry.damaged, `index entry of ${key} is intact`);
      const rec = latest.get(key);
      assert.ok(rec, `index entry of ${key} has log records`);
      assert.equal(entry.modRevision, rec.modRevision, `index of ${key} names its latest record`);
      assert.equal(entry.live, rec.type === RECORD_PUT, `index of ${key}: live iff the latest record is a put`);
      if (entry.live) {
        assert.equal(entry.createRevision, rec.createRevision, `createRevision of ${key}`);
        liveKeys++;
      }
    }
    assert.equal(indexed, latest.size, 'every key with log records is in the index');
    assert.equal(index.size, latest.size, 'the index holds no other keys');
    return { revision, compacted, logRecords: records.size, liveKeys };
  } finally {
    txn.done();
  }
}
