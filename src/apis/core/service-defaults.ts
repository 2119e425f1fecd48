import { isPlainObject } from '../schema/json-value.js';
import { arrayOf } from './json-shape.js';
import { type Endpoints, externallyAccessible, type Service, specOf } from './service-types.js';

/** kube's default ClientIP session affinity timeout (3 hours). */
export const DEFAULT_CLIENT_IP_TIMEOUT_SECONDS = 10800;

/**
 * kube v1.32's `SetDefaults_Service`, applied to every Service a client writes (kube runs it when
 * it decodes the request): `sessionAffinity: None` (its config dropped) or ClientIP's 3-hour
 * timeout; `type: ClusterIP`; each port's `protocol: TCP` and `targetPort` = `port` when unset,
 * 0 or empty; `externalTrafficPolicy: Cluster` on externally-accessible services;
 * `internalTrafficPolicy: Cluster` on ClusterIP, NodePort and LoadBalancer services;
 * `allocateLoadBalancerNodePorts: true` and load-balancer ingress `ipMode: VIP` (for ingress
 * points with an IP) on LoadBalancer services. Mutates `svc`.
 */
export function defaultService(svc: Service): void {
  // Defaults run before validation: fields of the wrong type are left for it to report.
  if (svc.spec !== undefined && !isPlainObject(svc.spec)) return;
  const spec = specOf(svc);
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT_SECONDS } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  for (const port of arrayOf(spec.ports)) {
    if (!isPlainObject(port)) continue;
    if (!port.protocol) port.protocol = 'TCP';
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') {
      port.targetPort = port.port ?? 0;
    }
  }
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type)) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
    const lb = isPlainObject(svc.status) ? svc.status.loadBalancer : undefined;
    for (const ingress of arrayOf(isPlainObject(lb) ? lb.ingress : undefined)) {
      if (isPlainObject(ingress) && ingress.ip && ingress.ipMode === undefined) ingress.ipMode = 'VIP';
    }
  }
}

/** kube's `SetDefaults_Endpoints`: ports without a protocol are TCP. Mutates `ep`. */
export function defaultEndpoints(ep: Endpoints): void {
  for (const subset of arrayOf(ep.subsets)) {
    for (const port of arrayOf(isPlainObject(subset) ? subset.ports : undefined)) {
      if (isPlainObject(port) && !port.protocol) port.protocol = 'TCP';
    }
  }
}
