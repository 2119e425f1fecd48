import type { ApiDomain } from '../../apis/api-domain.js';
import type { Lease } from '../../apis/coordination/lease.js';
import type { LeaseCandidate } from '../../apis/coordination/lease-candidate.js';
import type { Authorizer } from '../../authz/index.js';
import type { ElectionClock } from '../../client/leaderelection/election-clock.js';
import { candidateIdentity, runLeaderElected } from '../../client/leaderelection/leader-elected.js';
import {
  type LeaderElectionConfiguration,
  leaderElectionTimings,
} from '../../client/leaderelection/leader-election-configuration.js';
import type { LeaderElector } from '../../client/leaderelection/leader-elector.js';
import { LeaseCandidateRenewer } from '../../client/leaderelection/lease-candidate-renewer.js';
import { LeaseLock } from '../../client/leaderelection/lease-lock.js';
import type { ResourceSet } from '../../registry/resource-set/index.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { ControllerClient, type ControllerIdentity } from '../controller-client.js';
import { controllerObjectClient } from './controller-object-client.js';

/** Controllers that can be stopped. */
export interface StoppableWork {
  stop(): Promise<void>;
}

export interface LeaderElectedControllersOptions {
  readonly resources: ResourceSet;
  readonly authorizer: Authorizer;
  readonly domain: ApiDomain;
  /** Who campaigns (kube-controller-manager's own user, `system:<product>-controller-manager`). */
  readonly identity: ControllerIdentity;
  /** Validated by the caller; `leaderElect: false` starts the work at once. */
  readonly config: LeaderElectionConfiguration;
  /** Coordinated leader election (the `CoordinatedLeaderElection` gate, with LeaseCandidates served). */
  readonly coordinated: boolean;
  /** Advertised in the LeaseCandidate (semantic versions). */
  readonly binaryVersion: string;
  readonly emulationVersion: string;
  /** The candidate's identity; default `<hostname>_<uuid>`. */
  readonly candidate?: string;
  readonly signal: AbortSignal;
  readonly logger?: Logger;
  readonly clock?: ElectionClock;
  /** Starts the work while leading; it stops when `leading` aborts or `stop()` is called. */
  start(leading: AbortSignal): StoppableWork;
}

/** Leader-elected work in progress. */
export interface LeaderElectedControllers {
  /** Undefined when leader election is off. */
  readonly elector?: LeaderElector;
  /** Stops campaigning: the work stops first, then the lease is released. */
  stop(): Promise<void>;
}

/**
 * kube-controller-manager's `--leader-elect` for the controllers an API server runs: the work
 * runs only while this process holds the Lease `<resourceNamespace>/<resourceName>`, written
 * through the registries as the controller manager's user. A term that ends (renewal failed,
 * another candidate preferred) stops the work, and the process campaigns again. With the lease
 * released on stop, a restarted or other replica takes over at its next attempt. With
 * coordination the process also keeps a LeaseCandidate and leads only when elected.
 */
export function startLeaderElectedControllers(o: LeaderElectedControllersOptions): LeaderElectedControllers {
  const lifetime = new AbortController();
  const onAbort = () => lifetime.abort();
  o.signal.addEventListener('abort', onAbort, { once: true });
  if (o.signal.aborted) lifetime.abort();
  if (!o.config.leaderElect) {
    const work = o.start(lifetime.signal);
    return {
      async stop() {
        lifetime.abort();
        o.signal.removeEventListener('abort', onAbort);
        await work.stop();
      },
    };
  }
  const group = o.domain.group('coordination');
  const leases = o.resources.lookup(group, 'v1', 'leases');
  if (!leases) throw new Error(`leader election needs ${group}/v1 leases to be served`);
  const client = new ControllerClient(o.identity, o.authorizer);
  const identity = o.candidate ?? candidateIdentity();
  const logger = o.logger ?? silentLogger;
  const namespace = o.config.resourceNamespace;
  let candidate: LeaseCandidateRenewer | undefined;
  const candidates = o.resources.lookup(group, 'v1alpha2', 'leasecandidates');
  if (o.coordinated && candidates) {
    candidate = new LeaseCandidateRenewer({
      client: controllerObjectClient<LeaseCandidate>(client, candidates, namespace),
      group,
      name: identity,
      leaseName: o.config.resourceName,
      binaryVersion: o.binaryVersion,
      emulationVersion: o.emulationVersion,
      strategy: 'OldestEmulationVersion',
      clock: o.clock,
      logger,
    });
  }
  const run = runLeaderElected({
    ...leaderElectionTimings(o.config),
    lock: new LeaseLock({
      client: controllerObjectClient<Lease>(client, leases, namespace),
      name: o.config.resourceName,
      identity,
      group,
    }),
    name: `${namespace}/${o.config.resourceName}`,
    releaseOnCancel: true,
    coordinated: candidate !== undefined,
    candidate,
    clock: o.clock,
    logger,
    signal: lifetime.signal,
    start: (leading) => o.start(leading),
    onNewLeader: (holder) => logger.info('leader election: new leader', { lease: o.config.resourceName, holder }),
  });
  return {
    elector: run.elector,
    async stop() {
      lifetime.abort();
      o.signal.removeEventListener('abort', onAbort);
      await run.done;
    },
  };
}
