import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from '../../util/logger.js';
import { CompactedError, RevisionTooNewError } from '../errors.js';
import type { KeyIndex } from './key-index.js';
import { type LmdbDatabases, META_COMPACTION, readCompaction, readRevision } from './lmdb-env.js';
import { decodeLogRecord, encodeCompactionState, exact, RECORD_DELETE } from './record-codec.js';

const HEADER_ONLY = { checkValue: false } as const;

/** Log records examined per cleanup batch (one lmdb transaction, one event-loop slice). */
const RECORDS_PER_BATCH = 1000;

export interface CompactionDeps {
  readonly dbs: LmdbDatabases;
  readonly logger: Logger;
}

export interface CleanupDeps extends CompactionDeps {
  /** The store's key index: which deleted keys still have their delete record, and forgetting them. */
  readonly keyIndex: Pick<KeyIndex, 'get' | 'forgetTombstone'>;
}

/**
 * Marks `revision` compacted: from the moment this resolves, reads and watches at or below it
 * fail with CompactedError. Throws RevisionTooNewError above the current revision and
 * CompactedError at or below the already compacted one (as etcd does).
 */
export async function markCompacted(deps: CompactionDeps, revision: number): Promise<void> {
  const { dbs } = deps;
  dbs.root.resetReadTxn();
  const current = readRevision(dbs);
  if (revision > current) throw new RevisionTooNewError(BigInt(revision), BigInt(current));
  const state = readCompaction(dbs);
  if (revision <= state.compacted) throw new CompactedError(BigInt(revision), BigInt(state.compacted));
  await dbs.meta.put(META_COMPACTION, encodeCompactionState({ compacted: revision, cleaned: state.cleaned }));
}

/**
 * Removes the history that compaction made unreadable, from the cleaned revision up to the
 * compacted one, in batches of {@link RECORDS_PER_BATCH} log records that each commit on their
 * own and yield to the event loop, so neither the write lock nor the event loop is held long.
 *
 * For every log record R (key K) at or below the compacted revision C:
 * - K's previous record is superseded by R, which is still at or below C, so no readable
 *   revision needs it: it is removed. (A record kept by an earlier compaction as K's latest is
 *   removed this way once a newer record of K falls under C.)
 * - if R is a delete and still K's latest record (nothing re-created K), K is gone at every
 *   readable revision: R is removed, and K leaves the key index once the batch commits. (A
 *   re-create committing meanwhile keeps K; its record chain then ends at a removed record,
 *   which reads as "absent", as K was.)
 * What remains for each key is its latest record at or below C, which reads above C need.
 *
 * The cleaned revision is saved with every batch; an interrupted cleanup resumes from there
 * (every removal is idempotent). Stops early, without error, when `signal` aborts.
 */
export async function cleanUpCompacted(deps: CleanupDeps, signal?: AbortSignal): Promise<void> {
  const { dbs, logger, keyIndex } = deps;
  for (;;) {
    if (signal?.aborted) return;
    const { compacted, cleaned } = readCompaction(dbs);
    if (cleaned >= compacted) return;
    const revisions = [...dbs.log.getKeys({ start: cleaned + 1, end: compacted + 1, limit: RECORDS_PER_BATCH })];
    const reachedEnd = revisions.length < RECORDS_PER_BATCH;
    const upTo = reachedEnd ? compacted : revisions[revisions.length - 1];
    let damaged = 0;
    const tombstones: [string, number][] = [];
    // One batch: the removals and the new cleaned revision commit together.
    const committed = dbs.meta.batch(() => {
      for (const revision of revisions) {
        const buf = dbs.log.getBinaryFast(revision);
        const rec = buf === undefined ? undefined : decodeLogRecord(exact(buf), HEADER_ONLY);
        if (rec === undefined) {
          damaged++;
          continue;
        }
        if (rec.previousRevision > 0) void dbs.log.remove(rec.previousRevision);
        if (rec.type === RECORD_DELETE) {
          const entry = keyIndex.get(rec.key);
          if (entry !== undefined && !entry.live && entry.modRevision === revision) {
            tombstones.push([rec.key, revision]);
            void dbs.log.remove(revision);
          }
        }
      }
      void dbs.meta.put(META_COMPACTION, encodeCompactionState({ compacted, cleaned: upTo }));
    });
    if (damaged > 0) logger.warn('lmdb compaction: left log records with damaged headers in place', { damaged });
    await committed;
    for (const [key, revision] of tombstones) keyIndex.forgetTombstone(key, revision);
    if (reachedEnd) return;
    await yieldToEventLoop();
  }
}
