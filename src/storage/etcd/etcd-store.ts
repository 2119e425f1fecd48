import { setMaxListeners } from 'node:events';
import {
  CompareResult,
  CompareTarget,
  type Etcd3,
  type ICompare,
  type IRangeRequest,
  type IRangeResponse,
  type ITxnRequest,
  type ITxnResponse,
} from 'etcd3';
import { type Logger, silentLogger } from '../../util/logger.js';
import {
  CompactedError,
  ConflictError,
  KeyExistsError,
  NotFoundError,
  RevisionTooNewError,
  UnavailableError,
} from '../errors.js';
import { keyScheme } from '../keys.js';
import type {
  DeleteResult,
  KeyValue,
  RangeOptions,
  RangeResult,
  Store,
  StoreEvent,
  StoreProgress,
  WatchOptions,
  WriteResult,
} from '../store.js';
import { createEtcdClient, EtcdCaller } from './etcd-client.js';
import { frameValue, KeyCodec } from './etcd-codec.js';
import { EtcdCompaction } from './etcd-compaction.js';
import { isEtcdCompacted, isEtcdFutureRevision, isTransient, wasNotSent } from './etcd-errors.js';
import { watchEtcd } from './etcd-watch.js';

export interface EtcdStoreOptions {
  /** etcd client URLs, e.g. `http://127.0.0.1:2379`. */
  readonly endpoints: readonly string[];
  /**
   * The storage key prefix (default `/registry`). Callers already include it in the keys they
   * pass; the backend keeps its own coordination key at `<prefix>/compact_rev_key`, which is never
   * under a `<prefix>/<group>/` range (group names cannot contain `_`).
   */
  readonly prefix?: string;
  /**
   * Bytes prepended to every key on the wire and stripped when reading (default none), so that
   * independent stores can share one etcd. Compaction stays global to the etcd cluster.
   */
  readonly keyNamespace?: string;
  /** Deadline of each etcd call (default 5 s). */
  readonly callTimeoutMs?: number;
  /** Deadline of each etcd write (default `callTimeoutMs`). */
  readonly writeTimeoutMs?: number;
  /** Attempts per call on connection-level failures, the first included (default 3). */
  readonly maxAttempts?: number;
  /** Keys fetched per etcd request when a range needs more (default 10,000). */
  readonly rangePageSize?: number;
  /** How long a watch keeps trying to reconnect before failing with UnavailableError (default 10 s). */
  readonly watchRetryBudgetMs?: number;
  readonly logger?: Logger;
}

/**
 * Connects to etcd and verifies it answers (UnavailableError otherwise).
 */
export async function openEtcdStore(options: EtcdStoreOptions): Promise<EtcdStore> {
  const store = new EtcdStore(options);
  try {
    await store.currentRevision();
  } catch (e) {
    await store.close();
    throw e;
  }
  return store;
}

/**
 * The {@link Store} contract on etcd 3.4+ (etcd3 client over gRPC).
 *
 * Every write is a single etcd transaction (one round trip): create = `create_revision == 0 →
 * put`; guarded update/delete = `mod_revision == expected → put/delete`, else read the current
 * value in the same transaction for the ConflictError. Reads are linearizable. Revisions are etcd's
 * own: a fresh etcd is at revision 1, not 0, and other clients of the same etcd advance them too.
 *
 * Values are framed with a 4-byte header; values under our keys without it come back as corrupt
 * items (`get` throws CorruptValueError).
 *
 * Failures reaching etcd become UnavailableError after bounded retries; reads are retried on any
 * connection failure, creates after a check (see {@link EtcdStore.create}), other writes only when
 * the request provably never reached etcd.
 */
export class EtcdStore implements Store {
  private readonly client: Etcd3;
  private readonly codec: KeyCodec;
  private readonly caller: EtcdCaller;
  private readonly compaction: EtcdCompaction;
  private readonly compactKey: Buffer;
  private readonly pageSize: number;
  private readonly closed = new AbortController();
  private readonly logger: Logger;
  private readonly watchRetryBudgetMs: number;

  constructor(options: EtcdStoreOptions) {
    if (options.endpoints.length === 0) throw new Error('openEtcdStore: at least one endpoint is required');
    this.logger = options.logger ?? silentLogger;
    this.codec = new KeyCodec(options.keyNamespace);
    this.client = createEtcdClient({
      endpoints: options.endpoints,
      callTimeoutMs: options.callTimeoutMs,
      writeTimeoutMs: options.writeTimeoutMs,
    });
    // Every watch (one per watched resource) listens to the store's closing, by design.
    setMaxListeners(0, this.closed.signal);
    this.caller = new EtcdCaller({ maxAttempts: options.maxAttempts, logger: this.logger, closed: this.closed.signal });
    this.pageSize = Math.max(1, options.rangePageSize ?? 10_000);
    this.watchRetryBudgetMs = options.watchRetryBudgetMs ?? 10_000;
    this.compactKey = this.codec.encode(`${keyScheme(options.prefix).prefix}/compact_rev_key`);
    this.compaction = new EtcdCompaction({
      client: this.client,
      caller: this.caller,
      compactKey: this.compactKey,
      probeTimeoutMs: 2 * (options.callTimeoutMs ?? 5000),
      currentRevision: (signal) => this.currentRevision(signal),
    });
  }

