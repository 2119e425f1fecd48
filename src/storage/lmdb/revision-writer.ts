import type { Logger } from '../../util/logger.js';
import { ConflictError, CorruptValueError, KeyExistsError, NotFoundError, UnavailableError } from '../errors.js';
import type { KeyValue } from '../store.js';
import type { KeyIndex, KeySlot } from './key-index.js';
import { EMPTY_BYTES, type LmdbDatabases, META_REVISION, readRevision } from './lmdb-env.js';
import { encodeLogRecordInto, logRecordSize, MAX_REVISION, RECORD_DELETE, RECORD_PUT } from './record-codec.js';
import { corruptKv, SnapshotReader } from './snapshot-reader.js';
import { WriteArena } from './write-arena.js';

export type WriteOp =
  | { readonly kind: 'create'; readonly key: string; readonly value: Uint8Array }
  | { readonly kind: 'update'; readonly key: string; readonly value: Uint8Array; readonly expected?: number }
  | { readonly kind: 'delete'; readonly key: string; readonly expected?: number };

/** A write that is durable (committed), handed to the watch fan-out in revision order. */
export interface CommittedWrite {
  readonly op: WriteOp;
  readonly revision: number;
  /** The key's record before this one (0 for none): a put's previous value, if it is a put. */
  readonly previousRevision: number;
  /** The value a delete removed (creates and updates leave it to the reader). */
  readonly prev: KeyValue | undefined;
  /** The new value of a create or update (built on demand). */
  kv(): KeyValue | undefined;
}

/** What a write resolves with: the Store's WriteResult, and `prev` for a delete. */
export interface WriteOutcome {
  readonly revision: bigint;
  readonly prev: KeyValue;
}

export interface RevisionWriterOptions {
  readonly dbs: LmdbDatabases;
  /** Committed key states; updated here as batches commit. */
  readonly keyIndex: KeyIndex;
  readonly logger: Logger;
  /** Called once per committed batch, in revision order, before the writers' promises settle. */
  readonly onCommitted: (writes: readonly CommittedWrite[]) => void;
  /** Settle writes only once lmdb reports them flushed to disk, not merely committed. */
  readonly waitForFlush?: boolean;
}

class PendingWrite implements CommittedWrite {
  constructor(
    readonly op: WriteOp,
    readonly slot: KeySlot,
    readonly tries: number,
    readonly revision: number,
    readonly createRevision: number,
    readonly previousRevision: number,
    readonly record: Buffer,
    readonly prev: KeyValue | undefined,
    readonly resolve: (outcome: WriteOutcome) => void,
    readonly reject: (err: unknown) => void,
  ) {}

  /** The caller's own value, not a view into the arena (see WriteArena). */
  kv(): KeyValue | undefined {
    if (this.op.kind === 'delete') return undefined;
    return {
      key: this.op.key,
      value: this.op.value,
      createRevision: BigInt(this.createRevision),
      modRevision: BigInt(this.revision),
    };
  }
}

interface Batch {
  readonly generation: number;
  readonly first: number;
  last: number;
  readonly writes: PendingWrite[];
}

/** Attempts of one write whose batch lost the revision chain (see below) before giving up. */
const MAX_TRIES = 5;

/**
 * Applies writes as lmdb conditional batches, keeping lmdb's group commit: many concurrent
 * writers share one transaction and one fsync.
 *
 * Revision assignment. The `meta` entry `revision` carries the store's current revision as its
 * lmdb version. Writes are validated here (against the committed state overlaid with writes
 * still in flight), given the next revision in call order, and queued together as one
 * `ifVersion(revision = first - 1)` block that appends the log records and writes the new
 * revision. lmdb evaluates the condition inside the write transaction, so a batch applies only
 * on top of exactly the state it was validated against: revisions are assigned atomically and
 * without gaps, and failed validations consume none.
 *
 * The key index is in memory only (see KeyIndex). A queued write is recorded on its key's slot
 * there (`pending`), which is what later writes of the key are validated against, and the slot
 * is updated in place when the batch commits, before the writers are acknowledged.
 *
 * If a batch does not apply (a commit failed, or another writer moved the revision), every
 * batch queued after it fails its condition as well, since each expects its predecessor's
 * revision. The first such failure starts a new generation: the key index is reloaded from
 * the log (dropping the pending writes), the next revision re-read, and the failed writes are
 * validated and queued again (at most {@link MAX_TRIES} times). The data directory lock makes
 * this path exceptional.
 */
