import type { LeaseCandidate } from '../../apis/coordination/lease-candidate.js';
import { formatMicroTime } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { errorText, isStatus } from '../client-support.js';
import { type ElectionClock, systemElectionClock } from './election-clock.js';
import type { NamespacedObjectClient } from './object-client.js';

/** client-go's candidate renews its LeaseCandidate every 5 minutes (and whenever pinged). */
const RENEW_INTERVAL_MS = 5 * 60_000;
/** How often the candidate looks for a ping; the election controller waits 5 s for answers. */
const PING_CHECK_INTERVAL_MS = 1_000;

export interface LeaseCandidateRenewerOptions {
  /** LeaseCandidates (`coordination.<domain>/v1alpha2`) of the candidate's namespace. */
  readonly client: NamespacedObjectClient<LeaseCandidate>;
  /** `coordination.<domain>`. */
  readonly group: string;
  /** The candidate's name: its identity in the election (the Lease's `holderIdentity` when elected). */
  readonly name: string;
  /** The Lease contended for. */
  readonly leaseName: string;
  readonly binaryVersion: string;
  /** Required with `OldestEmulationVersion`. */
  readonly emulationVersion?: string;
  readonly strategy: string;
  readonly clock?: ElectionClock;
  readonly logger?: Logger;
  readonly renewIntervalMs?: number;
  readonly pingCheckIntervalMs?: number;
}

/**
 * client-go's `LeaseCandidate` (v1.32): registers this process as a candidate for a Lease under
 * coordinated leader election, and keeps the registration alive: created when missing, renewed
 * (`renewTime`) every 5 minutes and as soon as the election controller pings it (`pingTime`
 * after `renewTime`). client-go learns of pings through an informer; this looks for them every
 * second with a GET, which works the same in process and over HTTP.
 */
export class LeaseCandidateRenewer {
  private readonly clock: ElectionClock;
  private readonly logger: Logger;
  private lastRenew = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: LeaseCandidateRenewerOptions) {
    const missing = (
      [
        ['CandidateName', options.name],
        ['TargetLease', options.leaseName],
        ['BinaryVersion', options.binaryVersion],
        ['Strategy', options.strategy],
      ] as const
    ).filter(([, v]) => v === '');
    if (missing.length > 0) throw new Error(`required ${missing[0][0]} config parameter is unset`);
    if (options.strategy === 'OldestEmulationVersion' && !options.emulationVersion) {
      throw new Error('required EmulationVersion config parameter is unset');
    }
    this.clock = options.clock ?? systemElectionClock;
    this.logger = options.logger ?? silentLogger;
  }

  /** Keeps the candidate registered until the signal aborts (the object is left to expire). */
  async run(signal: AbortSignal): Promise<void> {
    const period = this.options.pingCheckIntervalMs ?? PING_CHECK_INTERVAL_MS;
    while (!signal.aborted) {
      try {
        await this.sync(signal);
      } catch (e) {
        if (!signal.aborted)
          this.logger.warn('lease candidate: ensuring lease candidate failed', { error: errorText(e) });
      }
      await this.clock.sleep(period, signal);
    }
  }

  /** Creates the candidate, or renews it when pinged or due. Returns what it did. */
  async sync(signal: AbortSignal): Promise<'created' | 'renewed' | 'unchanged'> {
    const { client, name } = this.options;
    let current: LeaseCandidate;
    try {
      current = await client.get(name, signal);
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
      await client.create(this.newCandidate(), signal);
      this.lastRenew = this.clock.monotonicMs();
      this.logger.info('lease candidate: created', { candidate: name });
      return 'created';
    }
    const ping = Date.parse(current.spec?.pingTime ?? '');
    const renew = Date.parse(current.spec?.renewTime ?? '');
    const pinged = !Number.isNaN(ping) && (Number.isNaN(renew) || ping > renew);
    const due = this.clock.monotonicMs() - this.lastRenew >= (this.options.renewIntervalMs ?? RENEW_INTERVAL_MS);
    if (!pinged && !due) return 'unchanged';
    await client.update(
      { ...current, spec: { ...current.spec, renewTime: formatMicroTime(this.clock.now()) } },
      signal,
    );
    this.lastRenew = this.clock.monotonicMs();
    return 'renewed';
  }

  private newCandidate(): LeaseCandidate {
    const o = this.options;
    return {
      apiVersion: `${o.group}/v1alpha2`,
      kind: 'LeaseCandidate',
      metadata: { name: o.name, namespace: o.client.namespace },
      spec: {
        leaseName: o.leaseName,
        binaryVersion: o.binaryVersion,
        ...(o.emulationVersion ? { emulationVersion: o.emulationVersion } : {}),
        strategy: o.strategy,
        renewTime: formatMicroTime(this.clock.now()),
      },
    };
  }
}
