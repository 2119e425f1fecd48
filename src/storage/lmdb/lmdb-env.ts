import { statSync } from 'node:fs';
import { join } from 'node:path';
import { open, type RootDatabaseOptionsWithPath } from 'lmdb';
import { type CompactionState, decodeCompactionState } from './record-codec.js';

/**
 * The databases of one LMDB environment (one data directory) and the narrow slice of the lmdb
 * API the backend uses, typed for binary values.
 *
 * - `log`: revision → log record (every put and delete, the history). The only record of the
 *   data: the key index is rebuilt from it in memory (see KeyIndex).
 * - `meta`: `revision` (its lmdb entry version is the store's current revision) and
 *   `compaction` (the compacted and cleaned revisions).
 *
 * Data directories written by earlier versions also hold `index` and `tombstones` databases;
 * they are derived data, no longer read or written.
 */
export interface LmdbDatabases {
  readonly root: RootEnv;
  readonly log: BinaryDb<number>;
  readonly meta: BinaryDb<string>;
}

/** An lmdb read transaction: a consistent snapshot until `done()`. */
export interface ReadTxn {
  done(): void;
}

export interface DbReadOptions {
  readonly transaction?: ReadTxn;
}

export interface DbRangeOptions extends DbReadOptions {
  readonly start?: number | string;
  readonly end?: number | string;
  readonly limit?: number;
  /** Newest key first. */
  readonly reverse?: boolean;
}

/** The lmdb database methods the backend uses (values are raw bytes). */
export interface BinaryDb<K extends number | string> {
  get(key: K, options?: DbReadOptions): Buffer | undefined;
  /** A view into lmdb's shared read buffer: valid until the next read. */
  getBinaryFast(key: K, options?: DbReadOptions): Buffer | undefined;
  getEntry(key: K, options?: DbReadOptions): { value: Buffer; version?: number } | undefined;
  getRange(options: DbRangeOptions): Iterable<{ key: K; value: Buffer }>;
  getKeys(options: DbRangeOptions): Iterable<K>;
  getKeysCount(options: DbRangeOptions): number;
  put(key: K, value: Uint8Array, versionOrOptions?: number | { append?: boolean; version?: number }): Promise<boolean>;
  putSync(key: K, value: Uint8Array, version?: number): void;
  remove(key: K): Promise<boolean>;
  ifVersion(key: K, version: number, action: () => void): Promise<boolean>;
  /** Runs `action`'s writes as one unit, committed in one transaction. */
  batch(action: () => void): Promise<boolean>;
}

export interface RootEnv {
  useReadTransaction(): ReadTxn;
  resetReadTxn(): void;
  readonly flushed: PromiseLike<boolean>;
  close(): Promise<void>;
}

export const META_REVISION = 'revision';
export const META_COMPACTION = 'compaction';
export const EMPTY_BYTES: Uint8Array = new Uint8Array(0);

export interface OpenEnvOptions {
  readonly path: string;
  /** No fsync at commit: survives a process crash, not a machine crash. */
  readonly noSync?: boolean;
}

/** Address space mapped at open: room to grow before lmdb must map the file again. */
const MIN_MAP_BYTES = 1 << 30;

/**
 * The map size to open with: at least 1 GiB, and twice the data file. lmdb starts small and
 * maps the file anew as it grows; each new map leaves the old one in place, and pages read
 * through both count twice in the process's resident memory (a full read at start-up, then
 * reads through the new map). Address space only: nothing is allocated or written for it.
 */
function initialMapSize(path: string): number {
  let fileBytes = 0;
  try {
    fileBytes = statSync(join(path, 'data.mdb')).size;
  } catch {
    // A new environment.
  }
  return Math.max(MIN_MAP_BYTES, 2 ** Math.ceil(Math.log2(Math.max(1, fileBytes * 2))));
}

/** Opens (creating when needed) the environment in `path` and its databases. */
export function openEnv(options: OpenEnvOptions): LmdbDatabases {
  const rootOptions: RootDatabaseOptionsWithPath & { txnStartThreshold: number } = {
    path: options.path,
    maxDbs: 8,
    ...(options.noSync ? { noSync: true } : {}),
    // Start a transaction as soon as a write is queued instead of at the next event turn: the
    // write thread then works while the event loop is still busy (measured ~5-10% more writes/s
    // with 64 writers). Atomicity never relied on turns: every multi-record change is one
    // `ifVersion` or `batch` block, which lmdb always commits whole.
    eventTurnBatching: false,
    // Documented in lmdb's README, missing from its typings.
    txnStartThreshold: 1,
    mapSize: initialMapSize(options.path),
    // A new environment's page size (an existing one keeps its own). The log's records of
    // objects of about 1 KiB fill 4 KiB pages only to three quarters, the rest left unused in the
    // file and in the pages mapped in memory; 8 KiB pages hold them with under 1% unused (100,000
    // ConfigMaps of 1 KiB: a 137 MB file, 118 MB with 8 KiB). A record (a 40-byte header, the
    // key, the value) of up to about 4,070 bytes stays inline; a larger one takes overflow pages
    // of its own: a Pod of two containers with its managedFields, 4.2 KB of JSON, fills 8 KiB.
    pageSize: 8192,
  };
  const root = open(rootOptions);
  const db = (name: string, useVersions: boolean) =>
    root.openDB({ name, encoding: 'binary', useVersions }) as unknown as BinaryDb<never>;
  const dbs: LmdbDatabases = {
    root: root as unknown as RootEnv,
    log: db('log', false) as unknown as BinaryDb<number>,
    meta: db('meta', true) as unknown as BinaryDb<string>,
  };
  if (dbs.meta.getEntry(META_REVISION) === undefined) {
    // The revision chain starts at version 0: the first write is conditional on it.
    dbs.meta.putSync(META_REVISION, EMPTY_BYTES, 0);
  }
  return dbs;
}

/** The store's current revision in `txn` (or the latest committed snapshot). */
export function readRevision(dbs: LmdbDatabases, txn?: ReadTxn): number {
  const entry = dbs.meta.getEntry(META_REVISION, txn ? { transaction: txn } : undefined);
  return entry?.version ?? 0;
}

export function readCompaction(dbs: LmdbDatabases, txn?: ReadTxn): CompactionState {
  return decodeCompactionState(dbs.meta.get(META_COMPACTION, txn ? { transaction: txn } : undefined));
}
