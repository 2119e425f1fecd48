import type { Lease, LeaseSpec } from '../../apis/coordination/lease.js';
import type { NamespacedObjectClient } from './object-client.js';

/**
 * client-go's `LeaderElectionRecord`: what an election reads from and writes to its lock. Times
 * are MicroTime strings (RFC 3339 with microseconds); absent times are undefined.
 */
export interface LeaderElectionRecord {
  /** Empty when nobody holds the lock (after a release). */
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  readonly acquireTime?: string;
  readonly renewTime?: string;
  readonly leaderTransitions: number;
  /** Coordinated leader election: the strategy the election controller uses for this lease. */
  readonly strategy?: string;
  /** Coordinated leader election: a better holder; the current one should step down. */
  readonly preferredHolder?: string;
}

/** kube's `LeaseSpecToLeaderElectionRecord`: absent fields read as zero values. */
export function leaseSpecToRecord(spec: LeaseSpec | undefined): LeaderElectionRecord {
  const s = spec ?? {};
  return {
    holderIdentity: s.holderIdentity ?? '',
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    acquireTime: s.acquireTime,
    renewTime: s.renewTime,
    leaderTransitions: s.leaseTransitions ?? 0,
    strategy: s.strategy || undefined,
    preferredHolder: s.preferredHolder || undefined,
  };
}

/**
 * kube's `LeaderElectionRecordToLeaseSpec`: holder, duration and transitions are always written
 * (an empty holder included), times when set, strategy and preferred holder when not empty.
 */
export function recordToLeaseSpec(r: LeaderElectionRecord): LeaseSpec {
  const spec: LeaseSpec = { holderIdentity: r.holderIdentity, leaseDurationSeconds: r.leaseDurationSeconds };
  if (r.acquireTime) spec.acquireTime = r.acquireTime;
  if (r.renewTime) spec.renewTime = r.renewTime;
  spec.leaseTransitions = r.leaderTransitions;
  if (r.strategy) spec.strategy = r.strategy;
  if (r.preferredHolder) spec.preferredHolder = r.preferredHolder;
  return spec;
}

/**
 * The record as one comparable string. Observers compare it with what they saw last: only a
 * change of the record (a renewal writes a new `renewTime`) restarts their wait; their own clock
 * measures the wait, never the times written in the record (clock skew between candidates does
 * not matter).
 */
function rawRecord(r: LeaderElectionRecord): string {
  return JSON.stringify([
    r.holderIdentity,
    r.leaseDurationSeconds,
    r.acquireTime ?? null,
    r.renewTime ?? null,
    r.leaderTransitions,
    r.strategy ?? null,
    r.preferredHolder ?? null,
  ]);
}

export interface LeaseLockOptions {
  /** Leases of the lock's namespace. */
  readonly client: NamespacedObjectClient<Lease>;
  readonly name: string;
  /** This candidate's identity (kube: `<hostname>_<uuid>`). */
  readonly identity: string;
  /** `coordination.<domain>`: the apiVersion of the Leases created. */
  readonly group: string;
}

/**
 * client-go's `LeaseLock`: the election record kept in the spec of a `coordination/v1` Lease.
 * `update` replaces the spec of the Lease last read or written, with its resourceVersion as the
 * precondition, so a write based on a stale read fails with 409 instead of overwriting another
 * candidate's. Not safe for concurrent use (one election drives one lock).
 */
export class LeaseLock {
  private lease: Lease | undefined;

  constructor(private readonly options: LeaseLockOptions) {
    if (options.identity === '') throw new Error('Lock identity is empty');
  }

  get identity(): string {
    return this.options.identity;
  }

  /** `<namespace>/<name>`. */
  describe(): string {
    return `${this.options.client.namespace}/${this.options.name}`;
  }

  /**
   * The current record, and its comparable form.
   * @throws StatusError 404 when the Lease does not exist.
   */
  async get(signal: AbortSignal): Promise<{ record: LeaderElectionRecord; raw: string }> {
    this.lease = await this.options.client.get(this.options.name, signal);
    const record = leaseSpecToRecord(this.lease.spec);
    return { record, raw: rawRecord(record) };
  }

  /** Creates the Lease holding `record`. @throws StatusError 409 when it exists. */
  async create(record: LeaderElectionRecord, signal: AbortSignal): Promise<void> {
    this.lease = await this.options.client.create(
      {
        apiVersion: `${this.options.group}/v1`,
        kind: 'Lease',
        metadata: { name: this.options.name, namespace: this.options.client.namespace },
        spec: recordToLeaseSpec(record),
      },
      signal,
    );
  }

  /**
   * Replaces the spec of the Lease last seen with `record`.
   * @throws StatusError 409 when the Lease changed since; Error when it was never read.
   */
  async update(record: LeaderElectionRecord, signal: AbortSignal): Promise<void> {
    if (!this.lease) throw new Error('lease not initialized, call get or create first');
    const next: Lease = { ...this.lease, spec: recordToLeaseSpec(record) };
    this.lease = await this.options.client.update(next, signal);
  }

  /** The comparable form of a record (what {@link get} returns as `raw`). */
  static raw(record: LeaderElectionRecord): string {
    return rawRecord(record);
  }
}
