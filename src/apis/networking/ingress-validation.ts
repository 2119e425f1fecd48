import { parseIP } from '../core/ip-address.js';
import { validateIngressPoints } from '../core/load-balancer-status-validation.js';
import { isValidPortName, validatePortNumber } from '../core/service-validation.js';
import { type FieldError, fieldErrors, invalidShown } from '../meta/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName, regexError } from '../meta/name-validation.js';
import type { HTTPIngressPath, Ingress, IngressBackend, IngressRule } from './networking-types.js';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const DNS1123_SUBDOMAIN_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const WILDCARD_FMT = `\\*\\.${DNS1123_SUBDOMAIN_FMT}`;
const WILDCARD_RE = new RegExp(`^${WILDCARD_FMT}$`);

/** kube's `IsWildcardDNS1123Subdomain`. */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!WILDCARD_RE.test(value)) {
    errs.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        WILDCARD_FMT,
        '*.example.com',
      ),
    );
  }
  return errs;
}

/** A host that is a DNS subdomain, or a wildcard one when it holds `*`. */
function validateHost(path: string, host: string): FieldError[] {
  const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
  return msgs.map((m) => fieldErrors.invalid(path, host, m));
}

function validateBackend(backend: IngressBackend, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const { service, resource } = backend;
  if (resource && service) return [fieldErrors.invalid(path, '', 'cannot set both resource and service backends')];
  if (resource) {
    const at = `${path}.resource`;
    if (resource.apiGroup !== undefined) {
      for (const m of isDNS1123Subdomain(resource.apiGroup))
        errs.push(fieldErrors.invalid(`${at}.apiGroup`, resource.apiGroup, m));
    }
    for (const key of ['kind', 'name'] as const) {
      const value = resource[key] ?? '';
      if (value === '') errs.push(fieldErrors.required(`${at}.${key}`));
      else for (const m of isValidPathSegmentName(value)) errs.push(fieldErrors.invalid(`${at}.${key}`, value, m));
    }
    return errs;
  }
  if (!service) return [fieldErrors.invalid(path, '', 'resource or service backend is required')];
  const name = service.name ?? '';
  if (name === '') errs.push(fieldErrors.required(`${path}.service.name`));
  else for (const m of isDNS1035Label(name)) errs.push(fieldErrors.invalid(`${path}.service.name`, name, m));
  const portName = service.port?.name ?? '';
  const portNumber = service.port?.number ?? 0;
  if (portName !== '' && portNumber !== 0)
    errs.push(fieldErrors.invalid(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') {
    for (const m of isValidPortName(portName)) errs.push(fieldErrors.invalid(`${path}.service.port.name`, portName, m));
  } else if (portNumber !== 0) errs.push(...validatePortNumber(`${path}.service.port.number`, portNumber));
  else errs.push(fieldErrors.required(path, 'port name or number is required'));
  return errs;
}

function validatePath(p: HTTPIngressPath, path: string): FieldError[] {
  if (p.pathType === undefined) return [fieldErrors.required(`${path}.pathType`, 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = p.path ?? '';
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(fieldErrors.invalid(`${path}.path`, value, 'must be an absolute path'));
      if (value.length > 0) {
        for (const seq of INVALID_PATH_SEQUENCES) {
          if (value.includes(seq)) errs.push(fieldErrors.invalid(`${path}.path`, value, `must not contain '${seq}'`));
        }
        for (const suffix of INVALID_PATH_SUFFIXES) {
          if (value.endsWith(suffix))
            errs.push(fieldErrors.invalid(`${path}.path`, value, `cannot end with '${suffix}'`));
        }
      }
      break;
    case 'ImplementationSpecific':
      if (value.length > 0 && !value.startsWith('/')) {
        errs.push(fieldErrors.invalid(`${path}.path`, value, 'must be an absolute path'));
      }
      break;
    default:
      errs.push(fieldErrors.notSupported(`${path}.pathType`, p.pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(p.backend ?? {}, `${path}.backend`));
  return errs;
}

function validateRuleValue(rule: IngressRule, path: string): FieldError[] {
  if (!rule.http) return [];
  const paths = rule.http.paths ?? [];
  const errs: FieldError[] = [];
  if (paths.length === 0) errs.push(fieldErrors.required(`${path}.http.paths`));
  paths.forEach((p, i) => {
    errs.push(...validatePath(p, `${path}.http.paths[${i}]`));
  });
  return errs;
}

/** Options kube derives from the stored object, so data it once accepted stays writable. */
export interface IngressValidationOptions {
  readonly allowInvalidSecretName: boolean;
  readonly allowInvalidWildcardHostRule: boolean;
}

function validateSpec(ingress: Ingress, o: IngressValidationOptions): FieldError[] {
  const spec = ingress.spec ?? {};
  const errs: FieldError[] = [];
  const rules = spec.rules ?? [];
  if (rules.length === 0 && !spec.defaultBackend) {
    // kube prints the (nil or empty) Go slice.
    const goRules = spec.rules === undefined ? '[]networking.IngressRule(nil)' : '[]networking.IngressRule{}';
    errs.push(invalidShown('spec', goRules, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  rules.forEach((rule, i) => {
    const path = `spec.rules[${i}]`;
    const host = rule.host ?? '';
    let wildcard = false;
    if (host !== '') {
      if (parseIP(host)) errs.push(fieldErrors.invalid(`${path}.host`, host, 'must be a DNS name, not an IP address'));
      wildcard = host.includes('*');
      errs.push(...validateHost(`${path}.host`, host));
    }
    if (!wildcard || !o.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, path));
  });
  (spec.tls ?? []).forEach((tls, i) => {
    (tls.hosts ?? []).forEach((host, j) => {
      errs.push(...validateHost(`spec.tls[${i}].hosts[${j}]`, host));
    });
    const secret = tls.secretName ?? '';
    if (!o.allowInvalidSecretName && secret !== '') {
      for (const m of isDNS1123Subdomain(secret))
        errs.push(fieldErrors.invalid(`spec.tls[${i}].secretName`, secret, m));
    }
  });
  if (spec.ingressClassName !== undefined) {
    for (const m of isDNS1123Subdomain(spec.ingressClassName)) {
      errs.push(fieldErrors.invalid('spec.ingressClassName', spec.ingressClassName, m));
    }
  }
  return errs;
}

/**
 * kube v1.32's `ValidateIngressCreate` beyond metadata: a default backend or rules; hosts DNS
 * (possibly wildcard) names, not IPs; HTTP paths with a known `pathType` and absolute, clean
 * paths; backends a service (DNS-1035 name, a port name or number) or a resource, not both; TLS
 * hosts and secret names; the class name; and the deprecated class annotation (`annotationKey`)
 * must agree with `ingressClassName`.
 */
export function validateIngressCreate(ingress: Ingress, annotationKey: string): FieldError[] {
  const errs = validateSpec(ingress, { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false });
  const annotation = ingress.metadata?.annotations?.[annotationKey];
  const className = ingress.spec?.ingressClassName;
  if (annotation !== undefined && className !== undefined && annotation !== className) {
    errs.push(
      fieldErrors.invalid(
        `annotations.${annotationKey}`,
        annotation,
        'must match `ingressClassName` when both are specified',
      ),
    );
  }
  return errs;
}

/**
 * kube's `ValidateIngressUpdate` beyond metadata: the create rules, except that invalid secret
 * names and rules under wildcard hosts stay allowed when the stored object already had them.
 */
export function validateIngressUpdate(ingress: Ingress, old: Ingress): FieldError[] {
  const oldSpec = old.spec ?? {};
  const allowInvalidSecretName = (oldSpec.tls ?? []).some(
    (t) => !!t.secretName && isDNS1123Subdomain(t.secretName).length > 0,
  );
  const allowInvalidWildcardHostRule = (oldSpec.rules ?? []).some(
    (r) => (r.host ?? '').includes('*') && validateRuleValue(r, '').length > 0,
  );
  return validateSpec(ingress, { allowInvalidSecretName, allowInvalidWildcardHostRule });
}

/** kube's `ValidateIngressStatusUpdate` beyond metadata: the load balancer's ingress points. */
export function validateIngressStatusUpdate(ingress: Ingress): FieldError[] {
  return validateIngressPoints(ingress.status?.loadBalancer?.ingress ?? [], 'status.loadBalancer.ingress', {
    ipModes: false,
  });
}
