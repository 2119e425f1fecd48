import { setMaxListeners } from 'node:events';
import { type ApiDomain, ORCH_DOMAIN } from '../apis/api-domain.js';
import type { Authorizer } from '../authz/index.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import type { Clock } from '../util/clock.js';
import { type Logger, silentLogger } from '../util/logger.js';
import { ClusterRoleAggregationController } from './clusterrole-aggregation/clusterrole-aggregation-controller.js';
import { GarbageCollector } from './garbage-collector/garbage-collector.js';
import { InformerSet } from './informer/informer-set.js';
import { NamespaceController } from './namespace/namespace-controller.js';
import { ServiceAccountController } from './serviceaccount/service-account-controller.js';

export { ClusterRoleAggregationController } from './clusterrole-aggregation/clusterrole-aggregation-controller.js';
export { ControllerClient, type ControllerIdentity, controllerIdentity } from './controller-client.js';
export { GarbageCollector } from './garbage-collector/garbage-collector.js';
export { InformerSet } from './informer/informer-set.js';
export { NamespaceController } from './namespace/namespace-controller.js';
export { ServiceAccountController } from './serviceaccount/service-account-controller.js';

export interface StartControllersOptions {
  /** Every served resource; controllers read and write only through these registries. */
  readonly resources: ResourceSet;
  /**
   * The server's authorizer: every request of a controller (as its service account
   * `system:serviceaccount:<system namespace>:<controller>`) and of the shared informers (as the
   * controller manager's user) is decided by it before it reaches a registry, so a controller
   * holds exactly the permissions its roles grant. Under RBAC its index must be current before
   * the controllers start (the server starts them after the default policy is in the index).
   */
  readonly authorizer: Authorizer;
  readonly logger?: Logger;
  /** Stops the controllers when it aborts (as `stop()` does). */
  readonly signal?: AbortSignal;
  readonly clock?: Clock;
  /** How long the garbage collector waits for all resources to be listed first. Default 10 s. */
  readonly gcSyncTimeoutMs?: number;
  /** The API domain the server was built with (identities, the namespace finalizer). Default `orch.io`. */
  readonly domain?: ApiDomain;
}

export interface RunningControllers {
  /** Stops every controller and waits for their loops to end. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts the in-process controllers of orch-apiserver: the garbage collector, the namespace
 * controller, the serviceaccount controller and the clusterrole aggregation controller, over shared informers (list+watch of every served resource through its registry).
 * Returns at once; the controllers work in the background until stopped.
 */
export function startControllers(options: StartControllersOptions): RunningControllers {
  const logger = options.logger ?? silentLogger;
  const lifetime = new AbortController();
  // One listener per informer and controller: many by design, not a leak.
  setMaxListeners(0, lifetime.signal);
  const onAbort = () => lifetime.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) lifetime.abort();
  const signal = lifetime.signal;
  const domain = options.domain ?? ORCH_DOMAIN;
  const authorizer = options.authorizer;
  const informers = new InformerSet(options.resources, { logger, signal, domain, authorizer });
  const gc = new GarbageCollector({
    resources: options.resources,
    informers,
    logger,
    signal,
    syncTimeoutMs: options.gcSyncTimeoutMs,
    domain,
    authorizer,
  });
  const namespaces = new NamespaceController({
    resources: options.resources,
    informers,
    logger,
    signal,
    clock: options.clock,
    domain,
    authorizer,
  });
  const serviceAccounts = new ServiceAccountController({
    resources: options.resources,
    informers,
    logger,
    signal,
    domain,
    authorizer,
  });
  const aggregation = new ClusterRoleAggregationController({
    resources: options.resources,
    informers,
    logger,
    signal,
    domain,
    authorizer,
  });
  informers.start();
  const report = (name: string) => (e: unknown) => {
    if (!signal.aborted)
      logger.error(`${name} stopped unexpectedly`, { error: e instanceof Error ? e.message : String(e) });
  };
  const loops = Promise.all([
    gc.run().catch(report('garbage collector')),
    namespaces.run().catch(report('namespace controller')),
    serviceAccounts.run().catch(report('serviceaccount controller')),
    aggregation.run().catch(report('clusterrole aggregation controller')),
  ]);
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        lifetime.abort();
        options.signal?.removeEventListener('abort', onAbort);
        await loops;
        await informers.stopped();
      })();
      return stopping;
    },
  };
}
