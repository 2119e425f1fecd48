import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain, isValidPathSegmentName, regexError } from '../meta/name-validation.js';
import { validateImmutableField } from '../meta/object-meta-validation.js';
import type { IngressClass } from './networking-types.js';

const MAX_CONTROLLER_LENGTH = 250;
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`);
const SCOPES = ['Cluster', 'Namespace'];

/** kube's `IsDomainPrefixedPath` (`acme.io/foo`). */
export function validateDomainPrefixedPath(path: string, value: string): FieldError[] {
  if (value === '') return [fieldErrors.required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || rest === '') {
    return [fieldErrors.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs = isDNS1123Subdomain(host).map((m) => fieldErrors.invalid(path, host, m));
  if (!HTTP_PATH_RE.test(rest)) errs.push(fieldErrors.invalid(path, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

/**
 * kube v1.32's `ValidateIngressClass` beyond metadata: a domain-prefixed `controller` of at most
 * 250 bytes; parameters with a DNS-subdomain API group, path-segment kind and name, a known scope
 * (a Namespace scope needs a namespace, a Cluster scope forbids one).
 */
export function validateIngressClass(ic: IngressClass): FieldError[] {
  const spec = ic.spec ?? {};
  const errs: FieldError[] = [];
  const controller = spec.controller ?? '';
  if (controller === '') errs.push(fieldErrors.required('spec.controller'));
  else {
    if (Buffer.byteLength(controller, 'utf8') > MAX_CONTROLLER_LENGTH) {
      errs.push(fieldErrors.tooLong('spec.controller', MAX_CONTROLLER_LENGTH));
    }
    errs.push(...validateDomainPrefixedPath('spec.controller', controller));
  }
  const params = spec.parameters;
  if (!params) return errs;
  const path = 'spec.parameters';
  if (params.apiGroup !== undefined) {
    for (const m of isDNS1123Subdomain(params.apiGroup))
      errs.push(fieldErrors.invalid(`${path}.apiGroup`, params.apiGroup, m));
  }
  for (const key of ['kind', 'name'] as const) {
    const value = params[key] ?? '';
    if (value === '') errs.push(fieldErrors.required(`${path}.${key}`));
    else for (const m of isValidPathSegmentName(value)) errs.push(fieldErrors.invalid(`${path}.${key}`, value, m));
  }
  if (params.scope === undefined) {
    errs.push(fieldErrors.required(`${path}.scope`));
    return errs;
  }
  if (!SCOPES.includes(params.scope)) errs.push(fieldErrors.notSupported(`${path}.scope`, params.scope, SCOPES));
  else {
    if (params.scope === 'Namespace') {
      if (params.namespace === undefined) {
        errs.push(fieldErrors.required(`${path}.namespace`, "`parameters.scope` is set to 'Namespace'"));
      } else {
        for (const m of isDNS1123Label(params.namespace))
          errs.push(fieldErrors.invalid(`${path}.namespace`, params.namespace, m));
      }
    }
    if (params.scope === 'Cluster' && params.namespace !== undefined) {
      errs.push(fieldErrors.forbidden(`${path}.namespace`, "`parameters.scope` is set to 'Cluster'"));
    }
  }
  return errs;
}

/** kube's `ValidateIngressClassUpdate`: `controller` is immutable, then everything above. */
export function validateIngressClassUpdate(ic: IngressClass, old: IngressClass): FieldError[] {
  return [
    ...validateImmutableField(ic.spec?.controller ?? '', old.spec?.controller ?? '', 'spec.controller'),
    ...validateIngressClass(ic),
  ];
}