export class RevisionWriter {
  private nextRevision: number;
  private generation = 0;
  private batch: Batch | undefined;
  private inflight = 0;
  private drained: (() => void) | undefined;
  private closed = false;
  private readonly reader: SnapshotReader;
  private readonly arena = new WriteArena();

  constructor(private readonly options: RevisionWriterOptions) {
    this.nextRevision = readRevision(options.dbs) + 1;
    this.reader = new SnapshotReader(options.dbs);
  }

  /** Validates and queues `op`; resolves once it is committed with the revision it got. */
  write(op: WriteOp): Promise<WriteOutcome> {
    return new Promise((resolve, reject) => this.attempt(op, 1, resolve, reject));
  }

  /** Refuses new writes and resolves when every queued write has settled. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.inflight === 0 && this.batch === undefined) return;
    await new Promise<void>((resolve) => {
      this.drained = resolve;
    });
  }

  private attempt(
    op: WriteOp,
    tries: number,
    resolve: (outcome: WriteOutcome) => void,
    reject: (err: unknown) => void,
  ): void {
    if (this.closed) {
      reject(new UnavailableError('the LMDB store is closed'));
      return;
    }
    let planned: PendingWrite;
    try {
      planned = this.plan(op, tries, resolve, reject);
    } catch (err) {
      reject(err);
      return;
    }
    let batch = this.batch;
    if (batch === undefined) {
      batch = { generation: this.generation, first: planned.revision, last: 0, writes: [] };
      this.batch = batch;
      const queued = batch;
      // Writes issued in the same turn share one conditional block (fewer lmdb instructions).
      queueMicrotask(() => this.flush(queued));
    }
    batch.last = planned.revision;
    batch.writes.push(planned);
  }

  /**
   * Validates `op` against the current state (the key's latest queued write, else its committed
   * state) and assigns it the next revision.
   */
  private plan(
    op: WriteOp,
    tries: number,
    resolve: (outcome: WriteOutcome) => void,
    reject: (err: unknown) => void,
  ): PendingWrite {
    const { key } = op;
    // The key's latest queued write, else its committed state.
    const found = this.options.keyIndex.find(key);
    const pending = found?.pending as PendingWrite | undefined;
    let live = false;
    let modRevision = 0;
    let createRevision = 0;
    let damaged = false;
    if (pending !== undefined) {
      live = pending.op.kind !== 'delete';
      modRevision = pending.revision;
      createRevision = pending.createRevision;
    } else if (found !== undefined) {
      ({ live, modRevision, createRevision } = found);
      damaged = found.damaged && live;
    }
    // A re-created key's record chain continues through its delete record while that is kept.
    let prev: KeyValue | undefined;
    if (op.kind === 'create') {
      if (live) throw new KeyExistsError(key);
    } else {
      if (!live) throw new NotFoundError(key);
      if (damaged && (op.kind === 'update' || op.expected !== undefined)) {
        throw new CorruptValueError(
          key,
          'the latest log record of the key is damaged; only an unconditional delete is possible',
        );
      }
      if (op.expected !== undefined && op.expected !== modRevision) {
        throw new ConflictError(
          key,
          BigInt(op.expected),
          this.currentKv(key, pending, modRevision, createRevision, damaged),
        );
      }
      if (op.kind === 'delete') prev = this.currentKv(key, pending, modRevision, createRevision, damaged);
    }
    if (this.nextRevision > MAX_REVISION) throw new UnavailableError('the store has run out of revisions');
    const revision = this.nextRevision++;
    const isDelete = op.kind === 'delete';
    const newCreateRevision = op.kind === 'create' ? revision : createRevision;
    const type = isDelete ? RECORD_DELETE : RECORD_PUT;
    const value = isDelete ? undefined : op.value;
    const keyBytes = Buffer.byteLength(key, 'utf8');
    const slot = found ?? this.options.keyIndex.slot(key);
    const write = new PendingWrite(
      op,
      slot,
      tries,
      revision,
      newCreateRevision,
      modRevision,
      encodeLogRecordInto(
        this.arena.take(logRecordSize(keyBytes, value?.byteLength ?? 0)),
        { type, key, modRevision: revision, createRevision: newCreateRevision, previousRevision: modRevision, value },
        keyBytes,
      ),
      prev,
      resolve,
      reject,
    );
    slot.pending = write;
    return write;
  }

