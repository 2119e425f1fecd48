import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Subdomain } from '../meta/name-validation.js';
import { parseIP } from './ip-address.js';
import { validateIP } from './service-ip-validation.js';
import type { LoadBalancerIngress, ServiceSpec } from './service-types.js';

const IP_MODES = ['Proxy', 'VIP'];

/**
 * kube v1.32's `ValidateLoadBalancerStatus` of a Service (gate AllowServiceLBStatusOnNonLB off,
 * LoadBalancerIPMode on): ingress points only on LoadBalancer services; each `ip` valid and
 * with an `ipMode` (VIP or Proxy, only with an `ip`); each `hostname` a DNS subdomain, not an IP.
 */
export function validateLoadBalancerStatus(
  status: { ingress?: LoadBalancerIngress[] },
  path: string,
  spec: ServiceSpec,
): FieldError[] {
  const ingress = status.ingress ?? [];
  const ingressPath = `${path}.ingress`;
  if (spec.type !== 'LoadBalancer' && ingress.length !== 0) {
    return [fieldErrors.forbidden(ingressPath, "may only be used when `spec.type` is 'LoadBalancer'")];
  }
  return validateIngressPoints(ingress, ingressPath, { ipModes: true });
}

/**
 * The ingress points of a load balancer status (Service and Ingress share the address rules;
 * only a Service's carry `ipMode`).
 */
export function validateIngressPoints(
  ingress: readonly LoadBalancerIngress[],
  ingressPath: string,
  o: { readonly ipModes: boolean },
): FieldError[] {
  const errs: FieldError[] = [];
  ingress.forEach((point, i) => {
    const at = `${ingressPath}[${i}]`;
    if (point.ip) errs.push(...validateIP(`${at}.ip`, point.ip));
    if (o.ipModes) {
      if (point.ipMode === undefined) {
        if (point.ip) errs.push(fieldErrors.required(`${at}.ipMode`, 'must be specified when `ip` is set'));
      } else if (!point.ip) {
        errs.push(fieldErrors.forbidden(`${at}.ipMode`, 'may not be specified when `ip` is not set'));
      } else if (!IP_MODES.includes(point.ipMode)) {
        errs.push(fieldErrors.notSupported(`${at}.ipMode`, point.ipMode, IP_MODES));
      }
    }
    if (point.hostname) {
      for (const msg of isDNS1123Subdomain(point.hostname))
        errs.push(fieldErrors.invalid(`${at}.hostname`, point.hostname, msg));
      if (parseIP(point.hostname)) {
        errs.push(fieldErrors.invalid(`${at}.hostname`, point.hostname, 'must be a DNS name, not an IP address'));
      }
    }
  });
  return errs;
}
