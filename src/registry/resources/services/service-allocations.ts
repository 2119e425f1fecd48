import type { Service, ServiceSpec } from '../../../apis/core/service-types.js';
import { apiErrors } from '../../../apis/meta/status.js';
import { type Logger, silentLogger } from '../../../util/logger.js';
import type { ClusterIPAllocator } from './cluster-ip-allocator.js';
import { ClusterIPs, type IPsByFamily } from './cluster-ip-transaction.js';
import { initIPFamilyFields } from './ip-family-fields.js';
import type { NodePortAllocator } from './node-port-allocator.js';
import { NodePorts } from './node-port-transaction.js';

/**
 * What a Service write reserved and will free: `commit` once the object is stored (frees what the
 * update gave up), `revert` when it is not (frees what was reserved for it). Neither throws: a
 * failed release is logged and left to the repair, as kube does (better a leak than a double
 * allocation).
 */
export interface AllocationTransaction {
  commit(): Promise<void>;
  revert(): Promise<void>;
}

interface Options {
  readonly dryRun: boolean;
  readonly signal?: AbortSignal;
}

/**
 * kube's Service REST allocations (`pkg/registry/core/service/storage/alloc.go`): IP family
 * fields are initialized, cluster IPs and node ports reserved when a Service is created or its
 * type, families or ports change, and released when it is deleted or no longer needs them.
 */
export class ServiceAllocations {
  readonly clusterIPs: ClusterIPs;
  readonly nodePorts: NodePorts;
  private readonly logger: Logger;

  constructor(o: {
    /** The cluster IP allocators, the default family (`--service-cluster-ip-range`'s first) first. */
    readonly clusterIPs: readonly ClusterIPAllocator[];
    readonly nodePorts: NodePortAllocator;
    readonly logger?: Logger;
  }) {
    this.clusterIPs = new ClusterIPs(o.clusterIPs);
    this.nodePorts = new NodePorts(o.nodePorts);
    this.logger = o.logger ?? silentLogger;
  }

  private specOf(svc: Service): ServiceSpec {
    if (!svc.spec) svc.spec = {};
    return svc.spec;
  }

  private initFamilies(svc: Service, old: ServiceSpec | undefined): void {
    const errs = initIPFamilyFields(this.specOf(svc), old, this.clusterIPs.families);
    if (errs.length > 0) throw apiErrors.invalid({ group: '', kind: 'Service' }, svc.metadata?.name ?? '', errs);
  }

  /** kube's `allocateCreate`. Mutates `svc`. @throws StatusError (422 or 500). */
  async beginCreate(svc: Service, o: Options): Promise<AllocationTransaction> {
    const name = svc.metadata?.name ?? '';
    this.initFamilies(svc, undefined);
    const spec = this.specOf(svc);
    const ips = await this.clusterIPs.allocateForService(name, spec, o);
    let ports: number[];
    try {
      ports = await this.nodePorts.allocateForCreate(name, spec, o);
    } catch (e) {
      await this.releaseQuietly(ips, []);
      throw e;
    }
    return {
      commit: async () => {},
      revert: () => this.releaseQuietly(ips, ports),
    };
  }

  /** kube's `allocateUpdate`. Mutates `svc`. @throws StatusError (422 or 500). */
  async beginUpdate(svc: Service, old: Service, o: Options): Promise<AllocationTransaction> {
    const name = svc.metadata?.name ?? '';
    const oldSpec = old.spec ?? {};
    this.initFamilies(svc, oldSpec);
    const spec = this.specOf(svc);
    const ips = await this.clusterIPs.change(name, spec, oldSpec, o);
    let ports: { allocated: readonly number[]; toRelease: readonly number[] };
    try {
      ports = await this.nodePorts.change(name, spec, oldSpec, o);
    } catch (e) {
      await this.releaseQuietly(ips.allocated, []);
      throw e;
    }
    if (o.dryRun) return { commit: async () => {}, revert: async () => {} };
    return {
      commit: () => this.releaseQuietly(ips.toRelease, ports.toRelease),
      revert: () => this.releaseQuietly(ips.allocated, ports.allocated),
    };
  }

  /** kube's `releaseAllocatedResources`: everything a deleted Service held. */
  release(svc: Service): Promise<void> {
    const spec = svc.spec ?? {};
    return this.releaseQuietly(this.clusterIPs.held(spec), this.nodePorts.held(spec));
  }

  /**
   * Releases outlive the request that caused them (not tied to its signal): a client that goes
   * away after its write must not leave the values taken.
   */
  private async releaseQuietly(ips: IPsByFamily, ports: readonly number[]): Promise<void> {
    try {
      if (ips.size > 0) await this.clusterIPs.release(ips);
    } catch (e) {
      this.logger.warn('could not release cluster IPs; the repair will free them', {
        ips: [...ips.values()],
        error: e instanceof Error ? e.message : String(e),
      });
    }
    try {
      if (ports.length > 0) await this.nodePorts.release(ports);
    } catch (e) {
      this.logger.warn('could not release node ports; the repair will free them', {
        ports,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
}
