import type { ApiDomain } from '../api-domain.js';
import { duplicateShown, type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../meta/name-validation.js';
import { validateLabels } from '../meta/object-meta-validation.js';
import { goServicePortKey } from './go-value-format.js';
import { parseCIDR } from './ip-address.js';
import { validateLoadBalancerStatus } from './load-balancer-status-validation.js';
import { validateNonSpecialIP } from './non-special-ip.js';
import {
  validateClusterIPsRelatedFields,
  validateClusterIPsUpdate,
  validateIP,
  validateIPFamiliesUpdate,
} from './service-ip-validation.js';
import {
  externallyAccessible,
  isHeadless,
  needsHealthCheck,
  type Service,
  type ServicePort,
  type ServiceSpec,
} from './service-types.js';

export const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'] as const;
export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'] as const;
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
/** kube's `MaxClientIPServiceAffinitySeconds` (one day). */
export const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;
const VALID_PORT_RANGE = 'must be between 1 and 65535, inclusive';

/** kube's `IsValidPortName` messages. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** kube's `IsValidPortNum`. */
export function validatePortNumber(path: string, port: number | undefined): FieldError[] {
  const n = port ?? 0;
  return n >= 1 && n <= 65535 ? [] : [fieldErrors.invalid(path, n, VALID_PORT_RANGE)];
}

/** kube's `ValidatePortNumOrName` (an `IntOrString` port: a number, or a port name). */
export function validatePortNumOrName(path: string, port: number | string | undefined): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((m) => fieldErrors.invalid(path, port, m));
  return validatePortNumber(path, port);
}

/** kube's `ValidateDNS1123Label`. */
export function validateDNSLabel(path: string, value: string): FieldError[] {
  return isDNS1123Label(value).map((m) => fieldErrors.invalid(path, value, m));
}

function validateServicePort(
  port: ServicePort,
  o: { requireName: boolean; names: Set<string>; path: string },
): FieldError[] {
  const errs: FieldError[] = [];
  const name = port.name ?? '';
  if (o.requireName && name === '') errs.push(fieldErrors.required(`${o.path}.name`));
  else if (name !== '') {
    errs.push(...validateDNSLabel(`${o.path}.name`, name));
    if (o.names.has(name)) errs.push(fieldErrors.duplicate(`${o.path}.name`, name));
    else o.names.add(name);
  }
  errs.push(...validatePortNumber(`${o.path}.port`, port.port));
  if (!port.protocol) errs.push(fieldErrors.required(`${o.path}.protocol`));
  else if (!(PORT_PROTOCOLS as readonly string[]).includes(port.protocol)) {
    errs.push(fieldErrors.notSupported(`${o.path}.protocol`, port.protocol, PORT_PROTOCOLS));
  }
  errs.push(...validatePortNumOrName(`${o.path}.targetPort`, port.targetPort));
  if (port.appProtocol !== undefined) {
    errs.push(
      ...isQualifiedName(port.appProtocol).map((m) =>
        fieldErrors.invalid(`${o.path}.appProtocol`, port.appProtocol, m),
      ),
    );
  }
  return errs;
}

function validateClientIPAffinity(spec: ServiceSpec): FieldError[] {
  const path = 'spec.sessionAffinityConfig';
  const detail = 'when session affinity type is ClientIP';
  const config = spec.sessionAffinityConfig;
  if (!config) return [fieldErrors.required(path, detail)];
  if (!config.clientIP) return [fieldErrors.required(`${path}.clientIP`, detail)];
  const timeout = config.clientIP.timeoutSeconds;
  if (timeout === undefined) return [fieldErrors.required(`${path}.clientIP.timeoutSeconds`, detail)];
  if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS) {
    return [
      fieldErrors.invalid(
        `${path}.clientIP.timeoutSeconds`,
        timeout,
        `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`,
      ),
    ];
  }
  return [];
}

function validateTrafficPolicies(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (!externallyAccessible(spec)) {
    if (spec.externalTrafficPolicy) {
      errs.push(
        fieldErrors.invalid(
          'spec.externalTrafficPolicy',
          spec.externalTrafficPolicy,
          'may only be set for externally-accessible services',
        ),
      );
    }
  } else if (!spec.externalTrafficPolicy) errs.push(fieldErrors.required('spec.externalTrafficPolicy'));
  else if (!TRAFFIC_POLICIES.includes(spec.externalTrafficPolicy)) {
    errs.push(fieldErrors.notSupported('spec.externalTrafficPolicy', spec.externalTrafficPolicy, TRAFFIC_POLICIES));
  }
  const hc = spec.healthCheckNodePort ?? 0;
  if (!needsHealthCheck(spec)) {
    if (hc !== 0) {
      errs.push(
        fieldErrors.invalid(
          'spec.healthCheckNodePort',
          hc,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
    }
  } else if (hc === 0) errs.push(fieldErrors.required('spec.healthCheckNodePort'));
  else errs.push(...validatePortNumber('spec.healthCheckNodePort', hc));
  if (spec.internalTrafficPolicy === undefined) {
    // kube requires it only for these types (ExternalName services written before were left alone).
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') {
      errs.push(fieldErrors.required('spec.internalTrafficPolicy'));
    }
  } else if (!TRAFFIC_POLICIES.includes(spec.internalTrafficPolicy)) {
    errs.push(fieldErrors.notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, TRAFFIC_POLICIES));
  }
  if (spec.trafficDistribution !== undefined && spec.trafficDistribution !== 'PreferClose') {
    errs.push(fieldErrors.notSupported('spec.trafficDistribution', spec.trafficDistribution, ['PreferClose']));
  }
  return errs;
}

