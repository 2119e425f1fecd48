import type { ApiDomain } from '../apis/api-domain.js';
import { parseIP } from '../apis/core/ip-address.js';
import type { Endpoints, Service, ServicePort } from '../apis/core/service-types.js';
import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import type { ResourceSet, ServedResource } from '../registry/resource-set/index.js';
import { type Logger, silentLogger } from '../util/logger.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';

/** The API server's own Service: `default/kubernetes`. */
export const KUBERNETES_SERVICE = { namespace: 'default', name: 'kubernetes' } as const;

/** What the `default/kubernetes` Service and its endpoints say. */
export interface KubernetesServiceConfig {
  /** The Service's cluster IP: the first address of the primary service range. */
  readonly clusterIP: string;
  /** The Service's port (443). */
  readonly servicePort: number;
  /** This server's advertised address; undefined when it has none usable in Endpoints. */
  readonly endpointAddress: string | undefined;
  /** This server's secure port (the endpoints' and the target port). */
  readonly endpointPort: number;
}

const PORT_NAME = 'https';

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * kube-apiserver's `kubernetes` service controller and endpoint reconciler: the Service
 * `default/kubernetes` (cluster IP the range's first address, port `https` 443 → the secure
 * port) and its Endpoints and EndpointSlice naming this server's address. Existing objects are
 * corrected, not replaced; other servers' addresses in the endpoints are kept (without kube's
 * master leases, a server removes only its own address, when it shuts down). Writes go through
 * the registries as `system:apiserver`.
 */
export class KubernetesServiceReconciler {
  private readonly logger: Logger;

  constructor(
    private readonly o: {
      readonly resources: ResourceSet;
      readonly domain: ApiDomain;
      readonly config: KubernetesServiceConfig;
      readonly logger?: Logger;
    },
  ) {
    this.logger = o.logger ?? silentLogger;
  }

  private served(group: string, resource: string): ServedResource | undefined {
    return this.o.resources.lookup(group, 'v1', resource);
  }

  private ctx(group: string, resource: string, verb: string, signal: AbortSignal) {
    return internalRequestContext({
      user: API_SERVER_USER,
      signal,
      verb,
      group,
      version: 'v1',
      resource,
      namespace: KUBERNETES_SERVICE.namespace,
      name: KUBERNETES_SERVICE.name,
    });
  }

  private servicePorts(): ServicePort[] {
    const { servicePort, endpointPort } = this.o.config;
    return [{ name: PORT_NAME, protocol: 'TCP', port: servicePort, targetPort: endpointPort }];
  }

  /** Creates or corrects the Service, then the endpoints. Resources not served are skipped. */
  async reconcile(signal: AbortSignal): Promise<void> {
    await this.reconcileService(signal);
    const address = this.o.config.endpointAddress;
    if (address !== undefined)
      await this.reconcileEndpoints(signal, (addresses) => [...new Set([...addresses, address])]);
  }

  /** Removes this server's address from the endpoints (graceful shutdown). */
  async removeOwnEndpoint(signal: AbortSignal): Promise<void> {
    const address = this.o.config.endpointAddress;
    if (address !== undefined)
      await this.reconcileEndpoints(signal, (addresses) => addresses.filter((a) => a !== address));
  }

