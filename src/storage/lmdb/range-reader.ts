import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CompactedError, RevisionTooNewError } from '../errors.js';
import type { KeyValue, RangeResult } from '../store.js';
import { type LmdbDatabases, type ReadTxn, readCompaction, readRevision } from './lmdb-env.js';
import { compareKeys, prefixUpperBound } from './lmdb-keys.js';
import { decodePointer, type Pointer } from './record-codec.js';
import { SnapshotReader } from './snapshot-reader.js';

/** A long range yields to the event loop after this much work, so it does not stall it. */
const SLICE_MS = 8;
/** How often (in items) the clock is checked. */
const CLOCK_EVERY = 128;

export interface RangeQuery {
  readonly prefix: string;
  /** Read at this revision; the latest when undefined. */
  readonly revision?: number;
  /** Maximum number of items, 0 for no limit. */
  readonly limit: number;
  readonly startAfter?: string;
  readonly signal?: AbortSignal;
}

/**
 * Checks a requested revision against one snapshot: RevisionTooNewError above the current
 * revision, CompactedError at or below the compacted one. Returns the revision to read at.
 */
export function checkReadRevision(dbs: LmdbDatabases, txn: ReadTxn | undefined, revision: number | undefined): number {
  const current = readRevision(dbs, txn);
  if (revision === undefined) return current;
  if (revision > current) throw new RevisionTooNewError(BigInt(revision), BigInt(current));
  const { compacted } = readCompaction(dbs, txn);
  if (compacted > 0 && revision <= compacted) throw new CompactedError(BigInt(revision), BigInt(compacted));
  return revision;
}

/**
 * A range of keys in one read snapshot, held across the slices of a long scan. At the current
 * revision it walks the index (live keys); at a past revision it walks live and deleted keys
 * together and resolves each along its record chain (see {@link SnapshotReader}).
 */
export async function readRange(dbs: LmdbDatabases, query: RangeQuery): Promise<RangeResult> {
  const txn = dbs.root.useReadTransaction();
  try {
    const current = readRevision(dbs, txn);
    const at = checkReadRevision(dbs, txn, query.revision);
    const reader = new SnapshotReader(dbs, txn);
    const bounds = scanBounds(query.prefix, query.startAfter);
    const kvs: KeyValue[] = [];
    const limit = query.limit > 0 ? query.limit : Number.POSITIVE_INFINITY;
    let lastKey: string | undefined;
    let remaining = 0;
    let processed = 0;
    const entries =
      at === current
        ? withinPrefix(dbs.index.getRange({ ...bounds, transaction: txn }), query.prefix)
        : mergeByKey(
            withinPrefix(dbs.index.getRange({ ...bounds, transaction: txn }), query.prefix),
            withinPrefix(dbs.tombstones.getRange({ ...bounds, transaction: txn }), query.prefix),
          );
    let sliceStart = performance.now();
    for (const { key, value } of entries) {
      if (++processed % CLOCK_EVERY === 0 && performance.now() - sliceStart > SLICE_MS) {
        await yieldToEventLoop();
        query.signal?.throwIfAborted();
        sliceStart = performance.now();
      }
      const pointer = decodePointer(value) ?? 'damaged';
      if (kvs.length >= limit) {
        // Counting the rest: at the latest revision the index holds live keys only.
        if (at === current) return finish(countRest(dbs, txn, query.prefix, lastKey!));
        if (pointer === 'damaged' || reader.existsAt(key, pointer.modRevision, at)) remaining++;
        continue;
      }
      const kv = at === current ? reader.latest(key, pointer) : resolveAt(reader, key, pointer, at);
      if (kv === undefined) continue;
      kvs.push(kv);
      lastKey = key;
    }
    return finish(remaining);

    function finish(rest: number): RangeResult {
      return { kvs, revision: BigInt(at), more: rest > 0, remaining: rest };
    }
  } finally {
    txn.done();
  }
}

/** Count of live keys under `prefix` at the latest revision. */
export function countKeys(dbs: LmdbDatabases, prefix: string): number {
  const end = prefixUpperBound(prefix);
  if (end !== undefined) return dbs.index.getKeysCount({ start: prefix, end });
  let n = 0;
  for (const key of dbs.index.getKeys(prefix === '' ? {} : { start: prefix })) {
    if (!key.startsWith(prefix)) break;
    n++;
  }
  return n;
}

function resolveAt(reader: SnapshotReader, key: string, pointer: Pointer | 'damaged', at: number) {
  if (pointer === 'damaged') return reader.latest(key, pointer);
  return reader.at(key, pointer.modRevision, at);
}

/** Live keys under `prefix` strictly after `afterKey`. */
function countRest(dbs: LmdbDatabases, txn: ReadTxn, prefix: string, afterKey: string): number {
  const start = exclusiveStart(afterKey);
  const end = prefixUpperBound(prefix);
  if (end !== undefined) return dbs.index.getKeysCount({ start, end, transaction: txn });
  let n = 0;
  for (const key of dbs.index.getKeys({ start, transaction: txn })) {
    if (!key.startsWith(prefix)) break;
    n++;
  }
  return n;
}

/**
 * The smallest possible key above `key`: keys hold no control characters (see assertValidKey),
 * so nothing sorts between `key` and `key + ' '`.
 */
function exclusiveStart(key: string): string {
  return `${key} `;
}

function scanBounds(prefix: string, startAfter: string | undefined): { start?: string; end?: string } {
  const start =
    startAfter !== undefined && compareKeys(startAfter, prefix) >= 0 ? exclusiveStart(startAfter) : prefix || undefined;
  const end = prefixUpperBound(prefix);
  return { ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) };
}

interface Entry {
  readonly key: string;
  readonly value: Buffer;
}

function* withinPrefix(entries: Iterable<Entry>, prefix: string): Generator<Entry> {
  for (const entry of entries) {
    if (!entry.key.startsWith(prefix)) return;
    yield entry;
  }
}

/** Two key-ordered streams as one (a key is never live and deleted at once; live wins). */
function* mergeByKey(a: Iterable<Entry>, b: Iterable<Entry>): Generator<Entry> {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  let x = ia.next();
  let y = ib.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && compareKeys(x.value.key, y.value.key) <= 0)) {
      if (!y.done && x.value.key === y.value.key) y = ib.next();
      yield x.value;
      x = ia.next();
    } else {
      yield y.value;
      y = ib.next();
    }
  }
}