  /** The live value validation saw (ConflictError.current, DeleteResult.prev). */
  private currentKv(
    key: string,
    pending: PendingWrite | undefined,
    modRevision: number,
    createRevision: number,
    damaged: boolean,
  ): KeyValue {
    // A queued put's value is not in the log yet.
    const queued = pending?.kv();
    if (queued !== undefined) return queued;
    if (damaged) return this.reader.latest(key, { modRevision, createRevision, damaged });
    return (
      this.reader.recordAsKv(key, modRevision) ??
      corruptKv(key, modRevision, createRevision, 'the log record is not a put')
    );
  }

  private flush(batch: Batch): void {
    // A resync re-planned the writes of a batch that was still open.
    if (this.batch !== batch) return;
    this.batch = undefined;
    const { dbs } = this.options;
    this.inflight++;
    let result: Promise<boolean>;
    try {
      result = dbs.meta.ifVersion(META_REVISION, batch.first - 1, () => {
        for (const w of batch.writes) dbs.log.put(w.revision, w.record, APPEND);
        dbs.meta.put(META_REVISION, EMPTY_BYTES, batch.last);
      });
    } catch (err) {
      result = Promise.reject(err);
    }
    result
      .then(
        (applied) => (applied ? this.settle(batch) : this.retry(batch)),
        (err: unknown) => this.fail(batch, err),
      )
      .catch((err: unknown) => this.options.logger.error('lmdb write settlement failed', { error: String(err) }))
      .finally(() => {
        this.inflight--;
        if (this.closed && this.inflight === 0 && this.batch === undefined) this.drained?.();
      });
  }

  private settle(batch: Batch): void | Promise<void> {
    const { keyIndex } = this.options;
    const current = batch.generation === this.generation;
    for (const w of batch.writes) {
      const { key, kind } = w.op;
      if (current) {
        keyIndex.apply(w.slot, kind !== 'delete', w.revision, w.createRevision);
        // The key's state is now committed, unless a later write of it is still queued.
        if (w.slot.pending === w) w.slot.pending = undefined;
      } else {
        keyIndex.committed(key, kind !== 'delete', w.revision, w.createRevision);
      }
    }
    keyIndex.advance(batch.last);
    if (this.options.waitForFlush) {
      return Promise.resolve(this.options.dbs.root.flushed).then(() => this.acknowledge(batch));
    }
    this.acknowledge(batch);
  }

  private acknowledge(batch: Batch): void {
    try {
      this.options.onCommitted(batch.writes);
    } catch (err) {
      this.options.logger.error('lmdb watch fan-out failed', { error: String(err) });
    }
    for (const w of batch.writes) {
      w.resolve(
        w.prev === undefined
          ? ({ revision: BigInt(w.revision) } as WriteOutcome)
          : { revision: BigInt(w.revision), prev: w.prev },
      );
    }
  }

  private retry(batch: Batch): void {
    this.resync(batch, 'a write batch did not apply: the revision moved under it');
    for (const w of batch.writes) {
      if (w.tries >= MAX_TRIES) {
        w.reject(new UnavailableError(`write of ${w.op.key} did not apply after ${w.tries} attempts`));
      } else {
        this.attempt(w.op, w.tries + 1, w.resolve, w.reject);
      }
    }
  }

  private fail(batch: Batch, err: unknown): void {
    this.resync(batch, 'a write batch failed to commit');
    const message = err instanceof Error ? err.message : String(err);
    for (const w of batch.writes) w.reject(new UnavailableError(`commit failed: ${message}`, { cause: err }));
  }

  /** Starts a new generation after the first failure of the current one (see the class TSDoc). */
  private resync(batch: Batch, why: string): void {
    if (batch.generation !== this.generation) return;
    this.generation++;
    // Someone else may have written: re-read the committed state.
    this.options.keyIndex.reload();
    this.nextRevision = readRevision(this.options.dbs) + 1;
    this.options.logger.warn(`lmdb store: ${why}; re-validating queued writes`, {
      revision: this.nextRevision - 1,
    });
    const open = this.batch;
    this.batch = undefined;
    // Writes still gathering in the open batch were validated against the dropped pending writes.
    for (const w of open?.writes ?? []) this.attempt(w.op, w.tries, w.resolve, w.reject);
  }
}

const APPEND = { append: true } as const;
