import { setMaxListeners } from 'node:events';
import { Gauge, type Registry } from 'prom-client';
import type { ApiDomain } from '../apis/api-domain.js';
import type { Lease } from '../apis/coordination/lease.js';
import type { ApiClient } from '../client/api/api-client.js';
import { errorText, sleep } from '../client/client-support.js';
import { SharedInformerSet } from '../client/informer/shared-informer-set.js';
import { candidateIdentity, runLeaderElected } from '../client/leaderelection/leader-elected.js';
import {
  type LeaderElectionConfiguration,
  leaderElectionTimings,
} from '../client/leaderelection/leader-election-configuration.js';
import { LeaseLock } from '../client/leaderelection/lease-lock.js';
import { resourceObjectClient } from '../client/leaderelection/resource-object-client.js';
import type { ControllerDescriptor } from '../controllers/controller-descriptor.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';

export interface ControllerManagerOptions {
  /**
   * The component's name: the `manager` label of `running_managed_controllers` and the name
   * leader migration's `component` entries match (`kube-controller-manager`,
   * `cloud-controller-manager`).
   */
  readonly component: string;
  /** The component's own identity: shared informers. */
  readonly root: ApiClient;
  /**
   * The client leader election renews its Leases with (default `root`): kube gives elections a
   * client of their own, so renewals never wait behind the informers' and controllers' requests
   * in a shared rate limit.
   */
  readonly election?: ApiClient;
  /** The client a controller acts as (its service account's, or `root` without service-account credentials). */
  clientFor(controller: ControllerDescriptor): Promise<ApiClient>;
  /** The enabled controllers, in start order. */
  readonly controllers: readonly ControllerDescriptor[];
  /** Configuration members by name (`DeploymentController` → `{ ConcurrentDeploymentSyncs: 5 }`). */
  readonly configMembers: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly minResyncPeriodMs: number;
  /** Pause between starting two controllers (`ControllerStartInterval`). */
  readonly controllerStartIntervalMs: number;
  /** The component's own election (validated); `leaderElect: false` runs at once. */
  readonly leaderElection: LeaderElectionConfiguration;
  /**
   * Leader migration: the controllers in `migrated` run under the Lease `leaderName` (in the
   * election's namespace) instead of the component's own, so that during a move between
   * components only one of them runs each.
   */
  readonly migration?: { readonly leaderName: string; readonly migrated: ReadonlySet<string> };
  readonly metrics: Registry;
  readonly domain: ApiDomain;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The candidate identity; default `<hostname>_<uuid>`. */
  readonly identity?: string;
}

export interface RunningControllerManager {
  /** The candidate identity written to the Leases. */
  readonly identity: string;
  /** Names of the controllers running now. */
  running(): string[];
  /** Stops every controller, releases the Leases and waits. Idempotent. */
  stop(): Promise<void>;
}

interface Group {
  readonly lease: string;
  readonly controllers: readonly ControllerDescriptor[];
}

/**
 * kube-controller-manager's run loop over any {@link ApiClient}: the enabled controllers run
 * only while this process holds its Lease (`leaderElection`); with leader migration the
 * migrated controllers run under the migration Lease instead, each group on its own term. A
 * term starts shared informers as the component's identity, then the controllers one by one
 * (each with its own client and configuration member), and stops them all when it ends; the
 * process then campaigns again.
 */
