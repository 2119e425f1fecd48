import { randomUUID } from 'node:crypto';
import type { ApiDomain } from '../apis/api-domain.js';
import type { Authorizer } from '../authz/index.js';
import { candidateIdentity } from '../client/leaderelection/leader-elected.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import { type Logger, silentLogger } from '../util/logger.js';
import { apiServerId } from './apiserver-identity/apiserver-id.js';
import { IdentityLeaseController } from './apiserver-identity/identity-lease-controller.js';
import { IdentityLeaseGc } from './apiserver-identity/identity-lease-gc.js';
import type { ControllerIdentity } from './controller-client.js';
import { errorText } from './controller-support.js';
import {
  COORDINATED_ELECTION_CONTROLLER_NAME,
  CoordinatedElectionController,
} from './leaderelection/coordinated-election-controller.js';
import { startLeaderElectedControllers } from './leaderelection/leader-elected-controllers.js';

export interface ApiServerControllersOptions {
  readonly resources: ResourceSet;
  readonly authorizer: Authorizer;
  /** The API server's own identity (kube: its loopback client, `system:apiserver`). */
  readonly identity: ControllerIdentity;
  readonly domain: ApiDomain;
  readonly hostname: string;
  /** `APIServerIdentity`: keep this server's identity Lease and collect expired ones. */
  readonly apiServerIdentity: boolean;
  /**
   * `CoordinatedLeaderElection` (with LeaseCandidates served): run the election controller, itself
   * leader-elected among the API servers.
   */
  readonly coordinatedLeaderElection: boolean;
  readonly logger?: Logger;
  /** Shorter periods for tests; kube's values otherwise. */
  readonly timings?: {
    readonly identityRenewIntervalMs?: number;
    readonly identityLeaseDurationSeconds?: number;
    readonly identityGcPeriodMs?: number;
  };
}

/** The API server's own controllers; `stop` ends them and waits. */
export interface RunningApiServerControllers {
  /** This server's identity (`apiserver-<hash>`), the name of its identity Lease. */
  readonly apiServerId: string;
  stop(): Promise<void>;
}

/**
 * The controllers kube-apiserver runs as post-start hooks that concern replicas: the identity
 * lease controller (`apiserver-<hash>` in the system namespace, renewed every 10 s, 3600 s
 * lease) and its garbage collector on every replica; with coordinated leader election, the
 * election controller on the replica that holds the `leader-election-controller` Lease
 * (15 s / 10 s / 2 s, kube's values).
 */
export function startApiServerControllers(o: ApiServerControllersOptions): RunningApiServerControllers {
  const lifetime = new AbortController();
  const signal = lifetime.signal;
  const logger = o.logger ?? silentLogger;
  const id = apiServerId(o.hostname, o.domain);
  const loops: Promise<void>[] = [];
  const report = (name: string) => (e: unknown) => {
    if (!signal.aborted) logger.error(`${name} stopped unexpectedly`, { error: errorText(e) });
  };
  if (o.apiServerIdentity) {
    const common = {
      resources: o.resources,
      authorizer: o.authorizer,
      identity: o.identity,
      domain: o.domain,
      signal,
      logger,
    };
    loops.push(
      new IdentityLeaseController({
        ...common,
        leaseName: id,
        holderIdentity: `${id}_${randomUUID()}`,
        hostname: o.hostname,
        renewIntervalMs: o.timings?.identityRenewIntervalMs,
        leaseDurationSeconds: o.timings?.identityLeaseDurationSeconds,
      })
        .run()
        .catch(report('identity lease controller')),
      new IdentityLeaseGc({ ...common, periodMs: o.timings?.identityGcPeriodMs })
        .run()
        .catch(report('identity lease garbage collector')),
    );
  }
  let election: ReturnType<typeof startLeaderElectedControllers> | undefined;
  if (o.coordinatedLeaderElection) {
    election = startLeaderElectedControllers({
      resources: o.resources,
      authorizer: o.authorizer,
      domain: o.domain,
      identity: o.identity,
      config: {
        leaderElect: true,
        leaseDuration: '15s',
        renewDeadline: '10s',
        retryPeriod: '2s',
        resourceLock: 'leases',
        resourceName: COORDINATED_ELECTION_CONTROLLER_NAME,
        resourceNamespace: o.domain.systemNamespace,
      },
      coordinated: false,
      binaryVersion: '',
      emulationVersion: '',
      candidate: candidateIdentity(o.hostname),
      signal,
      logger,
      start(leading) {
        const controller = new CoordinatedElectionController({
          resources: o.resources,
          authorizer: o.authorizer,
          identity: o.identity,
          domain: o.domain,
          signal: leading,
          logger,
        });
        const running = controller.run().catch(report('coordinated leader election controller'));
        return { stop: () => running };
      },
    });
  }
  return {
    apiServerId: id,
    async stop() {
      lifetime.abort();
      await election?.stop();
      await Promise.all(loops);
    },
  };
}
