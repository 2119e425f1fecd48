import type { ApiDomain } from '../../apis/api-domain.js';
import type { Lease } from '../../apis/coordination/lease.js';
import { type LeaseCandidate, OLDEST_EMULATION_VERSION } from '../../apis/coordination/lease-candidate.js';
import type { ApiObject } from '../../apis/object.js';
import type { Authorizer } from '../../authz/index.js';
import { ResourceInformer } from '../../client/informer/resource-informer.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ResourceSet, ServedResource } from '../../registry/resource-set/index.js';
import { type Clock, formatMicroTime, systemClock } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { ControllerClient, type ControllerIdentity } from '../controller-client.js';
import { errorText, isStatus, timeMs } from '../controller-support.js';
import { inProcessResourceClient } from '../in-process-api-client.js';
import {
  isLeaseCandidateExpired,
  isLeaseExpired,
  LEASE_CANDIDATE_VALID_MS,
  pickBestLeaderOldestEmulationVersion,
  pickBestStrategy,
} from './election.js';

/** kube's controller name (its lease, when it is itself leader-elected among API servers). */
export const COORDINATED_ELECTION_CONTROLLER_NAME = 'leader-election-controller';

/** kube v1.32's timings: candidates have 5 s to answer a ping; leases it grants last 5 s. */
const ELECTION_DURATION_MS = 5_000;
const REQUEUE_MS = 5_000;
const GRANTED_LEASE_DURATION_SECONDS = 5;

export interface CoordinatedElectionControllerOptions {
  readonly resources: ResourceSet;
  readonly authorizer: Authorizer;
  /** Who the controller writes as (kube: the API server's loopback client). */
  readonly identity: ControllerIdentity;
  readonly domain: ApiDomain;
  readonly signal: AbortSignal;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** How long candidates have to answer a ping (default 5 s). */
  readonly electionDurationMs?: number;
  /** Re-check of a lease after a step (default 5 s). */
  readonly requeueMs?: number;
  /** How often expired candidates are deleted (default 30 min). */
  readonly candidateGcPeriodMs?: number;
}

type Step = number | undefined;

/**
 * kube v1.32's coordinated leader election controller, in process: for every Lease that
 * LeaseCandidates name, it elects the best candidate by the strategy they advertise and writes
 * it as the Lease's holder. An election first pings the candidates (sets `pingTime`) when any has
 * not renewed recently, waits for their answers (`renewTime`) for the election duration, then
 * picks among those that answered. A free or expired Lease gets the electee as holder (duration
 * 5 s, the holder renews it from then on); a Lease held by another gets `preferredHolder`, and
 * its holder steps down. Only `OldestEmulationVersion` is elected here; Leases of other
 * strategies are left to other controllers. It also deletes candidates that have not renewed for
 * 30 minutes (kube's lease candidate GC).
 */
export class CoordinatedElectionController {
  private readonly client: ControllerClient;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly queue: WorkQueue<string>;
  private readonly leases: ResourceInformer;
  private readonly candidates: ResourceInformer;
  private readonly leaseServed: ServedResource;
  private readonly candidateServed: ServedResource;

  constructor(private readonly options: CoordinatedElectionControllerOptions) {
    const group = options.domain.group('coordination');
    const leases = options.resources.lookup(group, 'v1', 'leases');
    const candidates = options.resources.lookup(group, 'v1alpha2', 'leasecandidates');
    if (!leases || !candidates)
      throw new Error(`${group}/v1 leases and ${group}/v1alpha2 leasecandidates must be served`);
    this.leaseServed = leases;
    this.candidateServed = candidates;
    this.client = new ControllerClient(options.identity, options.authorizer);
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.queue = new WorkQueue<string>({ signal: options.signal, maxRetryDelayMs: 5_000 });
    const informer = (served: ServedResource) =>
      new ResourceInformer({
        client: inProcessResourceClient(served, this.client),
        logger: this.logger,
        signal: options.signal,
      });
    this.leases = informer(leases);
    this.candidates = informer(candidates);
    const onLease = (l: ApiObject) => this.queue.add(`${l.metadata.namespace}/${l.metadata.name}`);
    this.leases.addHandlers({ onAdd: onLease, onUpdate: (_, l) => onLease(l), onDelete: onLease });
    const onCandidate = (c: ApiObject) => {
      const leaseName = (c as LeaseCandidate).spec?.leaseName;
      if (leaseName) this.queue.add(`${c.metadata.namespace}/${leaseName}`);
    };
    this.candidates.addHandlers({ onAdd: onCandidate, onUpdate: (_, c) => onCandidate(c), onDelete: onCandidate });
  }