export function startControllerManager(o: ControllerManagerOptions): RunningControllerManager {
  const lifetime = new AbortController();
  setMaxListeners(0, lifetime.signal);
  const identity = o.identity ?? candidateIdentity();
  const running = new Set<string>();
  const gauge = runningControllersGauge(o.metrics);
  const groups: Group[] = [];
  const own = o.controllers.filter((c) => !o.migration?.migrated.has(c.name));
  const migrated = o.controllers.filter((c) => o.migration?.migrated.has(c.name));
  if (own.length > 0) groups.push({ lease: o.leaderElection.resourceName, controllers: own });
  if (migrated.length > 0 && o.migration) groups.push({ lease: o.migration.leaderName, controllers: migrated });

  const startGroup = (group: Group, leading: AbortSignal) => {
    const term = new AbortController();
    setMaxListeners(0, term.signal);
    const end = () => term.abort();
    leading.addEventListener('abort', end, { once: true });
    const informers = new SharedInformerSet(o.root, { logger: o.logger, signal: term.signal });
    const loops: Promise<void>[] = [];
    const starting = (async () => {
      informers.start();
      for (const [i, c] of group.controllers.entries()) {
        if (term.signal.aborted) return;
        if (i > 0) await sleep(o.controllerStartIntervalMs, term.signal);
        let client: ApiClient;
        try {
          client = await o.clientFor(c);
        } catch (e) {
          o.logger.error('controller manager: no client for controller; not started', {
            controller: c.name,
            error: errorText(e),
          });
          continue;
        }
        if (term.signal.aborted) return;
        running.add(c.name);
        gauge.set({ controller_name: c.name, manager: o.component }, 1);
        o.logger.info('controller manager: started controller', { controller: c.name });
        loops.push(
          c
            .run({
              client,
              informers,
              config: (c.configMember && o.configMembers[c.configMember]) || {},
              minResyncPeriodMs: o.minResyncPeriodMs,
              domain: o.domain,
              clock: o.clock,
              logger: o.logger,
              signal: term.signal,
            })
            .catch((e) => {
              if (!term.signal.aborted)
                o.logger.error('controller stopped unexpectedly', { controller: c.name, error: errorText(e) });
            })
            .finally(() => {
              running.delete(c.name);
              gauge.remove({ controller_name: c.name, manager: o.component });
            }),
        );
      }
    })();
    return {
      async stop() {
        term.abort();
        leading.removeEventListener('abort', end);
        await starting;
        await Promise.all(loops);
        await informers.stopped();
      },
    };
  };

  const campaigns: Promise<void>[] = [];
  for (const group of groups) {
    if (!o.leaderElection.leaderElect) {
      const work = startGroup(group, lifetime.signal);
      campaigns.push(
        new Promise<void>((resolve) => lifetime.signal.addEventListener('abort', () => resolve(), { once: true })).then(
          () => work.stop(),
        ),
      );
      continue;
    }
    const leases = (o.election ?? o.root).resource(o.domain.group('coordination'), 'v1', 'leases');
    if (!leases) {
      throw new Error(
        `leader election needs ${o.domain.group('coordination')}/v1 leases, which the API server does not serve: ` +
          `is its --api-domain ${o.domain.name}, as this controller manager's is?`,
      );
    }
    const namespace = o.leaderElection.resourceNamespace;
    const run = runLeaderElected({
      ...leaderElectionTimings(o.leaderElection),
      lock: new LeaseLock({
        client: resourceObjectClient<Lease>(leases, namespace),
        name: group.lease,
        identity,
        group: o.domain.group('coordination'),
      }),
      name: `${namespace}/${group.lease}`,
      releaseOnCancel: true,
      logger: o.logger,
      signal: lifetime.signal,
      start: (leading) => startGroup(group, leading),
      onNewLeader: (holder) => o.logger.info('leader election: new leader', { lease: group.lease, holder }),
    });
    campaigns.push(run.done);
  }

  let stopping: Promise<void> | undefined;
  return {
    identity,
    running: () => [...running].sort(),
    stop() {
      stopping ??= (async () => {
        lifetime.abort();
        await Promise.all(campaigns);
      })();
      return stopping;
    },
  };
}

/** kube's `running_managed_controllers` (ALPHA): 1 per controller running, by component. */
function runningControllersGauge(registry: Registry): Gauge<'controller_name' | 'manager'> {
  const existing = registry.getSingleMetric('running_managed_controllers');
  if (existing) return existing as Gauge<'controller_name' | 'manager'>;
  return new Gauge({
    name: 'running_managed_controllers',
    help: '[ALPHA] Indicates where instances of a controller are currently running',
    labelNames: ['controller_name', 'manager'],
    registers: [registry],
  });
}
