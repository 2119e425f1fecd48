import type { ApiDomain } from '../../apis/api-domain.js';
import type { Lease } from '../../apis/coordination/lease.js';
import type { Authorizer } from '../../authz/index.js';
import { type ElectionClock, systemElectionClock } from '../../client/leaderelection/election-clock.js';
import type { ResourceSet } from '../../registry/resource-set/index.js';
import { formatMicroTime } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { ControllerClient, type ControllerIdentity } from '../controller-client.js';
import { errorText, isStatus } from '../controller-support.js';
import { identityLabel } from './apiserver-id.js';

/** kube-apiserver's `IdentityLeaseDurationSeconds`. */
export const IDENTITY_LEASE_DURATION_SECONDS = 3600;
/** kube-apiserver's `IdentityLeaseRenewIntervalPeriod`. */
export const IDENTITY_LEASE_RENEW_INTERVAL_MS = 10_000;
/** component-helpers' lease controller: immediate retries of a renewal before waiting a period. */
const MAX_UPDATE_RETRIES = 5;
const MAX_BACKOFF_MS = 7_000;

export interface IdentityLeaseControllerOptions {
  readonly resources: ResourceSet;
  readonly authorizer: Authorizer;
  /** Who writes the lease (kube: the API server's loopback client). */
  readonly identity: ControllerIdentity;
  readonly domain: ApiDomain;
  /** The lease name: the server's {@link apiServerId}. */
  readonly leaseName: string;
  /** `<lease name>_<uuid>`, new for every start. */
  readonly holderIdentity: string;
  /** Written as the `<domain>/hostname` label. */
  readonly hostname: string;
  readonly signal: AbortSignal;
  readonly leaseDurationSeconds?: number;
  readonly renewIntervalMs?: number;
  readonly clock?: ElectionClock;
  readonly logger?: Logger;
}

/**
 * kube-apiserver's identity lease controller (component-helpers' lease controller with the API
 * server's labels): keeps the Lease `<system namespace>/apiserver-<hash>` with this process as
 * holder, `leaseDurationSeconds` 3600, renewed every 10 s (jitter 4 %), labelled
 * `apiserver.<domain>/identity=<apiserver name>` and `<domain>/hostname=<host>`. A renewal first
 * updates the Lease last written (no read); on a conflict it reads it again; five failures in a
 * row wait for the next period. Creating retries with backoff up to 7 s.
 */
export class IdentityLeaseController {
  private readonly client: ControllerClient;
  private readonly clock: ElectionClock;
  private readonly logger: Logger;
  private latest: Lease | undefined;

  constructor(private readonly options: IdentityLeaseControllerOptions) {
    this.client = new ControllerClient(options.identity, options.authorizer);
    this.clock = options.clock ?? systemElectionClock;
    this.logger = options.logger ?? silentLogger;
  }

  private get served() {
    return this.options.resources.lookup(this.options.domain.group('coordination'), 'v1', 'leases');
  }

  private get namespace(): string {
    return this.options.domain.systemNamespace;
  }

  /** Renews until the signal aborts. */
  async run(): Promise<void> {
    const { signal } = this.options;
    const period = this.options.renewIntervalMs ?? IDENTITY_LEASE_RENEW_INTERVAL_MS;
    while (!signal.aborted) {
      await this.sync();
      await this.clock.sleep(period * (1 + Math.random() * 0.04), signal);
    }
  }

  /** One renewal (kube's `sync`). */
  async sync(): Promise<void> {
    if (this.latest) {
      try {
        await this.retryUpdate(this.latest);
        return;
      } catch (e) {
        this.logger.info('identity lease: failed to update lease using latest lease, fallback to ensure lease', {
          error: errorText(e),
        });
      }
    }
    const ensured = await this.backoffEnsure();
    if (!ensured) return;
    this.latest = ensured.lease;
    if (!ensured.created) {
      await this.retryUpdate(ensured.lease).catch((e) =>
        this.logger.warn('identity lease: will retry updating lease', { error: errorText(e) }),
      );
    }
  }

  /** The lease as this controller writes it: holder and duration when new, renewTime and labels always. */
  private desired(base: Lease | undefined): Lease {
    const { domain } = this.options;
    const lease: Lease = base
      ? structuredClone(base)
      : {
          apiVersion: `${domain.group('coordination')}/v1`,
          kind: 'Lease',
          metadata: { name: this.options.leaseName, namespace: this.namespace },
          spec: {
            holderIdentity: this.options.holderIdentity,
            leaseDurationSeconds: this.options.leaseDurationSeconds ?? IDENTITY_LEASE_DURATION_SECONDS,
          },
        };
    lease.spec = { ...lease.spec, renewTime: formatMicroTime(this.clock.now()) };
    lease.metadata.labels = {
      ...lease.metadata.labels,
      [identityLabel(domain)]: domain.apiServerManager,
      [domain.key('', 'hostname')]: this.options.hostname,
    };
    return lease;
  }

  private async retryUpdate(base: Lease): Promise<void> {
    const served = this.served;
    if (!served) throw new Error('leases are not served');
    let current = base;
    for (let i = 0; i < MAX_UPDATE_RETRIES; i++) {
      const next = this.desired(current);
      try {
        this.latest = (await this.client.update(
          served,
          { namespace: this.namespace, name: this.options.leaseName },
          { retryOnConflict: false, compute: () => next },
          this.options.signal,
        )) as Lease;
        return;
      } catch (e) {
        if (this.options.signal.aborted) throw e;
        this.logger.warn('identity lease: failed to update lease', { error: errorText(e) });
        if (isStatus(e, 409)) {
          const ensured = await this.backoffEnsure();
          if (!ensured) throw e;
          current = ensured.lease;
        }
      }
    }
    throw new Error(`failed ${MAX_UPDATE_RETRIES} attempts to update lease`);
  }

  /** Reads the lease, creating it when absent; retries with backoff. Undefined once aborted. */
  private async backoffEnsure(): Promise<{ lease: Lease; created: boolean } | undefined> {
    let sleep = 100;
    const { signal } = this.options;
    while (!signal.aborted) {
      try {
        return await this.ensure();
      } catch (e) {
        sleep = Math.min(2 * sleep, MAX_BACKOFF_MS);
        this.logger.warn('identity lease: failed to ensure lease exists, will retry', {
          error: errorText(e),
          intervalMs: sleep,
        });
        await this.clock.sleep(sleep, signal);
      }
    }
    return undefined;
  }

  private async ensure(): Promise<{ lease: Lease; created: boolean }> {
    const served = this.served;
    if (!served) throw new Error('leases are not served');
    try {
      const lease = (await this.client.get(
        served,
        { namespace: this.namespace, name: this.options.leaseName },
        this.options.signal,
      )) as Lease;
      return { lease, created: false };
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
    const lease = (await this.client.create(
      served,
      this.namespace,
      this.desired(undefined),
      this.options.signal,
    )) as Lease;
    return { lease, created: true };
  }
}
