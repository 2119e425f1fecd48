import type { ApiDomain } from '../../apis/api-domain.js';
import type { Lease } from '../../apis/coordination/lease.js';
import type { Authorizer } from '../../authz/index.js';
import { type ElectionClock, systemElectionClock } from '../../client/leaderelection/election-clock.js';
import type { ResourceSet } from '../../registry/resource-set/index.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { ControllerClient, type ControllerIdentity } from '../controller-client.js';
import { errorText, isStatus } from '../controller-support.js';
import { identityLeaseSelector } from './apiserver-id.js';

/** kube-apiserver's `IdentityLeaseGCPeriod`. */
export const IDENTITY_LEASE_GC_PERIOD_MS = 3_600_000;

/**
 * kube's `isLeaseExpired` for identity leases: no renewTime or duration (invalid, collected), or
 * renewTime + duration before now (by the server's clock).
 */
export function isLeaseExpired(lease: Lease, now: Date): boolean {
  const { renewTime, leaseDurationSeconds } = lease.spec ?? {};
  if (!renewTime || leaseDurationSeconds === undefined) return true;
  return Date.parse(renewTime) + leaseDurationSeconds * 1000 < now.getTime();
}

export interface IdentityLeaseGcOptions {
  readonly resources: ResourceSet;
  readonly authorizer: Authorizer;
  readonly identity: ControllerIdentity;
  readonly domain: ApiDomain;
  readonly signal: AbortSignal;
  readonly periodMs?: number;
  readonly clock?: ElectionClock;
  readonly logger?: Logger;
}

/**
 * kube-apiserver's `apiserverleasegc` controller: every period, the identity leases of the API
 * servers (`apiserver.<domain>/identity=<apiserver name>` in the system namespace) that have
 * expired are read again and deleted if still expired. Every replica runs it; a lease another
 * replica deleted first is not an error.
 */
export class IdentityLeaseGc {
  private readonly client: ControllerClient;
  private readonly clock: ElectionClock;
  private readonly logger: Logger;

  constructor(private readonly options: IdentityLeaseGcOptions) {
    this.client = new ControllerClient(options.identity, options.authorizer);
    this.clock = options.clock ?? systemElectionClock;
    this.logger = options.logger ?? silentLogger;
  }

  async run(): Promise<void> {
    const { signal } = this.options;
    while (!signal.aborted) {
      await this.gc().catch((e) => {
        if (!signal.aborted) this.logger.error('identity lease gc: failed', { error: errorText(e) });
      });
      await this.clock.sleep(this.options.periodMs ?? IDENTITY_LEASE_GC_PERIOD_MS, signal);
    }
  }

  /** One pass; returns the names deleted. */
  async gc(): Promise<string[]> {
    const { domain, signal } = this.options;
    const served = this.options.resources.lookup(domain.group('coordination'), 'v1', 'leases');
    if (!served) return [];
    const namespace = domain.systemNamespace;
    const list = await this.client.list(served, namespace, { labelSelector: identityLeaseSelector(domain) }, signal);
    const deleted: string[] = [];
    for (const item of list.items as Lease[]) {
      if (!isLeaseExpired(item, this.clock.now())) continue;
      const name = item.metadata.name ?? '';
      let fresh: Lease;
      try {
        fresh = (await this.client.get(served, { namespace, name }, signal)) as Lease;
      } catch (e) {
        if (!isStatus(e, 404)) this.logger.error('identity lease gc: error getting lease', { error: errorText(e) });
        continue;
      }
      if (!isLeaseExpired(fresh, this.clock.now())) continue;
      try {
        await this.client.delete(served, { namespace, name }, {}, signal);
        deleted.push(name);
        this.logger.info('identity lease gc: deleted expired lease', { lease: name });
      } catch (e) {
        if (!isStatus(e, 404)) this.logger.error('identity lease gc: error deleting lease', { error: errorText(e) });
      }
    }
    return deleted;
  }
}
