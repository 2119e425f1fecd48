import { Registry } from 'prom-client';
import type { ApiDomain } from '../apis/api-domain.js';
import type { ApiClient } from '../client/api/api-client.js';
import type { ControllerDescriptor } from '../controllers/controller-descriptor.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import { configMembersOf, genericTimings } from './config/config-members.js';
import type {
  CloudControllerManagerConfiguration,
  GenericControllerManagerConfiguration,
  OrchControllerManagerConfiguration,
} from './config/types.js';
import { startControllerManager } from './controller-manager.js';
import { assignMigration, leaderMigrationEnabled } from './leader-migration-config.js';
import { type ControllerManagerServer, startControllerManagerServer } from './serving/controller-manager-server.js';
import type { HealthCheck } from './serving/healthz.js';
import type { ServingCertificate } from './serving/self-signed-certificate.js';

/** How the process reaches the API server. */
export interface ApiConnection {
  /** The component's own client (informers), connected. */
  readonly root: ApiClient;
  /** The component's client for leader election alone (its own rate limit). */
  readonly election: ApiClient;
  /**
   * The client a controller acts as with `UseServiceAccountCredentials`: its service account
   * in the system namespace, with a token the API server issued (kept fresh).
   */
  serviceAccountClient(serviceAccount: string, controller: string, signal: AbortSignal): Promise<ApiClient>;
  /** Closes every client. */
  close(): Promise<void>;
}

export interface RunControllerManagerOptions {
  /** The component (`orch-controller-manager`, `cloud-controller-manager`): metrics and migration. */
  readonly component: string;
  readonly domain: ApiDomain;
  readonly generic: GenericControllerManagerConfiguration;
  /** The whole configuration: its members feed the controllers. */
  readonly config: OrchControllerManagerConfiguration | CloudControllerManagerConfiguration;
  /** Every controller this binary knows, and the canonical names enabled. */
  readonly controllers: readonly ControllerDescriptor[];
  readonly enabled: readonly string[];
  readonly useServiceAccountCredentials: boolean;
  readonly connection: ApiConnection;
  /** Serving certificate; default self-signed. */
  readonly certificate?: ServingCertificate;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The process stops when this aborts (SIGTERM). */
  readonly signal: AbortSignal;
}

export interface RunningControllerManagerProcess {
  /** The health/metrics server, when `Port` is not 0. */
  readonly server?: ControllerManagerServer;
  readonly metrics: Registry;
  running(): string[];
  /** Resolves when the signal aborted and everything stopped. */
  readonly done: Promise<void>;
}

/**
 * orch-controller-manager's process after its command line: connects to the API server, serves
 * `/healthz` and `/metrics` on `Address`/`Port`, and runs the enabled controllers under leader
 * election (and leader migration), each as its own service account when asked, until the signal
 * aborts.
 */
export async function runControllerManager(o: RunControllerManagerOptions): Promise<RunningControllerManagerProcess> {
  const metrics = new Registry();
  const root = o.connection.root;
  const byName = new Map(o.controllers.map((c) => [c.name, c]));
  const enabled = o.enabled.map((n) => byName.get(n)).filter((c): c is ControllerDescriptor => c !== undefined);
  let migration: { leaderName: string; migrated: ReadonlySet<string> } | undefined;
  if (leaderMigrationEnabled(o.generic)) {
    const assigned = assignMigration({
      config: o.generic.LeaderMigration,
      component: o.component,
      controllers: enabled,
      mainLockOnly: ['serviceaccount-token-controller'],
    });
    migration = { leaderName: o.generic.LeaderMigration.leaderName, migrated: new Set(assigned.migrated) };
    const unowned = new Set(assigned.unowned);
    if (unowned.size > 0) {
      o.logger.info('leader migration: controllers left to another component', { controllers: [...unowned] });
    }
    enabled.splice(0, enabled.length, ...enabled.filter((c) => !unowned.has(c.name)));
  }
  const lifetime = new AbortController();
  const onAbort = () => lifetime.abort();
  o.signal.addEventListener('abort', onAbort, { once: true });
  const timings = genericTimings(o.generic);
  const manager = startControllerManager({
    component: o.component,
    root,
    election: o.connection.election,
    clientFor: (c) =>
      o.useServiceAccountCredentials && !c.managerCredentials
        ? o.connection.serviceAccountClient(c.serviceAccount, c.name, lifetime.signal)
        : Promise.resolve(root),
    controllers: enabled,
    configMembers: configMembersOf(o.config),
    minResyncPeriodMs: timings.minResyncPeriodMs,
    controllerStartIntervalMs: timings.controllerStartIntervalMs,
    leaderElection: o.generic.LeaderElection,
    migration,
    metrics,
    domain: o.domain,
    clock: o.clock,
    logger: o.logger,
  });
  // kube's leaderElection check fails a leader that has not renewed for a while; ours stops
  // leading at its renew deadline instead, so only ping remains.
  const checks: HealthCheck[] = [{ name: 'ping', check: () => undefined }];
  const server =
    o.generic.Port === 0
      ? undefined
      : await startControllerManagerServer({
          address: o.generic.Address,
          port: o.generic.Port,
          certificate: o.certificate,
          debugging: o.generic.Debugging,
          metrics,
          healthChecks: checks,
          logger: o.logger,
        });
  const done = (async () => {
    if (!lifetime.signal.aborted)
      await new Promise((r) => lifetime.signal.addEventListener('abort', r, { once: true }));
    o.signal.removeEventListener('abort', onAbort);
    await manager.stop();
    await server?.close();
    await o.connection.close();
  })();
  return { server, metrics, running: () => manager.running(), done };
}
