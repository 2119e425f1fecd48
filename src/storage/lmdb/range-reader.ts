import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CompactedError, CorruptValueError, RevisionTooNewError } from '../errors.js';
import type { KeyValue, RangeResult, StoredValues } from '../store.js';
import type { KeyIndex, OrderedEntry } from './key-index.js';
import { type LmdbDatabases, readCompaction } from './lmdb-env.js';
import { RECORD_PUT } from './record-codec.js';
import { SnapshotReader } from './snapshot-reader.js';

/** A long range yields to the event loop after this much work, so it does not stall it. */
const SLICE_MS = 8;
/** How often (in items) the clock is checked. */
const CLOCK_EVERY = 128;
/** How often (in entries) the clock is checked while only counting. */
const COUNT_CLOCK_EVERY = 4096;

export interface RangeQuery {
  readonly prefix: string;
  /** Read at this revision; the latest when undefined. */
  readonly revision?: number;
  /** Maximum number of items, 0 for no limit. */
  readonly limit: number;
  readonly startAfter?: string;
  readonly signal?: AbortSignal;
  /** Set {@link KeyValue.values} on the items (see RangeOptions.reloadableValues). */
  readonly reloadableValues?: boolean;
}

/**
 * Checks a requested revision against the store's current one (`current`, the key index's):
 * RevisionTooNewError above it, CompactedError at or below the compacted one. Returns the
 * revision to read at.
 */
export function checkReadRevision(dbs: LmdbDatabases, current: number, revision: number | undefined): number {
  if (revision === undefined) return current;
  if (revision > current) throw new RevisionTooNewError(BigInt(revision), BigInt(current));
  const { compacted } = readCompaction(dbs);
  if (compacted > 0 && revision <= compacted) throw new CompactedError(BigInt(revision), BigInt(compacted));
  return revision;
}

/**
 * A range of keys as of one revision `at` (the latest when none is asked for), read in slices
 * that yield to the event loop. Each key is resolved at `at` from its index entry: a key whose
 * latest record is at or below `at` is read directly, a key written since is walked back along
 * its record chain (see {@link SnapshotReader}), so writes landing between slices never show.
 * Deleted keys stay in the index until compaction drops their delete record, which keeps keys
 * that were live at `at` findable; if compaction passes beyond `at` while the range runs, it fails
 * with CompactedError, as it would have had it started then.
 */
export async function readRange(dbs: LmdbDatabases, index: KeyIndex, query: RangeQuery): Promise<RangeResult> {
  const at = checkReadRevision(dbs, index.revision, query.revision);
  const reader = new SnapshotReader(dbs);
  const values = query.reloadableValues ? new RecordValues(dbs) : undefined;
  const kvs: KeyValue[] = [];
  const limit = query.limit > 0 ? query.limit : Number.POSITIVE_INFINITY;
  let remaining = 0;
  let resumeAfter = query.startAfter;
  let sliced = false;
  const { prefix } = query;
  for (;;) {
    const sliceStart = performance.now();
    const { entries, start, end } = index.seek(prefix, resumeAfter);
    let i = start;
    for (; i < end && kvs.length < limit; i++) {
      if ((i - start) % CLOCK_EVERY === CLOCK_EVERY - 1 && performance.now() - sliceStart > SLICE_MS) break;
      const entry = entries[i];
      if (entry.gone) continue;
      const kv = (values && reloadableAt(values, reader, index, entry, at)) || reader.valueAt(entry.key, entry, at);
      if (kv !== undefined) kvs.push(kv);
    }
    // Past the limit only existence counts, mostly read from the entry itself.
    for (; i < end && kvs.length >= limit; i++) {
      if ((i - start) % COUNT_CLOCK_EVERY === COUNT_CLOCK_EVERY - 1 && performance.now() - sliceStart > SLICE_MS) break;
      const entry = entries[i];
      if (!entry.gone && reader.presentAt(entry.key, entry, at)) remaining++;
    }
    if (i >= end) break;
    // Out of time: resume after the last entry handled, in the next slice.
    if (i > start) resumeAfter = entries[i - 1].key;
    sliced = true;
    await yieldToEventLoop();
    query.signal?.throwIfAborted();
  }
  if (sliced) {
    // History the range relied on may have been compacted away while it yielded.
    const { compacted } = readCompaction(dbs);
    if (compacted > at) throw new CompactedError(BigInt(at), BigInt(compacted));
  }
  return { kvs, revision: BigInt(at), more: remaining > 0, remaining };
}

/**
 * A live key's latest value as a reloadable item, checked (header and value checksums) without
 * copying the value: `value` and `values` read it from its log record when asked (records are
 * immutable and keyed by revision). The check is the key index's when its load made it and no
 * range has used it yet (see KeyIndex). Undefined for what {@link SnapshotReader.valueAt} must
 * answer: past revisions, deleted keys, damaged records.
 */
function reloadableAt(
  values: RecordValues,
  reader: SnapshotReader,
  index: KeyIndex,
  entry: OrderedEntry,
  at: number,
): KeyValue | undefined {
  if (entry.damaged || !entry.live || entry.modRevision > at) return undefined;
  const { key, modRevision: revision } = entry;
  if (!index.takeValueChecked(entry)) {
    const rec = reader.recordView(revision, key);
    if (rec === undefined || rec === 'damaged' || rec.type !== RECORD_PUT || !rec.valueOk) return undefined;
  }
  const modRevision = BigInt(revision);
  return {
    key,
    createRevision: BigInt(entry.createRevision),
    modRevision,
    // Read afresh each time: a kept copy would hold the very bytes this item exists not to hold.
    get value() {
      return values.read(key, modRevision);
    },
    values,
  };
}

/** Values read from their log records, keyed by revision (records are immutable). */
class RecordValues implements StoredValues {
  private readonly reader: SnapshotReader;

  constructor(dbs: LmdbDatabases) {
    this.reader = new SnapshotReader(dbs);
  }

  read(key: string, revision: bigint, view?: boolean): Uint8Array {
    const at = Number(revision);
    // A view is read again and again (every list and GET answered from it); its value checksum
    // was verified when the range listed it, so it is not computed again for each read.
    const found = view ? this.reader.recordView(at, key, false) : this.reader.record(at, key);
    if (found === undefined || found === 'damaged' || !found.valueOk) {
      throw new CorruptValueError(key, `the value at revision ${revision} can no longer be read`);
    }
    return found.value;
  }
}
