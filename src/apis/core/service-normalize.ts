import {
  externallyAccessible,
  needsClusterIP,
  needsHealthCheck,
  needsNodePort,
  type Service,
  type ServiceSpec,
  sameStrings,
  specOf,
} from './service-types.js';

/**
 * The parts of kube v1.32's Service strategy and REST storage that adjust a Service before it is
 * validated (all pure, all mutate the new object).
 */

/** A fresh Service's status: kube's zero `ServiceStatus` serializes as `{loadBalancer: {}}`. */
export function emptyServiceStatus(): Service['status'] {
  return { loadBalancer: {} };
}

/**
 * kube's `NormalizeClusterIPs`: keeps `clusterIP` and `clusterIPs` in step for clients that set
 * only the singular field (on create it fills the plural; on update an omitted plural keeps the
 * old one, a cleared singular clears an unchanged plural, a changed singular replaces an
 * unchanged plural).
 */
export function normalizeClusterIPs(spec: ServiceSpec, old: ServiceSpec | undefined): void {
  if (!old) {
    if (spec.clusterIP && (spec.clusterIPs ?? []).length === 0) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  if ((old.clusterIPs ?? []).length > 0 && (spec.clusterIPs ?? []).length === 0) {
    if ((old.clusterIP ?? '') === (spec.clusterIP ?? '')) spec.clusterIPs = old.clusterIPs;
  }
  if ((old.clusterIP ?? '') !== (spec.clusterIP ?? '')) {
    if (old.clusterIP && !spec.clusterIP) {
      if (sameStrings(old.clusterIPs, spec.clusterIPs)) delete spec.clusterIPs;
    } else if (sameStrings(old.clusterIPs, spec.clusterIPs)) {
      spec.clusterIPs = [spec.clusterIP ?? ''];
    }
  }
}

function nodePortsOf(spec: ServiceSpec): Set<number> {
  return new Set((spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0));
}

/**
 * kube's `patchAllocatedValues`: values the server allocated survive an update that omits them
 * (resubmitting the original manifest works): cluster IPs, node ports (matched by port name,
 * unless the new object already uses that port) and the health check node port.
 */
export function patchAllocatedValues(spec: ServiceSpec, old: ServiceSpec): void {
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (!spec.clusterIP && old.clusterIP) spec.clusterIP = old.clusterIP;
    if ((spec.clusterIPs ?? []).length === 0 && (old.clusterIPs ?? []).length > 0) spec.clusterIPs = old.clusterIPs;
  }
  if (needsNodePort(old) && needsNodePort(spec)) {
    const oldPorts = nodePortsOf(old);
    const newPorts = nodePortsOf(spec);
    const used = new Set([...oldPorts].filter((p) => newPorts.has(p)));
    const byName = new Map<string, number>();
    for (const p of old.ports ?? []) byName.set(p.name ?? '', p.nodePort ?? 0);
    for (const p of spec.ports ?? []) {
      if ((p.nodePort ?? 0) !== 0) continue;
      const previous = byName.get(p.name ?? '') ?? 0;
      if (previous !== 0 && !used.has(previous)) p.nodePort = previous;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(spec) && !spec.healthCheckNodePort && old.healthCheckNodePort) {
    spec.healthCheckNodePort = old.healthCheckNodePort;
  }
}

/**
 * kube's `dropTypeDependentFields`: on a type change, fields the new type does not use are
 * cleared when the client left them as they were (so they can be released): cluster IPs, IP
 * families and policy (to ExternalName), node ports, the health check node port,
 * `allocateLoadBalancerNodePorts`, `loadBalancerClass`, `externalTrafficPolicy`; and the
 * load-balancer status of a service that is no longer a LoadBalancer.
 */
export function dropTypeDependentFields(svc: Service, old: Service): void {
  const spec = specOf(svc);
  const oldSpec = old.spec ?? {};
  if (needsClusterIP(oldSpec) && !needsClusterIP(spec)) {
    if ((oldSpec.clusterIP ?? '') === (spec.clusterIP ?? '') && sameStrings(oldSpec.clusterIPs, spec.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameStrings(oldSpec.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if (oldSpec.ipFamilyPolicy === spec.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(oldSpec) && !needsNodePort(spec)) {
    const oldPorts = nodePortsOf(oldSpec);
    // Unchanged means: no node port the old object did not have.
    if ([...nodePortsOf(spec)].every((p) => oldPorts.has(p))) {
      for (const p of spec.ports ?? []) delete p.nodePort;
    }
  }
  if (
    needsHealthCheck(oldSpec) &&
    !needsHealthCheck(spec) &&
    oldSpec.healthCheckNodePort === spec.healthCheckNodePort
  ) {
    delete spec.healthCheckNodePort;
  }
  if (oldSpec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (
      spec.allocateLoadBalancerNodePorts !== undefined &&
      oldSpec.allocateLoadBalancerNodePorts === spec.allocateLoadBalancerNodePorts
    ) {
      delete spec.allocateLoadBalancerNodePorts;
    }
    if (oldSpec.loadBalancerClass === spec.loadBalancerClass) delete spec.loadBalancerClass;
  }
  if (externallyAccessible(oldSpec) && !externallyAccessible(spec)) {
    if (oldSpec.externalTrafficPolicy === spec.externalTrafficPolicy) delete spec.externalTrafficPolicy;
  }
  if (spec.type !== 'LoadBalancer' && svc.status) svc.status.loadBalancer = {};
}

/** The main resource's create: status is the server's; cluster IP fields normalized. */
export function prepareServiceForCreate(svc: Service): void {
  svc.status = emptyServiceStatus();
  normalizeClusterIPs(specOf(svc), undefined);
}

/**
 * The main resource's update: status stays the stored one; allocated values are carried over,
 * cluster IP fields normalized, fields of a former type dropped.
 */
export function prepareServiceForUpdate(svc: Service, old: Service): void {
  svc.status = structuredClone(old.status ?? emptyServiceStatus());
  const spec = specOf(svc);
  const oldSpec = old.spec ?? {};
  patchAllocatedValues(spec, oldSpec);
  normalizeClusterIPs(spec, oldSpec);
  dropTypeDependentFields(svc, old);
}
