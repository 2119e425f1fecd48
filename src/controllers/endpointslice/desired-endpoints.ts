import type { ApiDomain } from '../../apis/api-domain.js';
import { parseIP } from '../../apis/core/ip-address.js';
import type { Pod } from '../../apis/core/pod-types.js';
import type { Service } from '../../apis/core/service-types.js';
import type {
  EndpointSlice,
  EndpointSliceEndpoint,
  EndpointSlicePort,
} from '../../apis/discovery/endpoint-slice-types.js';
import type { ApiObject } from '../../apis/object.js';
import { canonicalJson } from '../deployment/pod-template-hash.js';
import { isPodReady, isPodTerminal } from '../replicaset/pod-status.js';

export type AddressType = 'IPv4' | 'IPv6';

/** The label names and the controller's own name, from the API domain (kube's under `k8s.io`). */
export interface SliceNames {
  /** `kubernetes.io/service-name`. */
  readonly serviceName: string;
  /** `endpointslice.kubernetes.io/managed-by`. */
  readonly managedBy: string;
  /** `endpointslice-controller.k8s.io`, the managed-by value. */
  readonly controllerName: string;
  /** `service.kubernetes.io/headless`. */
  readonly headless: string;
  /** `topology.kubernetes.io/zone` (a node label). */
  readonly zone: string;
}

export function sliceNames(domain: ApiDomain): SliceNames {
  return {
    serviceName: domain.key('', 'service-name'),
    managedBy: domain.key('endpointslice', 'managed-by'),
    controllerName: `endpointslice-controller.${domain.name}`,
    headless: domain.key('service', 'headless'),
    zone: domain.key('topology', 'zone'),
  };
}

function isIPv6(ip: string): boolean {
  return parseIP(ip)?.is4 === false;
}

/**
 * kube's `getAddressTypesForService`: from `spec.ipFamilies`; else the cluster IP's family; a
 * headless service without families gets both.
 */
export function addressTypesOf(svc: Service): Set<AddressType> {
  const families = svc.spec?.ipFamilies ?? [];
  const out = new Set<AddressType>();
  for (const f of families) if (f === 'IPv4' || f === 'IPv6') out.add(f);
  if (out.size > 0) return out;
  const ip = svc.spec?.clusterIP;
  if (ip && ip !== 'None') return new Set([isIPv6(ip) ? 'IPv6' : 'IPv4']);
  return new Set(['IPv4', 'IPv6']);
}

/** kube's `ShouldPodBeInEndpoints` (terminating pods included): not terminal, with an IP. */
export function podHasEndpoint(pod: Pod): boolean {
  if (isPodTerminal(pod)) return false;
  return Boolean(pod.status?.podIP) || (pod.status?.podIPs ?? []).length > 0;
}

/** kube's `FindPort`: a named target port from the containers' ports (same protocol), or the number. */
function findPort(
  pod: Pod,
  target: number | string | undefined,
  protocol: string,
  fallback: number,
): number | undefined {
  if (typeof target === 'number') return target;
  if (target === undefined || target === '') return fallback;
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
    }
  }
  return undefined;
}

/** kube's `getEndpointPorts`: one port per service port the pod resolves (headless without ports: none). */
export function endpointPorts(svc: Service, pod: Pod): EndpointSlicePort[] {
  const out: EndpointSlicePort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const protocol = sp.protocol ?? 'TCP';
    const port = findPort(pod, sp.targetPort, protocol, sp.port ?? 0);
    if (port === undefined) continue;
    out.push({
      name: sp.name ?? '',
      port,
      protocol,
      ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}),
    });
  }
  return out;
}

/** The key of a set of ports (kube's `PortMapKey`): independent of their order. */
export function portMapKey(ports: readonly EndpointSlicePort[] | null | undefined): string {
  return (ports ?? [])
    .map((p) => canonicalJson(p))
    .sort()
    .join('|');
}

/**
 * kube's `podToEndpoint`: the pod's first address of the family, `serving` = ready,
 * `terminating` = being deleted, `ready` = serving and not terminating (or the service publishes
 * not-ready addresses), the pod as target, its node and zone, and the hostname when the pod's
 * subdomain is the service.
 */
export function podToEndpoint(
  pod: Pod,
  node: ApiObject | undefined,
  svc: Service,
  addressType: AddressType,
  names: SliceNames,
): EndpointSliceEndpoint {
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip ?? '').filter(Boolean);
  if (ips.length === 0 && pod.status?.podIP) ips.push(pod.status.podIP);
  const address = ips.find((ip) => isIPv6(ip) === (addressType === 'IPv6'));
  const serving = isPodReady(pod);
  const terminating = Boolean(pod.metadata.deletionTimestamp);
  const ready = svc.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const ep: EndpointSliceEndpoint = {
    addresses: address ? [address] : [],
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
  };
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata.labels?.[names.zone];
  if (zone) ep.zone = zone;
  if (
    pod.spec?.hostname &&
    pod.spec.subdomain === svc.metadata.name &&
    pod.metadata.namespace === svc.metadata.namespace
  ) {
    ep.hostname = pod.spec.hostname;
  }
  return ep;
}

/** kube's endpoint hash: its addresses, hostname and target pod. */
export function endpointKey(ep: EndpointSliceEndpoint): string {
  const ref = ep.targetRef ?? {};
  return canonicalJson([[...(ep.addresses ?? [])].sort(), ep.hostname ?? '', ref.namespace ?? '', ref.name ?? '']);
}

/** kube's `EndpointsEqualBeyondHash`: conditions, node, zone, hints and target equal. */
export function endpointsEqual(a: EndpointSliceEndpoint, b: EndpointSliceEndpoint): boolean {
  const pick = (e: EndpointSliceEndpoint) =>
    canonicalJson({
      c: { r: e.conditions?.ready, s: e.conditions?.serving, t: e.conditions?.terminating },
      n: e.nodeName ?? null,
      z: e.zone ?? null,
      h: e.hints ?? null,
      t: e.targetRef ?? null,
    });
  return pick(a) === pick(b);
}

/**
 * kube's `setEndpointSliceLabels`: the service's labels (but the reserved ones), the headless
 * label for a service without a cluster IP, the service name and the managing controller; and
 * whether the slice's own copy of the service's labels differs.
 */
export function sliceLabels(
  slice: EndpointSlice | undefined,
  svc: Service,
  names: SliceNames,
): { labels: Record<string, string>; changed: boolean } {
  const reserved = new Set([names.serviceName, names.managedBy, names.headless]);
  const own = Object.entries(slice?.metadata.labels ?? {}).filter(([k]) => !reserved.has(k));
  const fromSvc = Object.entries(svc.metadata.labels ?? {}).filter(([k]) => !reserved.has(k));
  const changed = canonicalJson(Object.fromEntries(own)) !== canonicalJson(Object.fromEntries(fromSvc));
  const labels: Record<string, string> = Object.fromEntries(fromSvc);
  const ip = svc.spec?.clusterIP;
  if (!ip || ip === 'None') labels[names.headless] = '';
  labels[names.serviceName] = svc.metadata.name ?? '';
  labels[names.managedBy] = names.controllerName;
  return { labels, changed };
}

/** kube's `ownedBy`: the slice names the service (same uid) as an owner. */
export function ownedBy(slice: EndpointSlice, svc: Service): boolean {
  return (slice.metadata.ownerReferences ?? []).some(
    (r) => r.uid === svc.metadata.uid && r.kind === 'Service' && r.apiVersion === 'v1',
  );
}