  async currentRevision(signal?: AbortSignal): Promise<bigint> {
    const res = await this.read({ key: this.compactKey, count_only: true }, signal);
    return BigInt(res.header.revision);
  }

  async compactedRevision(signal?: AbortSignal): Promise<bigint> {
    this.checkOpen();
    return this.compaction.compactedRevision(signal);
  }

  async get(key: string, opts: { revision?: bigint; signal?: AbortSignal } = {}): Promise<KeyValue | undefined> {
    const req: IRangeRequest = { key: this.codec.encode(key) };
    const res = await this.readAt(req, opts.revision, opts.signal);
    if (res.kvs.length === 0) return undefined;
    const kv = this.codec.decodeKeyValue(res.kvs[0]);
    if (kv.corrupt) throw kv.corrupt;
    return kv;
  }

  async range(prefix: string, opts: RangeOptions & { signal?: AbortSignal } = {}): Promise<RangeResult> {
    const { key, rangeEnd } = this.codec.prefixRange(prefix, opts.startAfter);
    const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : Number.POSITIVE_INFINITY;
    const kvs: KeyValue[] = [];
    let revision = opts.revision !== undefined && opts.revision > 0n ? opts.revision : undefined;
    let total: number | undefined;
    let start = key;
    // Large ranges are read in pages pinned to the first page's revision, so the result is one
    // consistent snapshot without one huge etcd response.
    for (;;) {
      const pageLimit = Math.min(limit - kvs.length, this.pageSize);
      const res = await this.readAt({ key: start, range_end: rangeEnd, limit: pageLimit }, revision, opts.signal);
      revision ??= BigInt(res.header.revision);
      total ??= Number(res.count);
      for (const kv of res.kvs) kvs.push(this.codec.decodeKeyValue(kv));
      if (!res.more || res.kvs.length === 0 || kvs.length >= limit) break;
      start = Buffer.concat([res.kvs[res.kvs.length - 1].key, Buffer.from([0])]);
    }
    const remaining = Math.max(0, total - kvs.length);
    return { kvs, revision, more: remaining > 0, remaining };
  }

  async count(prefix: string, signal?: AbortSignal): Promise<number> {
    const { key, rangeEnd } = this.codec.prefixRange(prefix);
    const res = await this.read({ key, range_end: rangeEnd, count_only: true }, signal);
    return Number(res.count);
  }

  /**
   * A create that fails without a known outcome (dropped connection, deadline, leader change) is
   * retried; when the retry finds the key holding exactly the bytes this call wrote (objects carry
   * a fresh uid, so no other writer's value is equal), the earlier attempt was applied and its
   * revision is returned instead of KeyExistsError. A create is never applied twice.
   */
  async create(key: string, value: Uint8Array, signal?: AbortSignal): Promise<WriteResult> {
    this.checkOpen();
    const wireKey = this.codec.encode(key);
    const framed = frameValue(value);
    const req: ITxnRequest = {
      compare: [{ key: wireKey, target: CompareTarget.Create, result: CompareResult.Equal, create_revision: 0 }],
      success: [{ request_put: { key: wireKey, value: framed } }],
      failure: [{ request_range: { key: wireKey } }],
    };
    let uncertain = false;
    const res = await this.caller.run(
      'create',
      async () => {
        try {
          return await this.client.kv.txn(req);
        } catch (e) {
          if (isTransient(e) && !wasNotSent(e)) uncertain = true;
          throw e;
        }
      },
      { idempotent: true, signal },
    );
    if (!res.succeeded) {
      const current = res.responses[0]?.response_range.kvs[0];
      if (uncertain && current !== undefined && Buffer.from(current.value).equals(framed)) {
        this.logger.info('etcd create applied by an attempt whose outcome was unknown', { key });
        return { revision: BigInt(current.mod_revision) };
      }
      throw new KeyExistsError(key);
    }
    return { revision: BigInt(res.header.revision) };
  }