  private get electionMs(): number {
    return this.options.electionDurationMs ?? ELECTION_DURATION_MS;
  }

  private get requeueMs(): number {
    return this.options.requeueMs ?? REQUEUE_MS;
  }

  /** Runs until the signal aborts. */
  async run(): Promise<void> {
    this.leases.start();
    this.candidates.start();
    await Promise.all([this.leases.synced(), this.candidates.synced()]);
    const gc = this.runCandidateGc();
    await this.queue.run(
      async (key) => {
        const requeue = await this.reconcile(key);
        if (requeue !== undefined) this.queue.addAfter(key, requeue);
      },
      {
        onError: (key, e) => this.logger.warn('coordinated election: step failed', { lease: key, error: errorText(e) }),
      },
    );
    await gc;
    await Promise.all([this.leases.stopped(), this.candidates.stopped()]);
  }

  private admissible(namespace: string, leaseName: string, now: number): LeaseCandidate[] {
    return (this.candidates.list(namespace) as LeaseCandidate[]).filter(
      (c) => c.spec?.leaseName === leaseName && !isLeaseCandidateExpired(c, now),
    );
  }

  /** kube's `electionNeeded`. */
  private electionNeeded(candidates: LeaseCandidate[], lease: Lease | undefined, now: number): boolean {
    if (!lease || isLeaseExpired(lease, now) || !lease.spec?.holderIdentity) return true;
    // Every 15 minutes an election refreshes every candidate (they are collected after 30).
    if (candidates.some((c) => (timeMs(c.spec?.renewTime) ?? now) + LEASE_CANDIDATE_VALID_MS / 2 < now)) return true;
    const strategy = pickBestStrategy(candidates);
    if ('error' in strategy) throw new Error(strategy.error);
    if (strategy.strategy !== OLDEST_EMULATION_VERSION) return false;
    const electee = pickBestLeaderOldestEmulationVersion(candidates);
    return electee !== undefined && electee.metadata.name !== lease.spec.holderIdentity;
  }

  /** One step of the election of `<namespace>/<lease>`; returns when to look again. */
  async reconcile(key: string): Promise<Step> {
    const [namespace, name] = key.split('/');
    const now = this.clock.now().getTime();
    const candidates = this.admissible(namespace, name, now);
    if (candidates.length === 0) return undefined;
    const lease = this.leases.get(namespace, name) as Lease | undefined;
    // Not needed now, but a holder that stops renewing sends no event: look again later.
    if (!this.electionNeeded(candidates, lease, now)) return this.requeueMs;

    // Ping: candidates that have not renewed within the election duration must answer first.
    const pinged = candidates.filter((c) => timeMs(c.spec?.pingTime) !== undefined);
    const waiting = pinged.filter((c) => {
      const ping = timeMs(c.spec?.pingTime)!;
      return ping + this.electionMs > now && (timeMs(c.spec?.renewTime) ?? 0) < ping;
    });
    if (waiting.length > 0) return this.electionMs;
    if (pinged.length === 0) {
      const stale = candidates.filter((c) => (timeMs(c.spec?.renewTime) ?? 0) + this.electionMs < now);
      if (stale.length > 0) {
        for (const c of candidates) await this.setPingTime(c, formatMicroTime(new Date(now)));
        return this.electionMs;
      }
    } else {
      // The election window is over: clear the pings (answered or not) and vote.
      for (const c of pinged) await this.setPingTime(c, undefined);
    }

    const acked = candidates.filter((c) => (timeMs(c.spec?.renewTime) ?? 0) + this.electionMs > now);
    if (acked.length === 0) throw new Error('no available candidates');
    const chosen = pickBestStrategy(acked);
    if ('error' in chosen) throw new Error(chosen.error);
    if (chosen.strategy !== OLDEST_EMULATION_VERSION) {
      this.logger.info('coordinated election: strategy is not handled here', { lease: key, strategy: chosen.strategy });
      return undefined;
    }
    const electee = pickBestLeaderOldestEmulationVersion(acked);
    if (!electee) throw new Error('should not happen, could not find suitable electee');
    await this.grant(namespace, name, electee.metadata.name ?? '', chosen.strategy);
    return this.requeueMs;
  }