  private async reconcileService(signal: AbortSignal): Promise<void> {
    const services = this.served('', 'services');
    if (!services) return;
    const wanted: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        ...KUBERNETES_SERVICE,
        labels: { provider: 'kubernetes', component: 'apiserver' },
      },
      spec: {
        ports: this.servicePorts(),
        clusterIP: this.o.config.clusterIP,
        sessionAffinity: 'None',
        type: 'ClusterIP',
      },
    };
    await this.upsert(services, '', 'services', signal, wanted, (current) => {
      const svc = current as Service;
      const ports = (svc.spec?.ports ?? []).map((p) => ({
        name: p.name,
        protocol: p.protocol,
        port: p.port,
        targetPort: p.targetPort,
      }));
      // kube corrects only the ports and the type (the cluster IP cannot change).
      if (svc.spec?.type === 'ClusterIP' && sameJson(ports, this.servicePorts())) return undefined;
      return { ...svc, spec: { ...svc.spec, type: 'ClusterIP', ports: this.servicePorts() } };
    });
  }

  private async reconcileEndpoints(signal: AbortSignal, addressesOf: (current: string[]) => string[]): Promise<void> {
    const port = { name: PORT_NAME, port: this.o.config.endpointPort, protocol: 'TCP' };
    const endpoints = this.served('', 'endpoints');
    let addresses: string[] = [];
    if (endpoints) {
      const build = (current: string[]): Endpoints => {
        addresses = addressesOf(current).sort();
        return {
          apiVersion: 'v1',
          kind: 'Endpoints',
          metadata: { ...KUBERNETES_SERVICE, labels: { [this.o.domain.key('endpointslice', 'skip-mirror')]: 'true' } },
          subsets: addresses.length > 0 ? [{ addresses: addresses.map((ip) => ({ ip })), ports: [port] }] : [],
        };
      };
      await this.upsert(endpoints, '', 'endpoints', signal, build([]), (current) => {
        const ep = current as Endpoints;
        const subset = ep.subsets?.[0];
        // Addresses listed with another port belong to a configuration that no longer holds.
        const samePort = sameJson(subset?.ports ?? [], [port]) && (ep.subsets ?? []).length === 1;
        const existing = samePort ? (subset?.addresses ?? []).map((a) => a.ip ?? '') : [];
        const next = build(existing);
        if (
          sameJson(ep.subsets ?? [], next.subsets) &&
          ep.metadata.labels?.[this.o.domain.key('endpointslice', 'skip-mirror')] === 'true'
        ) {
          return undefined;
        }
        return {
          ...ep,
          metadata: { ...ep.metadata, labels: { ...ep.metadata.labels, ...next.metadata.labels } },
          subsets: next.subsets,
        };
      });
    } else addresses = addressesOf([]);
    await this.reconcileSlice(signal, addresses, port);
  }

  private async reconcileSlice(
    signal: AbortSignal,
    addresses: readonly string[],
    port: { name: string; port: number; protocol: string },
  ): Promise<void> {
    const group = this.o.domain.group('discovery');
    const slices = this.served(group, 'endpointslices');
    const own = this.o.config.endpointAddress;
    if (!slices || own === undefined) return;
    const is4 = parseIP(own)?.is4 ?? true;
    const sameFamily = addresses.filter((a) => parseIP(a)?.is4 === is4);
    const wanted = {
      apiVersion: `${group}/v1`,
      kind: 'EndpointSlice',
      metadata: { ...KUBERNETES_SERVICE, labels: { [this.o.domain.key('', 'service-name')]: KUBERNETES_SERVICE.name } },
      addressType: is4 ? 'IPv4' : 'IPv6',
      endpoints: sameFamily.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
      ports: [port],
    };
    await this.upsert(slices, group, 'endpointslices', signal, wanted, (current) => {
      const same =
        sameJson(current.endpoints ?? [], wanted.endpoints) &&
        sameJson(current.ports ?? [], wanted.ports) &&
        current.addressType === wanted.addressType;
      if (same) return undefined;
      return { ...current, addressType: wanted.addressType, endpoints: wanted.endpoints, ports: wanted.ports };
    });
  }

  /**
   * Creates `wanted` when missing, else writes what `correct` makes of the current object
   * (undefined: it is right as it is). A create lost to another server is retried as an update.
   */
  private async upsert(
    served: ServedResource,
    group: string,
    resource: string,
    signal: AbortSignal,
    wanted: ApiObject,
    correct: (current: ApiObject) => ApiObject | undefined,
  ): Promise<void> {
    const manager = this.o.domain.apiServerManager;
    for (let attempt = 0; attempt < 3; attempt++) {
      let current: ApiObject | undefined;
      try {
        current = await served.store.get(this.ctx(group, resource, 'get', signal), KUBERNETES_SERVICE.name, {});
      } catch (e) {
        if (!(e instanceof StatusError && e.reason === 'NotFound')) throw e;
      }
      if (!current) {
        try {
          await served.store.create(this.ctx(group, resource, 'create', signal), wanted, {
            dryRun: false,
            fieldManager: manager,
          });
          this.logger.info(`created ${resource} ${KUBERNETES_SERVICE.namespace}/${KUBERNETES_SERVICE.name}`);
          return;
        } catch (e) {
          if (e instanceof StatusError && e.reason === 'AlreadyExists') continue;
          throw e;
        }
      }
      if (correct(current) === undefined) return;
      await served.store.update(
        this.ctx(group, resource, 'update', signal),
        KUBERNETES_SERVICE.name,
        {
          retryOnConflict: true,
          compute: (live) => (live ? (correct(live) ?? live) : wanted),
        },
        { dryRun: false, fieldManager: manager },
      );
      return;
    }
  }
}
