import { CompareResult, CompareTarget, type Etcd3, type ICompare, type IRequestOp, type IWatchResponse } from 'etcd3';
import { CompactedError, RevisionTooNewError, UnavailableError } from '../errors.js';
import type { EtcdCaller } from './etcd-client.js';
import { isEtcdCompacted } from './etcd-errors.js';
import { closeWatchStream } from './etcd-watch.js';

export interface EtcdCompactionDeps {
  readonly client: Etcd3;
  readonly caller: EtcdCaller;
  /** The coordination key on the wire (`<namespace><prefix>/compact_rev_key`). */
  readonly compactKey: Buffer;
  /** Bound on waiting for etcd to report its compacted revision on a probe watch. */
  readonly probeTimeoutMs: number;
  readonly currentRevision: (signal?: AbortSignal) => Promise<bigint>;
}

/**
 * Compaction against a shared etcd.
 *
 * Revision mapping: the Store contract says `compact(R)` makes reads at R fail, while etcd's
 * `Compact(M)` keeps M readable and fails reads below M. So `compact(R)` asks etcd to compact at
 * R + 1, and the Store's compacted revision is etcd's compacted revision minus one. R + 1 always
 * exists because compact(R) first writes the coordination key (a new revision above R).
 *
 * Coordination, as kube-apiserver does it: several servers may share one etcd, so before
 * compacting a server raises `compact_rev_key` with a compare-and-swap (value = the revision,
 * zero-padded so etcd's byte-wise value comparison orders it numerically). Only a server that
 * raises the key compacts; one that finds a revision at or above its own is told CompactedError,
 * exactly as if etcd had refused a second compaction.
 */
export class EtcdCompaction {
  constructor(private readonly deps: EtcdCompactionDeps) {}

  async compact(revision: bigint, signal?: AbortSignal): Promise<void> {
    if (revision <= 0n) throw new CompactedError(revision, await this.compactedRevision(signal));
    const current = await this.deps.currentRevision(signal);
    if (revision > current) throw new RevisionTooNewError(revision, current);
    const claimed = await this.claim(revision, signal);
    if (claimed !== undefined) throw new CompactedError(revision, claimed);
    const etcdRevision = (revision + 1n).toString();
    try {
      await this.deps.caller.run(
        'compact',
        () => this.deps.client.kv.compact({ revision: etcdRevision, physical: false }),
        {
          idempotent: true,
          signal,
        },
      );
    } catch (e) {
      if (isEtcdCompacted(e)) throw new CompactedError(revision, await this.compactedRevision(signal));
      throw e;
    }
  }

  /**
   * The Store's compacted revision as etcd enforces it, also after compactions made by other
   * servers or tools (`etcdctl compact`, etcd's auto-compaction). Costs two or three small
   * reads, plus a short probe watch when someone else compacted beyond the coordination key.
   */
  async compactedRevision(signal?: AbortSignal): Promise<bigint> {
    const claimed = await this.readClaim(signal);
    if (await this.isCompactedAt(claimed + 1n, signal))
      return (await this.probeEtcdCompaction(claimed + 1n, signal)) - 1n;
    if (claimed === 0n || (await this.isCompactedAt(claimed, signal))) return claimed;
    // A server raised the key but died before compacting: etcd's compaction is lower.
    if (!(await this.isCompactedAt(1n, signal))) return 0n;
    return (await this.probeEtcdCompaction(1n, signal)) - 1n;
  }

  /** Raises the key to `revision`; returns the higher revision found instead, if any. */
  private async claim(revision: bigint, signal?: AbortSignal): Promise<bigint | undefined> {
    const { client, compactKey } = this.deps;
    const value = Buffer.from(padRevision(revision));
    const put: IRequestOp = { request_put: { key: compactKey, value } };
    const absent: ICompare = {
      key: compactKey,
      target: CompareTarget.Create,
      result: CompareResult.Equal,
      create_revision: 0,
    };
    const higher: ICompare = { key: compactKey, target: CompareTarget.Value, result: CompareResult.Greater, value };
    // Equal counts as raised, so a retry after an ambiguous failure of our own write still wins.
    const res = await this.deps.caller.run(
      'compaction claim',
      () =>
        client.kv.txn({
          compare: [absent],
          success: [put],
          failure: [
            { request_txn: { compare: [higher], success: [{ request_range: { key: compactKey } }], failure: [put] } },
          ],
        }),
      { idempotent: true, signal },
    );
    if (res.succeeded) return undefined;
    const inner = res.responses[0].response_txn;
    if (!inner.succeeded) return undefined;
    return parseRevision(inner.responses[0].response_range.kvs[0]?.value);
  }

  private async readClaim(signal?: AbortSignal): Promise<bigint> {
    const { client, compactKey } = this.deps;
    const res = await this.deps.caller.run('range', () => client.kv.range({ key: compactKey }), {
      idempotent: true,
      signal,
    });
    return parseRevision(res.kvs[0]?.value);
  }

  private async isCompactedAt(etcdRevision: bigint, signal?: AbortSignal): Promise<boolean> {
    const { client, compactKey } = this.deps;
    try {
      await this.deps.caller.run(
        'range',
        () => client.kv.range({ key: compactKey, revision: etcdRevision.toString(), count_only: true }),
        { idempotent: true, signal },
      );
      return false;
    } catch (e) {
      if (isEtcdCompacted(e)) return true;
      throw e;
    }
  }

  /**
   * etcd's compacted revision, learnt from a watch starting at `start`, which the caller knows to
   * be compacted: etcd cancels such a watch reporting its compacted revision.
   */
  private async probeEtcdCompaction(start: bigint, signal?: AbortSignal): Promise<bigint> {
    const { client, compactKey, probeTimeoutMs } = this.deps;
    return this.deps.caller.run(
      'compaction probe',
      async () => {
        const stream = await client.watchClient.watch();
        try {
          return await new Promise<bigint>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new UnavailableError('etcd did not report its compacted revision in time')),
              probeTimeoutMs,
            );
            const settle = (fn: () => void) => {
              clearTimeout(timer);
              fn();
            };
            stream.on('data', (res: IWatchResponse) => {
              if (!res.canceled) return;
              const compacted = BigInt(res.compact_revision || '0');
              if (compacted > 0n) settle(() => resolve(compacted));
              else settle(() => reject(new UnavailableError(`probe watch canceled: ${res.cancel_reason}`)));
            });
            stream.on('error', (e: Error) => settle(() => reject(e)));
            stream.on('end', () => settle(() => reject(new UnavailableError('probe watch stream ended'))));
            stream.write({ create_request: { key: compactKey, start_revision: start.toString() } });
          });
        } finally {
          closeWatchStream(stream);
        }
      },
      { idempotent: true, signal },
    );
  }
}

function padRevision(revision: bigint): string {
  return revision.toString().padStart(20, '0');
}

function parseRevision(value: Buffer | undefined): bigint {
  if (value === undefined) return 0n;
  const text = value.toString('latin1');
  return /^\d{1,20}$/.test(text) ? BigInt(text) : 0n;
}