  private async setPingTime(c: LeaseCandidate, pingTime: string | undefined): Promise<void> {
    await this.client
      .update(
        this.candidateServed,
        { namespace: c.metadata.namespace ?? '', name: c.metadata.name ?? '' },
        {
          retryOnConflict: true,
          compute: (live) => {
            if (!live) throw new Error('candidate is gone');
            const spec = { ...(live as LeaseCandidate).spec };
            if (pingTime) spec.pingTime = pingTime;
            else delete spec.pingTime;
            return { ...live, spec };
          },
        },
        this.options.signal,
      )
      .catch((e) => {
        if (!isStatus(e, 404) && errorText(e) !== 'candidate is gone') throw e;
      });
  }

  /** Makes `electee` the holder of a free or expired Lease, or its preferred holder otherwise. */
  private async grant(namespace: string, name: string, electee: string, strategy: string): Promise<void> {
    const renewTime = formatMicroTime(this.clock.now());
    try {
      await this.client.create(
        this.leaseServed,
        namespace,
        {
          apiVersion: `${this.options.domain.group('coordination')}/v1`,
          kind: 'Lease',
          metadata: { name, namespace },
          spec: { holderIdentity: electee, strategy, leaseDurationSeconds: GRANTED_LEASE_DURATION_SECONDS, renewTime },
        },
        this.options.signal,
      );
      this.logger.info('coordinated election: created lease', { lease: `${namespace}/${name}`, holder: electee });
      return;
    } catch (e) {
      if (!isStatus(e, 409)) throw e;
    }
    const existing = (await this.client.get(this.leaseServed, { namespace, name }, this.options.signal)) as Lease;
    const spec = { ...existing.spec };
    const holder = spec.holderIdentity ?? '';
    if (holder === '' || (isLeaseExpired(existing, this.clock.now().getTime()) && holder !== electee)) {
      this.logger.info('coordinated election: lease is free or expired, setting holder', {
        lease: `${namespace}/${name}`,
        holder: electee,
      });
      spec.strategy = strategy;
      delete spec.preferredHolder;
      delete spec.acquireTime;
      spec.holderIdentity = electee;
      spec.renewTime = renewTime;
      spec.leaseDurationSeconds = GRANTED_LEASE_DURATION_SECONDS;
    } else if (holder !== electee) {
      if (spec.preferredHolder === electee && spec.strategy === strategy) return;
      this.logger.info('coordinated election: lease held by another, marking preferredHolder', {
        lease: `${namespace}/${name}`,
        holder,
        preferredHolder: electee,
      });
      spec.preferredHolder = electee;
      spec.strategy = strategy;
    } else return;
    await this.client.update(
      this.leaseServed,
      { namespace, name },
      { retryOnConflict: false, compute: () => ({ ...existing, spec }) },
      this.options.signal,
    );
  }

  /** kube's lease candidate GC: deletes candidates that have not renewed for 30 minutes. */
  private async runCandidateGc(): Promise<void> {
    const { signal } = this.options;
    const period = this.options.candidateGcPeriodMs ?? LEASE_CANDIDATE_VALID_MS;
    while (!signal.aborted) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, period);
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            resolve();
          },
          { once: true },
        );
      });
      if (signal.aborted) return;
      const now = this.clock.now().getTime();
      for (const c of this.candidates.list() as LeaseCandidate[]) {
        if (!isLeaseCandidateExpired(c, now)) continue;
        await this.client
          .delete(
            this.candidateServed,
            { namespace: c.metadata.namespace ?? '', name: c.metadata.name ?? '' },
            // A candidate that renewed since it was cached is kept (409).
            { preconditions: { uid: c.metadata.uid, resourceVersion: c.metadata.resourceVersion } },
            signal,
          )
          .then(() =>
            this.logger.info('coordinated election: deleted expired candidate', { candidate: c.metadata.name }),
          )
          .catch((e) => {
            if (!isStatus(e, 404) && !isStatus(e, 409)) {
              this.logger.warn('coordinated election: candidate gc failed', { error: errorText(e) });
            }
          });
      }
    }
  }
}
