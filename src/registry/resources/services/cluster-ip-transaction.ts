import { invalidStrings } from '../../../apis/core/go-value-format.js';
import { formatIP, type IpFamily, parseIP } from '../../../apis/core/ip-address.js';
import { CLUSTER_IP_NONE, type ServiceSpec } from '../../../apis/core/service-types.js';
import { apiErrors } from '../../../apis/meta/status.js';
import type { ClusterIPAllocator } from './cluster-ip-allocator.js';
import { isUnchangedPreferDualStack } from './ip-family-fields.js';

/** Cluster IPs by family. */
export type IPsByFamily = Map<IpFamily, string>;

/** What a cluster IP change did: IPs to free if the write fails, IPs to free once it succeeds. */
export interface ClusterIPChange {
  readonly allocated: IPsByFamily;
  readonly toRelease: IPsByFamily;
}

const NO_CHANGE: ClusterIPChange = { allocated: new Map(), toRelease: new Map() };

/** The cluster IP allocators of the configured families, the default one first. */
export class ClusterIPs {
  constructor(readonly allocators: readonly ClusterIPAllocator[]) {}

  get families(): IpFamily[] {
    return this.allocators.map((a) => a.family);
  }

  private allocatorFor(family: string): ClusterIPAllocator | undefined {
    return this.allocators.find((a) => a.family === family);
  }

  /**
   * Reserves the addresses of `toAlloc` (a family's requested address, or `''` for any), as
   * kube's `allocIPs`. A dry run checks requested addresses against the range only and answers
   * the network address for any (kube's dry-run allocator does the same). All or nothing: on
   * failure what was reserved is freed again.
   * @throws StatusError: 422 naming `spec.clusterIPs` for a requested address, 500 otherwise.
   */
  async allocate(
    name: string,
    spec: ServiceSpec,
    toAlloc: IPsByFamily,
    o: { readonly dryRun: boolean; readonly signal?: AbortSignal },
  ): Promise<IPsByFamily> {
    const allocated: IPsByFamily = new Map();
    try {
      for (const [family, ip] of toAlloc) {
        const allocator = this.allocatorFor(family)!;
        if (ip === '') {
          const next = o.dryRun
            ? formatIP(allocator.range.network.base)
            : await allocator.allocateNext(o.signal).catch((e: Error) => {
                throw apiErrors.internal(new Error(`failed to allocate a serviceIP: ${e.message}`, { cause: e }));
              });
          allocated.set(family, next);
          continue;
        }
        try {
          if (o.dryRun) allocator.offsetOf(ip);
          else await allocator.allocate(ip, o.signal);
        } catch (e) {
          if (!(e instanceof Error) || e.name === 'AbortError') throw e;
          throw apiErrors.invalid({ group: '', kind: 'Service' }, name, [
            invalidStrings('spec.clusterIPs', spec.clusterIPs, `failed to allocate IP ${ip}: ${e.message}`),
          ]);
        }
        // Only addresses actually reserved are freed on failure.
        if (!o.dryRun) allocated.set(family, ip);
      }
    } catch (e) {
      if (!o.dryRun) await this.release(allocated, o.signal).catch(() => {});
      throw e;
    }
    return allocated;
  }

  /** kube's `allocClusterIPs`: every family of the service gets its address. Mutates `spec`. */
  async allocateForService(
    name: string,
    spec: ServiceSpec,
    o: { readonly dryRun: boolean; readonly signal?: AbortSignal },
  ): Promise<IPsByFamily> {
    if (spec.type === 'ExternalName') return new Map();
    if ((spec.clusterIPs ?? [])[0] === CLUSTER_IP_NONE) return new Map();
    const clusterIPs = [...(spec.clusterIPs ?? [])];
    const toAlloc: IPsByFamily = new Map();
    (spec.ipFamilies ?? []).forEach((family, i) => {
      if (i > clusterIPs.length - 1) clusterIPs.push('');
      toAlloc.set(family as IpFamily, clusterIPs[i]);
    });
    spec.clusterIPs = clusterIPs;
    const allocated = await this.allocate(name, spec, toAlloc, o);
    (spec.ipFamilies ?? []).forEach((family, i) => {
      const ip = allocated.get(family as IpFamily) ?? toAlloc.get(family as IpFamily);
      if (ip !== undefined) clusterIPs[i] = ip;
    });
    spec.clusterIP = clusterIPs[0];
    // Dry-run reservations hold nothing to free.
    return o.dryRun ? new Map() : allocated;
  }

  /**
   * kube's `updateClusterIPs`: from ExternalName, allocate; to ExternalName, free the old ones
   * after the write; a SingleStack→dual-stack upgrade allocates the secondary, a downgrade frees
   * it after the write. Headless services and unchanged PreferDualStack ones need nothing.
   */
  async change(
    name: string,
    spec: ServiceSpec,
    old: ServiceSpec,
    o: { readonly dryRun: boolean; readonly signal?: AbortSignal },
  ): Promise<ClusterIPChange> {
    if (isUnchangedPreferDualStack(spec, old)) return NO_CHANGE;
    if (old.type === 'ExternalName' && spec.type !== 'ExternalName') {
      return { allocated: await this.allocateForService(name, spec, o), toRelease: new Map() };
    }
    if ((old.clusterIPs ?? [])[0] === CLUSTER_IP_NONE) return NO_CHANGE;
    if (old.type !== 'ExternalName' && spec.type === 'ExternalName') {
      return { allocated: new Map(), toRelease: ipsByFamily(old) };
    }
    const oldFamilies = old.ipFamilies ?? [];
    const families = spec.ipFamilies ?? [];
    if (oldFamilies.length === 1 && families.length === 2) {
      const clusterIPs = [...(spec.clusterIPs ?? [])];
      if (clusterIPs.length < 2) clusterIPs.push('');
      spec.clusterIPs = clusterIPs;
      const secondary = families[1] as IpFamily;
      const allocated = await this.allocate(name, spec, new Map([[secondary, clusterIPs[1]]]), o);
      clusterIPs[1] = allocated.get(secondary) ?? clusterIPs[1];
      return { allocated: o.dryRun ? new Map() : allocated, toRelease: new Map() };
    }
    if (oldFamilies.length === 2 && families.length === 1) {
      const toRelease: IPsByFamily = new Map();
      const ip = old.clusterIPs?.[1];
      if (ip) toRelease.set(oldFamilies[1] as IpFamily, ip);
      return { allocated: new Map(), toRelease };
    }
    return NO_CHANGE;
  }

  /** Frees addresses; families no longer configured are skipped. */
  async release(ips: IPsByFamily, signal?: AbortSignal): Promise<void> {
    for (const [family, ip] of ips) await this.allocatorFor(family)?.release([ip], signal);
  }

  /** The addresses a stored service holds (none for ExternalName and headless services). */
  held(spec: ServiceSpec): IPsByFamily {
    if (spec.type === 'ExternalName' || (spec.clusterIPs ?? [])[0] === CLUSTER_IP_NONE) return new Map();
    return ipsByFamily(spec);
  }
}

/** A service's cluster IPs keyed by the family of each address. */
function ipsByFamily(spec: ServiceSpec): IPsByFamily {
  const out: IPsByFamily = new Map();
  const ips = (spec.clusterIPs ?? []).length > 0 ? spec.clusterIPs! : spec.clusterIP ? [spec.clusterIP] : [];
  for (const ip of ips) {
    const parsed = parseIP(ip);
    if (parsed) out.set(parsed.is4 ? 'IPv4' : 'IPv6', ip);
  }
  return out;
}
