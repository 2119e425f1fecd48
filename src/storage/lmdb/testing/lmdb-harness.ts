import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../store.js';
import type { BackendHarness } from '../../testing/backend-harness.js';
import { LmdbStore, type LmdbStoreOptions, openLmdbStore } from '../lmdb-store.js';
import { damageLogRecord } from '../record-codec.js';

/**
 * Damages the stored log record of `key`'s latest value in place (no new revision), the way a
 * disk error would: reading it back fails its checksum. Works on an open LmdbStore.
 */
export async function corruptLmdbRecord(store: Store, key: string): Promise<void> {
  if (!(store instanceof LmdbStore)) throw new TypeError('corruptLmdbRecord needs an LmdbStore');
  const dbs = store.databasesForTesting();
  const entry = store.keyIndexForTesting().get(key);
  if (entry === undefined || !entry.live) throw new Error(`corruptLmdbRecord: ${key} is not a live key`);
  const record = dbs.log.get(entry.modRevision);
  if (record === undefined) throw new Error(`corruptLmdbRecord: no log record at ${entry.modRevision}`);
  await dbs.log.put(entry.modRevision, damageLogRecord(record));
  dbs.root.resetReadTxn();
}

export interface LmdbHarnessOptions extends Omit<LmdbStoreOptions, 'path'> {}

/**
 * A BackendHarness for the conformance suites: each `open()` is a store in a new directory under
 * one temp root (created on first use), which `dispose()` removes.
 */
export function createLmdbHarness(options: LmdbHarnessOptions = {}): BackendHarness {
  let root: string | undefined;
  let n = 0;
  return {
    name: 'lmdb',
    open() {
      root ??= mkdtempSync(join(tmpdir(), 'orch-lmdb-'));
      return openLmdbStore({ ...options, path: join(root, `store-${n++}`) });
    },
    corrupt: corruptLmdbRecord,
    async dispose() {
      if (root !== undefined) rmSync(root, { recursive: true, force: true });
      root = undefined;
    },
  };
}
