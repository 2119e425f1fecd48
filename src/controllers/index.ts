import { setMaxListeners } from 'node:events';
import { type ApiDomain, ORCH_DOMAIN } from '../apis/api-domain.js';
import type { Authorizer } from '../authz/index.js';
import { SharedInformerSet } from '../client/informer/shared-informer-set.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import { type Clock, systemClock } from '../util/clock.js';
import { type Logger, silentLogger } from '../util/logger.js';
import { clusterRoleAggregationController } from './clusterrole-aggregation/clusterrole-aggregation-controller.js';
import { controllerIdentity, informerIdentity } from './controller-client.js';
import type { ControllerDescriptor } from './controller-descriptor.js';
import { errorText } from './controller-support.js';
import { garbageCollectorDescriptor } from './garbage-collector/garbage-collector.js';
import { InProcessApiClient } from './in-process-api-client.js';
import { namespaceController } from './namespace/namespace-controller.js';
import { serviceAccountController } from './serviceaccount/service-account-controller.js';

export { clusterRoleAggregationController } from './clusterrole-aggregation/clusterrole-aggregation-controller.js';
export {
  ControllerClient,
  type ControllerIdentity,
  controllerIdentity,
  informerIdentity,
} from './controller-client.js';
export { garbageCollectorController } from './garbage-collector/garbage-collector.js';
export { namespaceController } from './namespace/namespace-controller.js';
export { serviceAccountController } from './serviceaccount/service-account-controller.js';

/** kube's `MinResyncPeriod` default (12 h). */
const DEFAULT_MIN_RESYNC_PERIOD_MS = 12 * 3600_000;

export interface StartControllersOptions {
  /** Every served resource; controllers read and write only through these registries. */
  readonly resources: ResourceSet;
  /**
   * The server's authorizer: every request of a controller (as its service account
   * `system:serviceaccount:<system namespace>:<serviceAccount>`) and of the shared informers (as
   * the controller manager's user) is decided by it before it reaches a registry, so a controller
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

/** The controllers orch-apiserver runs in process (unless `--run-controllers=false`). */
export function inProcessControllers(o: { readonly gcSyncTimeoutMs?: number } = {}): ControllerDescriptor[] {
  return [
    garbageCollectorDescriptor({ syncTimeoutMs: o.gcSyncTimeoutMs }),
    namespaceController,
    serviceAccountController,
    clusterRoleAggregationController,
  ];
}

/**
 * Starts the in-process controllers of orch-apiserver — the garbage collector, the namespace
 * controller, the serviceaccount controller and the clusterrole aggregation controller — as
 * the descriptors orch-controller-manager runs over HTTPS: each over an {@link InProcessApiClient}
 * as its own service account, all over one set of shared informers (list+watch of every served
 * resource as the controller manager's user), with kube's default configuration.
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
  const { resources, authorizer } = options;
  const informers = new SharedInformerSet(new InProcessApiClient(resources, informerIdentity(domain), authorizer), {
    logger,
    signal,
  });
  const loops = Promise.all(
    inProcessControllers({ gcSyncTimeoutMs: options.gcSyncTimeoutMs }).map((d) =>
      d
        .run({
          client: new InProcessApiClient(resources, controllerIdentity(d.serviceAccount, domain), authorizer),
          informers,
          config: {},
          minResyncPeriodMs: DEFAULT_MIN_RESYNC_PERIOD_MS,
          domain,
          clock: options.clock ?? systemClock,
          logger,
          signal,
        })
        .catch((e: unknown) => {
          if (!signal.aborted) logger.error(`${d.name} stopped unexpectedly`, { error: errorText(e) });
        }),
    ),
  );
  informers.start();
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
