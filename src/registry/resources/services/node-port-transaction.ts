import { needsHealthCheck, type ServicePort, type ServiceSpec } from '../../../apis/core/service-types.js';
import { fieldErrors } from '../../../apis/meta/field-error.js';
import { apiErrors } from '../../../apis/meta/status.js';
import { AlreadyAllocatedError } from './allocation-errors.js';
import type { NodePortAllocator } from './node-port-allocator.js';

/** What a node port change did: ports to free if the write fails, ports to free once it succeeds. */
export interface NodePortChange {
  readonly allocated: readonly number[];
  readonly toRelease: readonly number[];
}

/** kube's `shouldAllocateNodePorts`: NodePort, or LoadBalancer unless it opted out. */
function shouldAllocate(spec: ServiceSpec): boolean {
  if (spec.type === 'NodePort') return true;
  return spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false;
}

function needsNodePorts(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

/** The node ports of a service's ports (kube's `collectServiceNodePorts`, without the health check port). */
export function portNodePorts(spec: ServiceSpec): number[] {
  return (spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0);
}

/** One node port a service needs: a requested number, or any, for the ports at `indexes`. */
interface Need {
  readonly requested?: number;
  /** Indexes into `spec.ports`; -1 is the health check node port. */
  readonly indexes: number[];
}

const HEALTH_CHECK = -1;

/**
 * The node port allocator used as kube's service storage uses it: all of a service's ports are
 * reserved in one write (all or nothing).
 */
export class NodePorts {
  constructor(readonly allocator: NodePortAllocator) {}

  /**
   * Reserves what `needs` ask for and writes the ports into `spec`. A dry run checks requested
   * ports against what is allocated and answers placeholder numbers (32769, 32770, ...) for the
   * others, as kube's dry-run port allocation does.
   * @throws StatusError: 422 at `spec.ports[i].nodePort` for a requested port, 500 otherwise.
   */
  private async reserve(
    name: string,
    spec: ServiceSpec,
    needs: readonly Need[],
    o: { readonly dryRun: boolean; readonly signal?: AbortSignal },
  ): Promise<number[]> {
    const specific = needs.filter((n) => n.requested !== undefined);
    const any = needs.filter((n) => n.requested === undefined);
    const request = { specific: specific.map((n) => n.requested!), next: any.length };
    const outcome = o.dryRun
      ? await this.dryRun(request, o.signal)
      : await this.allocator.allocateMany(request, o.signal);
    if (!outcome.ok) {
      const failed = outcome.index === undefined ? undefined : specific[outcome.index];
      if (!failed) {
        const what =
          any.some((n) => n.indexes.includes(HEALTH_CHECK)) && any.length === 1
            ? 'a HealthCheck NodePort'
            : 'a nodePort';
        throw apiErrors.internal(
          new Error(`failed to allocate ${what}: ${outcome.error.message}`, { cause: outcome.error }),
        );
      }
      const index = failed.indexes[0];
      if (index === HEALTH_CHECK) {
        throw apiErrors.internal(
          new Error(`failed to allocate requested HealthCheck NodePort ${failed.requested}: ${outcome.error.message}`),
        );
      }
      throw apiErrors.invalid({ group: '', kind: 'Service' }, name, [
        fieldErrors.invalid(`spec.ports[${index}].nodePort`, failed.requested, outcome.error.message),
      ]);
    }
    const picked = outcome.allocated.slice(specific.length);
    const assign = (need: Need, port: number) => {
      for (const index of need.indexes) {
        if (index === HEALTH_CHECK) spec.healthCheckNodePort = port;
        else (spec.ports as ServicePort[])[index].nodePort = port;
      }
    };
    for (const need of specific) assign(need, need.requested!);
    any.forEach((need, i) => {
      assign(need, picked[i]);
    });
    return o.dryRun ? [] : [...outcome.allocated];
  }

  private async dryRun(
    request: { specific: readonly number[]; next: number },
    signal?: AbortSignal,
  ): Promise<{ ok: true; allocated: number[] } | { ok: false; index: number; error: Error }> {
    const seen: number[] = [];
    for (const [index, port] of request.specific.entries()) {
      if (seen.includes(port) || (await this.allocator.has(port, signal))) {
        return { ok: false, index, error: new AlreadyAllocatedError('port') };
      }
      seen.push(port);
    }
    let last = seen.length === 0 ? 32768 : Math.max(...seen);
    for (let i = 0; i < request.next; i++) seen.push(++last);
    return { ok: true, allocated: seen };
  }

  /** kube's `initNodePorts` (+ the health check port): ports of one port number share a node port. */
  async allocateForCreate(
    name: string,
    spec: ServiceSpec,
    o: { readonly dryRun: boolean; readonly signal?: AbortSignal },
  ): Promise<number[]> {
    const needs: Need[] = [];
    if (needsNodePorts(spec)) {
      const byPort = new Map<number, Need>();
      const ports = spec.ports ?? [];
      ports.forEach((port, i) => {
        const nodePort = port.nodePort ?? 0;
        if (nodePort === 0 && !shouldAllocate(spec)) return;
        const shared = byPort.get(port.port ?? 0);
        if (!shared) {
          const requested = ports.find((p) => p.port === port.port && (p.nodePort ?? 0) !== 0)?.nodePort;
          const need: Need = { requested, indexes: [i] };
          needs.push(need);
          byPort.set(port.port ?? 0, need);
        } else if (nodePort === 0 || nodePort === shared.requested) {
          shared.indexes.push(i);
        } else needs.push({ requested: nodePort, indexes: [i] });
      });
    }
    if (needsHealthCheck(spec)) {
      needs.push({ requested: spec.healthCheckNodePort || undefined, indexes: [HEALTH_CHECK] });
    }
    if (needs.length === 0) return [];
    return this.reserve(name, spec, needs, o);
  }

  /**
   * kube's `txnUpdateNodePorts`: leaving NodePort/LoadBalancer frees the old ports after the
   * write; otherwise new numbers are reserved, missing ones picked, and old ones no longer used
   * freed after the write; the health check port follows `externalTrafficPolicy: Local`.
   */
  async change(
    name: string,
    spec: ServiceSpec,
    old: ServiceSpec,
    o: { readonly dryRun: boolean; readonly signal?: AbortSignal },
  ): Promise<NodePortChange> {
    const toRelease: number[] = [];
    const oldPorts = portNodePorts(old);
    if (needsNodePorts(old) && (spec.type === 'ExternalName' || spec.type === 'ClusterIP')) toRelease.push(...oldPorts);
    const needs: Need[] = [];
    if (needsNodePorts(spec)) {
      const requested = new Set<number>();
      const seen = new Set<string>();
      for (const [i, port] of (spec.ports ?? []).entries()) {
        const nodePort = port.nodePort ?? 0;
        if (nodePort === 0 && !shouldAllocate(spec)) continue;
        if (nodePort !== 0) {
          const key = `${port.protocol ?? ''}/${nodePort}`;
          if (seen.has(key))
            throw apiErrors.internal(new Error(`duplicate nodePort: {${port.protocol ?? ''} ${nodePort}}`));
          seen.add(key);
          if (!oldPorts.includes(nodePort) && !requested.has(nodePort)) {
            needs.push({ requested: nodePort, indexes: [i] });
            requested.add(nodePort);
          }
        } else needs.push({ indexes: [i] });
      }
    }
    const neededHC = needsHealthCheck(old);
    const needsHC = needsHealthCheck(spec);
    if (!neededHC && needsHC) needs.push({ requested: spec.healthCheckNodePort || undefined, indexes: [HEALTH_CHECK] });
    if (neededHC && !needsHC && old.healthCheckNodePort) toRelease.push(old.healthCheckNodePort);
    const allocated = needs.length > 0 ? await this.reserve(name, spec, needs, o) : [];
    if (needsNodePorts(spec)) {
      const now = portNodePorts(spec);
      for (const port of oldPorts) if (!now.includes(port) && !toRelease.includes(port)) toRelease.push(port);
    }
    return { allocated, toRelease };
  }

  /** The node ports a stored service holds, its health check port included. */
  held(spec: ServiceSpec): number[] {
    const ports = portNodePorts(spec);
    if (needsHealthCheck(spec) && (spec.healthCheckNodePort ?? 0) > 0) ports.push(spec.healthCheckNodePort!);
    return ports;
  }

  release(ports: readonly number[], signal?: AbortSignal): Promise<void> {
    return this.allocator.release(ports, signal);
  }
}
