import { hostname as osHostname } from 'node:os';
import type { ApiDomain } from '../apis/api-domain.js';
import { formatFieldError } from '../apis/meta/field-error.js';
import type { Authorizer } from '../authz/index.js';
import { candidateIdentity } from '../client/leaderelection/leader-elected.js';
import {
  defaultLeaderElectionConfiguration,
  LeaderElectionConfigError,
  type LeaderElectionConfiguration,
  validateLeaderElectionConfiguration,
} from '../client/leaderelection/leader-election-configuration.js';
import { startApiServerControllers } from '../controllers/apiserver-controllers.js';
import { frozenUser, informerIdentity } from '../controllers/controller-client.js';
import { startControllers } from '../controllers/index.js';
import { startLeaderElectedControllers } from '../controllers/leaderelection/leader-elected-controllers.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import type { Logger } from '../util/logger.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';
import { versionInfo } from './version.js';

/**
 * The leader election of the in-process controllers: kube-controller-manager's defaults (lease
 * `<system namespace>/<product>-controller-manager`) with `overrides` on top.
 * @throws LeaderElectionConfigError listing every problem, under `leaderElection.`.
 */
export function controllerLeaderElection(
  domain: ApiDomain,
  overrides: Partial<LeaderElectionConfiguration> = {},
): LeaderElectionConfiguration {
  const config = {
    ...defaultLeaderElectionConfiguration({ name: domain.controllerManagerName, namespace: domain.systemNamespace }),
    ...overrides,
  };
  const errs = validateLeaderElectionConfiguration(config);
  if (errs.length > 0) throw new LeaderElectionConfigError(errs.map(formatFieldError));
  return config;
}

export interface ReplicaControllersOptions {
  readonly resources: ResourceSet;
  readonly authorizer: Authorizer;
  readonly domain: ApiDomain;
  readonly logger: Logger;
  /** Run the in-process controllers (garbage collector, namespace, ...) at all. */
  readonly runControllers: boolean;
  readonly leaderElection: LeaderElectionConfiguration;
  readonly coordinatedLeaderElection: boolean;
  readonly apiServerIdentity: boolean;
  /** The host name in the API server identity; default the machine's. */
  readonly hostname?: string;
  /** Stops everything when it aborts, without waiting (`stop()` waits). */
  readonly signal: AbortSignal;
}

/** What {@link startReplicaControllers} started. */
export interface ReplicaControllers {
  /** This server's identity Lease name (`apiserver-<hash>`). */
  readonly apiServerId: string;
  /** Stops the controllers, releases the controllers' Lease, stops the identity lease loops. */
  stop(): Promise<void>;
}

/**
 * What makes this process one replica among several on a shared store: its identity Lease and
 * the collector of expired ones, the coordinated election controller when that gate is on, and
 * the in-process controllers, leader-elected unless `leaderElect` is false.
 */
export function startReplicaControllers(o: ReplicaControllersOptions): ReplicaControllers {
  const apiServer = { user: frozenUser(API_SERVER_USER), manager: o.domain.apiServerManager };
  const group = o.domain.group('coordination');
  const candidatesServed = o.resources.lookup(group, 'v1alpha2', 'leasecandidates') !== undefined;
  if (o.coordinatedLeaderElection && !candidatesServed) {
    o.logger.warn(
      `CoordinatedLeaderElection is enabled but ${group}/v1alpha2 is not: enable it with --runtime-config=${group}/v1alpha2=true; leader election is not coordinated`,
    );
  }
  const coordinated = o.coordinatedLeaderElection && candidatesServed;
  const host = o.hostname ?? osHostname();
  const own = startApiServerControllers({
    resources: o.resources,
    authorizer: o.authorizer,
    identity: apiServer,
    domain: o.domain,
    hostname: host,
    apiServerIdentity: o.apiServerIdentity,
    coordinatedLeaderElection: coordinated,
    logger: o.logger,
  });
  const stopSignal = new AbortController();
  o.signal.addEventListener(
    'abort',
    () => {
      stopSignal.abort();
      void own.stop();
    },
    { once: true },
  );
  const version = versionInfo();
  const controllers = o.runControllers
    ? startLeaderElectedControllers({
        resources: o.resources,
        authorizer: o.authorizer,
        domain: o.domain,
        identity: informerIdentity(o.domain),
        config: o.leaderElection,
        coordinated,
        binaryVersion: `${version.major}.${version.minor}.0`,
        emulationVersion: `${version.major}.${version.minor}.0`,
        candidate: candidateIdentity(host),
        signal: stopSignal.signal,
        logger: o.logger,
        start: (leading) =>
          startControllers({
            resources: o.resources,
            authorizer: o.authorizer,
            logger: o.logger,
            signal: leading,
            domain: o.domain,
          }),
      })
    : undefined;
  return {
    apiServerId: own.apiServerId,
    async stop() {
      stopSignal.abort();
      await controllers?.stop();
      await own.stop();
    },
  };
}
