import type { ApiDomain } from '../apis/api-domain.js';
import { formatIP } from '../apis/core/ip-address.js';
import {
  apiServerServiceIP,
  DEFAULT_SERVICE_NODE_PORT_RANGE,
  type PortRange,
  parsePortRange,
  parseServiceClusterIPRanges,
} from '../apis/core/service-ranges.js';
import { StatusError } from '../apis/meta/status.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import type { ResourceDefinition } from '../apis/resource-definition.js';
import type { WriteHooks } from '../registry/generic/write-hooks.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import { ServiceAllocationRepair } from '../registry/resources/services/allocation-repair.js';
import { ClusterIPAllocator } from '../registry/resources/services/cluster-ip-allocator.js';
import { NodePortAllocator } from '../registry/resources/services/node-port-allocator.js';
import { ServiceAllocations } from '../registry/resources/services/service-allocations.js';
import { serviceWriteHooks } from '../registry/resources/services/service-write-hooks.js';
import { storedServices } from '../registry/resources/services/stored-services.js';
import type { KeyScheme } from '../storage/keys.js';
import type { Store } from '../storage/store.js';
import type { Logger } from '../util/logger.js';
import { endpointAddressOf } from './advertise-address.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';
import { KubernetesServiceReconciler } from './kubernetes-service.js';

/** Thrown by {@link serviceNetworking} for invalid ranges; lists every problem. */
export class ServiceNetworkingConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'ServiceNetworkingConfigError';
  }
}

/** kube's repair controllers run every 3 minutes; the endpoint reconciler every 10 seconds. */
const REPAIR_INTERVAL_MS = 3 * 60_000;
const ENDPOINT_INTERVAL_MS = 10_000;

export interface ServiceNetworkingOptions {
  readonly store: Store;
  readonly keys: KeyScheme;
  readonly domain: ApiDomain;
  readonly logger: Logger;
  /** `--service-cluster-ip-range` (empty: `10.0.0.0/24`). */
  readonly serviceClusterIPRange?: string;
  /** `--service-node-port-range` (empty: `30000-32767`). */
  readonly serviceNodePortRange?: string;
}

/** The Service machinery of one API server: allocators, their registry hooks, repair, `default/kubernetes`. */
export interface ServiceNetworking {
  /** The registry hooks of a definition (core/v1 services only). */
  writeHooksFor(def: ResourceDefinition): WriteHooks | undefined;
  /**
   * Once the resources are served: repairs the allocation state from the stored services, creates
   * or corrects `default/kubernetes` with its endpoints, then keeps both up (until `signal`).
   */
  start(o: {
    readonly resources: ResourceSet;
    readonly advertiseAddress: string | undefined;
    readonly securePort: number;
    readonly signal: AbortSignal;
  }): Promise<void>;
  /** Stops the loops and removes this server's address from the endpoints (best effort). */
  stop(): Promise<void>;
}

/**
 * Builds the Service machinery from the flags.
 * @throws ServiceNetworkingConfigError naming each bad range (flags named as kube does).
 */
export function serviceNetworking(o: ServiceNetworkingOptions): ServiceNetworking {
  const parsed = parseServiceClusterIPRanges(o.serviceClusterIPRange ?? '');
  const ports = parsePortRange(o.serviceNodePortRange || DEFAULT_SERVICE_NODE_PORT_RANGE);
  const problems = [...parsed.problems];
  if ('error' in ports) problems.push(`invalid --service-node-port-range: ${ports.error}`);
  if (!parsed.ranges || problems.length > 0) throw new ServiceNetworkingConfigError(problems);
  const ranges = parsed.ranges;
  const prefix = o.keys.prefix;
  const clusterIPs = [
    new ClusterIPAllocator({ store: o.store, key: `${prefix}/ranges/serviceips`, network: ranges.primary }),
    ...(ranges.secondary
      ? [
          new ClusterIPAllocator({
            store: o.store,
            key: `${prefix}/ranges/secondaryserviceips`,
            network: ranges.secondary,
          }),
        ]
      : []),
  ];
  const nodePorts = new NodePortAllocator({
    store: o.store,
    key: `${prefix}/ranges/servicenodeports`,
    range: ports as PortRange,
  });
  const allocations = new ServiceAllocations({ clusterIPs, nodePorts, logger: o.logger });
  const repair = new ServiceAllocationRepair({
    clusterIPs,
    nodePorts,
    services: (signal) => storedServices(o.store, o.keys, signal),
    logger: o.logger,
  });
  let resources: ResourceSet | undefined;
  const deleteEndpoints = async (namespace: string, name: string) => {
    const endpoints = resources?.lookup('', 'v1', 'endpoints');
    if (!endpoints) return;
    const ctx = internalRequestContext({
      user: API_SERVER_USER,
      signal: AbortSignal.timeout(30_000),
      verb: 'delete',
      group: '',
      version: 'v1',
      resource: 'endpoints',
      namespace,
      name,
    });
    try {
      await endpoints.store.delete(ctx, name, { dryRun: false });
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === 'NotFound')) throw e;
    }
  };
  const hooks = serviceWriteHooks({ allocations, deleteEndpoints, logger: o.logger });
  const loops = new AbortController();
  let reconciler: KubernetesServiceReconciler | undefined;
  let running: Promise<unknown>[] = [];

  const every = (ms: number, what: string, run: (signal: AbortSignal) => Promise<void>, signal: AbortSignal) =>
    (async () => {
      while (!signal.aborted) {
        await sleepOrAbort(ms, signal);
        if (signal.aborted) return;
        await run(signal).catch((e) =>
          o.logger.warn(`${what} failed`, { error: e instanceof Error ? e.message : String(e) }),
        );
      }
    })();

  return {
    writeHooksFor: (def) =>
      def.group === '' && def.version === 'v1' && def.resource === 'services' ? hooks : undefined,
    async start(s) {
      resources = s.resources;
      if (!s.resources.lookup('', 'v1', 'services')) return;
      const signal = AbortSignal.any([s.signal, loops.signal]);
      await repair.runOnce(signal);
      reconciler = new KubernetesServiceReconciler({
        resources: s.resources,
        domain: o.domain,
        logger: o.logger,
        config: {
          clusterIP: formatIP(apiServerServiceIP(ranges)),
          servicePort: 443,
          endpointAddress: endpointAddressOf(s.advertiseAddress, o.logger),
          endpointPort: s.securePort,
        },
      });
      await reconciler.reconcile(signal);
      running = [
        every(REPAIR_INTERVAL_MS, 'service allocation repair', (sig) => repair.runOnce(sig), signal),
        every(ENDPOINT_INTERVAL_MS, 'kubernetes service reconcile', (sig) => reconciler!.reconcile(sig), signal),
      ];
    },
    async stop() {
      loops.abort();
      await Promise.all(running);
      await reconciler?.removeOwnEndpoint(AbortSignal.timeout(5_000)).catch((e) =>
        o.logger.warn('could not remove this server from the kubernetes endpoints', {
          error: e instanceof Error ? e.message : String(e),
        }),
      );
    },
  };
}

function sleepOrAbort(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