  /**
   * A guarded put. An update whose outcome is unknown (the transaction may have been applied:
   * deadline, dropped connection after sending, leader change) is not retried and fails with
   * UnavailableError (503), as kube-apiserver's etcd3 store fails it: `GuaranteedUpdate` returns
   * the error of `OptimisticPut` unchanged, etcd's client retries a mutation only when it was
   * never sent, and the registry answers 5xx (kube: 500 with the etcd error's text). No check like
   * {@link create}'s is safe here: stored bytes of an update carry no fresh identity (another
   * writer may store equal bytes), and a retried guard fails on our own applied write.
   */
  async update(
    key: string,
    value: Uint8Array,
    expectedModRevision?: bigint,
    signal?: AbortSignal,
  ): Promise<WriteResult> {
    const wireKey = this.codec.encode(key);
    const res = await this.txn(
      'update',
      {
        compare: guard(wireKey, expectedModRevision),
        success: [{ request_put: { key: wireKey, value: frameValue(value) } }],
        failure: expectedModRevision === undefined ? [] : [{ request_range: { key: wireKey } }],
      },
      signal,
    );
    if (!res.succeeded) throw this.guardFailure(key, expectedModRevision, res);
    return { revision: BigInt(res.header.revision) };
  }

  /**
   * A guarded delete. Like {@link update}, one whose outcome is unknown fails with
   * UnavailableError (kube's `conditionalDelete` returns `OptimisticDelete`'s error unchanged): a
   * retry could not tell our applied delete from another client's.
   */
  async delete(key: string, expectedModRevision?: bigint, signal?: AbortSignal): Promise<DeleteResult> {
    const wireKey = this.codec.encode(key);
    const res = await this.txn(
      'delete',
      {
        compare: guard(wireKey, expectedModRevision),
        success: [{ request_delete_range: { key: wireKey, prev_kv: true } }],
        failure: expectedModRevision === undefined ? [] : [{ request_range: { key: wireKey } }],
      },
      signal,
    );
    if (!res.succeeded) throw this.guardFailure(key, expectedModRevision, res);
    const prev = res.responses[0].response_delete_range.prev_kvs[0];
    // The guard proved the key exists, and the delete ran in the same transaction.
    if (prev === undefined) throw new NotFoundError(key);
    return { revision: BigInt(res.header.revision), prev: this.codec.decodeKeyValue(prev) };
  }

  /** See {@link watchEtcd}. On a closed store the iteration ends at once, like pending watches. */
  watch(prefix: string, opts: WatchOptions): AsyncIterable<StoreEvent | StoreProgress> {
    return watchEtcd(
      {
        client: this.client,
        codec: this.codec,
        logger: this.logger,
        retryBudgetMs: this.watchRetryBudgetMs,
        closed: this.closed.signal,
      },
      prefix,
      opts,
    );
  }

  async compact(revision: bigint, signal?: AbortSignal): Promise<void> {
    this.checkOpen();
    await this.compaction.compact(revision, signal);
  }

  async close(): Promise<void> {
    if (this.closed.signal.aborted) return;
    this.closed.abort();
    this.client.close();
  }

  private guardFailure(key: string, expected: bigint | undefined, res: ITxnResponse): Error {
    if (expected === undefined) return new NotFoundError(key);
    const current = res.responses[0]?.response_range.kvs[0];
    if (current === undefined) return new NotFoundError(key);
    return new ConflictError(key, expected, this.codec.decodeKeyValue(current));
  }

  private txn(what: string, req: ITxnRequest, signal: AbortSignal | undefined): Promise<ITxnResponse> {
    this.checkOpen();
    return this.caller.run(what, () => this.client.kv.txn(req), { idempotent: false, signal });
  }

  private read(req: IRangeRequest, signal: AbortSignal | undefined): Promise<IRangeResponse> {
    this.checkOpen();
    return this.caller.run('range', () => this.client.kv.range(req), { idempotent: true, signal });
  }

  /** A range at `revision` (latest when undefined), translating etcd's revision errors. */
  private async readAt(
    req: IRangeRequest,
    revision: bigint | undefined,
    signal?: AbortSignal,
  ): Promise<IRangeResponse> {
    if (revision === undefined || revision <= 0n) return this.read(req, signal);
    try {
      return await this.read({ ...req, revision: revision.toString() }, signal);
    } catch (e) {
      if (isEtcdCompacted(e)) throw new CompactedError(revision, await this.compactedRevision(signal));
      if (isEtcdFutureRevision(e)) throw new RevisionTooNewError(revision, await this.currentRevision(signal));
      throw e;
    }
  }

  private checkOpen(): void {
    if (this.closed.signal.aborted) throw new UnavailableError('etcd store is closed');
  }
}

/** The transaction guard: the key's modRevision, or (unconditional) merely that the key exists. */
function guard(wireKey: Buffer, expected: bigint | undefined): ICompare[] {
  const exists: ICompare = {
    key: wireKey,
    target: CompareTarget.Create,
    result: CompareResult.Greater,
    create_revision: 0,
  };
  if (expected === undefined) return [exists];
  const matches: ICompare = {
    key: wireKey,
    target: CompareTarget.Mod,
    result: CompareResult.Equal,
    mod_revision: expected.toString(),
  };
  // An absent key has modRevision 0 in etcd's comparisons: guard against creating it.
  return expected > 0n ? [matches] : [matches, exists];
}