function validateSourceRanges(svc: Service, spec: ServiceSpec, annotationKey: string): FieldError[] {
  const errs: FieldError[] = [];
  const invalidCidr = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
  const ranges = spec.loadBalancerSourceRanges ?? [];
  const annotations = svc.metadata?.annotations ?? {};
  if (ranges.length > 0) {
    const path = 'spec.LoadBalancerSourceRanges';
    if (spec.type !== 'LoadBalancer')
      errs.push(fieldErrors.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((raw, i) => {
      // Values may be space-padded (a leftover of the annotation they replaced).
      const value = raw.trim();
      if (!parseCIDR(value)) errs.push(fieldErrors.invalid(`${path}[${i}]`, value, invalidCidr));
    });
  } else if (Object.hasOwn(annotations, annotationKey)) {
    const path = `metadata.annotations[${annotationKey}]`;
    if (spec.type !== 'LoadBalancer')
      errs.push(fieldErrors.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const value = annotations[annotationKey].trim();
    if (value !== '') {
      for (const part of value.split(',')) {
        const cidr = part.trim();
        if (!parseCIDR(cidr)) errs.push(fieldErrors.invalid(path, cidr, invalidCidr));
      }
    }
  }
  return errs;
}

function validateLoadBalancerClass(spec: ServiceSpec, old: ServiceSpec | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const path = 'spec.loadBalancerClass';
  if (
    old &&
    old.type === 'LoadBalancer' &&
    spec.type === 'LoadBalancer' &&
    old.loadBalancerClass !== spec.loadBalancerClass
  ) {
    errs.push(fieldErrors.invalid(path, spec.loadBalancerClass ?? null, 'may not change once set'));
  }
  if (spec.type === 'LoadBalancer') {
    if (spec.loadBalancerClass !== undefined) {
      errs.push(
        ...isQualifiedName(spec.loadBalancerClass).map((m) => fieldErrors.invalid(path, spec.loadBalancerClass, m)),
      );
    }
  } else if (spec.loadBalancerClass !== undefined) {
    errs.push(fieldErrors.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

/** The annotation keys validation reads, named after the API domain. */
export interface ServiceAnnotationKeys {
  /** `service.kubernetes.io/topology-mode`. */
  readonly topologyMode: string;
  /** `service.kubernetes.io/topology-aware-hints` (deprecated). */
  readonly topologyAwareHints: string;
  /** `service.beta.kubernetes.io/load-balancer-source-ranges`. */
  readonly loadBalancerSourceRanges: string;
}

export function serviceAnnotationKeys(domain: ApiDomain): ServiceAnnotationKeys {
  return {
    topologyMode: domain.key('service', 'topology-mode'),
    topologyAwareHints: domain.key('service', 'topology-aware-hints'),
    loadBalancerSourceRanges: domain.key('service.beta', 'load-balancer-source-ranges'),
  };
}

function validateSpecFields(svc: Service, spec: ServiceSpec, keys: ServiceAnnotationKeys): FieldError[] {
  const errs: FieldError[] = [];
  const annotations = svc.metadata?.annotations ?? {};
  const hints = annotations[keys.topologyAwareHints];
  const mode = annotations[keys.topologyMode];
  if (hints !== undefined && mode !== undefined && hints !== mode) {
    errs.push(
      fieldErrors.invalid(
        `metadata.annotations[${keys.topologyMode}]`,
        mode,
        `must match annotations[${keys.topologyAwareHints}] when both are specified`,
      ),
    );
  }
  const ports = spec.ports ?? [];
  const headless = isHeadless(spec);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(fieldErrors.required('spec.ports'));
  if ((spec.type === 'LoadBalancer' || spec.type === 'NodePort') && headless) {
    errs.push(
      fieldErrors.invalid(
        'spec.clusterIPs[0]',
        spec.clusterIPs?.[0],
        `may not be set to 'None' for ${spec.type} services`,
      ),
    );
  }
  if (spec.type === 'ExternalName') {
    if ((spec.clusterIPs ?? []).length > 0)
      errs.push(fieldErrors.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if ((spec.ipFamilies ?? []).length > 0)
      errs.push(fieldErrors.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined) {
      errs.push(fieldErrors.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    }
    // The name (a CNAME) may end with a dot, marking it fully qualified.
    const cname = (spec.externalName ?? '').replace(/\.$/, '');
    if (cname === '') errs.push(fieldErrors.required('spec.externalName'));
    else errs.push(...isDNS1123Subdomain(cname).map((m) => fieldErrors.invalid('spec.externalName', cname, m)));
  }
  const names = new Set<string>();
  ports.forEach((port, i) => {
    errs.push(...validateServicePort(port, { requireName: ports.length > 1, names, path: `spec.ports[${i}]` }));
  });
  if (spec.selector !== undefined) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  if (!spec.sessionAffinity) errs.push(fieldErrors.required('spec.sessionAffinity'));
  else if (!SESSION_AFFINITIES.includes(spec.sessionAffinity)) {
    errs.push(fieldErrors.notSupported('spec.sessionAffinity', spec.sessionAffinity, SESSION_AFFINITIES));
  }
  if (spec.sessionAffinity === 'ClientIP') errs.push(...validateClientIPAffinity(spec));
  else if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig !== undefined) {
    errs.push(fieldErrors.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPsRelatedFields(spec));
  (spec.externalIPs ?? []).forEach((ip, i) => {
    const path = `spec.externalIPs[${i}]`;
    const ipErrs = validateIP(path, ip);
    errs.push(...(ipErrs.length > 0 ? ipErrs : validateNonSpecialIP(ip, path)));
  });
  if (!spec.type) errs.push(fieldErrors.required('spec.type'));
  else if (!(SERVICE_TYPES as readonly string[]).includes(spec.type)) {
    errs.push(fieldErrors.notSupported('spec.type', spec.type, SERVICE_TYPES));
  }
  return errs;
}

function validatePortUniqueness(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const ports = spec.ports ?? [];
  if (spec.type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if ((p.nodePort ?? 0) !== 0) {
        errs.push(fieldErrors.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
      }
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if ((p.nodePort ?? 0) === 0) return;
    const key = `${p.protocol ?? ''}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push(fieldErrors.duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
    nodePorts.add(key);
  });
  const pairs = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${p.protocol ?? ''}/${p.port ?? 0}`;
    if (pairs.has(key)) {
      errs.push(
        duplicateShown(`spec.ports[${i}]`, goServicePortKey({ protocol: p.protocol ?? '', port: p.port ?? 0 })),
      );
    }
    pairs.add(key);
  });
  return errs;
}

/**
 * kube v1.32's `ValidateService` beyond metadata, every error at once: ports (required unless
 * headless or ExternalName; range; names required when more than one, DNS labels, unique; unique
 * protocol/port and protocol/nodePort pairs; node ports only off ClusterIP), type-specific rules
 * (`None` not for NodePort/LoadBalancer, ExternalName needs `externalName` and no cluster IPs),
 * selector labels, session affinity, cluster IPs and IP families, external IPs, `type`, source
 * ranges, `allocateLoadBalancerNodePorts`, `loadBalancerClass`, traffic policies.
 */
export function validateService(svc: Service, keys: ServiceAnnotationKeys, old?: Service): FieldError[] {
  const spec = svc.spec ?? {};
  const errs = validateSpecFields(svc, spec, keys);
  errs.push(...validatePortUniqueness(spec));
  errs.push(...validateSourceRanges(svc, spec, keys.loadBalancerSourceRanges));
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.type !== 'LoadBalancer') {
    errs.push(
      fieldErrors.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"),
    );
  }
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) {
    // kube's path lacks the `spec.` prefix.
    errs.push(fieldErrors.required('allocateLoadBalancerNodePorts'));
  }
  if (old === undefined) errs.push(...validateLoadBalancerClass(spec, undefined));
  errs.push(...validateTrafficPolicies(spec));
  return errs;
}

/**
 * kube's `ValidateServiceUpdate` beyond metadata: cluster IPs and IP families may be added or (to
 * SingleStack) dropped but not changed, the load balancer class and (while needed) the health
 * check node port are immutable, then everything `validateService` checks.
 */
export function validateServiceUpdate(svc: Service, old: Service, keys: ServiceAnnotationKeys): FieldError[] {
  const spec = svc.spec ?? {};
  const oldSpec = old.spec ?? {};
  const errs = [...validateClusterIPsUpdate(spec, oldSpec), ...validateIPFamiliesUpdate(spec, oldSpec)];
  errs.push(...validateLoadBalancerClass(spec, oldSpec));
  if (needsHealthCheck(oldSpec) && needsHealthCheck(spec) && spec.healthCheckNodePort !== oldSpec.healthCheckNodePort) {
    errs.push(fieldErrors.forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  errs.push(...validateService(svc, keys, old));
  return errs;
}

/** kube's `ValidateServiceStatusUpdate` beyond metadata: the load balancer status. */
export function validateServiceStatusUpdate(svc: Service): FieldError[] {
  return validateLoadBalancerStatus(svc.status?.loadBalancer ?? {}, 'status.loadBalancer', svc.spec ?? {});
}
