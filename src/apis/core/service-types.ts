import type { ApiObject } from '../object.js';

/**
 * core/v1 Service and Endpoints as the rules in this folder read them (JSON objects that passed
 * the schema, so fields have their schema types; any may be absent).
 */

/** `None`: a headless service. */
export const CLUSTER_IP_NONE = 'None';

export interface ServicePort {
  name?: string;
  protocol?: string;
  appProtocol?: string;
  port?: number;
  /** An int or a string (`IntOrString`). */
  targetPort?: number | string;
  nodePort?: number;
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: string;
  externalIPs?: string[];
  sessionAffinity?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: string;
  trafficDistribution?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: string;
  ports?: { port?: number; protocol?: string; error?: string }[];
}

export interface ServiceStatus {
  loadBalancer?: { ingress?: LoadBalancerIngress[] };
  conditions?: unknown[];
}

export interface Service extends ApiObject {
  spec?: ServiceSpec;
  status?: ServiceStatus;
}

export interface EndpointAddress {
  ip?: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: Record<string, unknown>;
}

export interface EndpointPort {
  name?: string;
  port?: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends ApiObject {
  subsets?: EndpointSubset[];
}

/** The spec of a service, created when absent (mutates `svc`). */
export function specOf(svc: Service): ServiceSpec {
  if (!svc.spec || typeof svc.spec !== 'object') svc.spec = {};
  return svc.spec;
}

/** kube's `ExternallyAccessible`: LoadBalancer, NodePort, or ClusterIP with external IPs. */
export function externallyAccessible(spec: ServiceSpec): boolean {
  return (
    spec.type === 'LoadBalancer' ||
    spec.type === 'NodePort' ||
    (spec.type === 'ClusterIP' && (spec.externalIPs?.length ?? 0) > 0)
  );
}

/** kube's `NeedsHealthCheck`: a LoadBalancer service with `externalTrafficPolicy: Local`. */
export function needsHealthCheck(spec: ServiceSpec): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

/** Every type but ExternalName has cluster IPs (or `None`). */
export function needsClusterIP(spec: ServiceSpec): boolean {
  return spec.type !== 'ExternalName';
}

/** NodePort and LoadBalancer services use node ports. */
export function needsNodePort(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

/** kube's `isHeadlessService`: exactly one cluster IP, `None`. */
export function isHeadless(spec: ServiceSpec): boolean {
  return spec.clusterIPs?.length === 1 && spec.clusterIPs[0] === CLUSTER_IP_NONE;
}

export function sameStrings(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function isObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isStringList(v: unknown): boolean {
  return v === undefined || (Array.isArray(v) && v.every((s) => typeof s === 'string'));
}

/**
 * The service has the JSON shape the normalization code relies on (it runs before validation,
 * which reports anything else): spec and status objects, ports a list of objects, the cluster
 * IP, family and external IP lists lists of strings.
 */
export function hasServiceShape(svc: Service): boolean {
  const spec = svc.spec as unknown;
  if (spec !== undefined && !isObject(spec)) return false;
  if (svc.status !== undefined && !isObject(svc.status)) return false;
  const s = (spec ?? {}) as Record<string, unknown>;
  if (s.ports !== undefined && !(Array.isArray(s.ports) && s.ports.every(isObject))) return false;
  return isStringList(s.clusterIPs) && isStringList(s.ipFamilies) && isStringList(s.externalIPs);
}
