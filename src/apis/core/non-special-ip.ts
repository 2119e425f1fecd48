import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isLinkLocalMulticast, isLinkLocalUnicast, isLoopback, isUnspecified, parseIP } from './ip-address.js';

/**
 * kube's `ValidateNonSpecialIP` (Endpoints, EndpointSlices, external IPs): no unspecified,
 * loopback, link-local or link-local multicast address; each problem reported.
 */
export function validateNonSpecialIP(value: string, path: string): FieldError[] {
  const ip = parseIP(value);
  if (!ip) return [fieldErrors.invalid(path, value, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  if (isUnspecified(ip)) errs.push(fieldErrors.invalid(path, value, `may not be unspecified (${value})`));
  if (isLoopback(ip))
    errs.push(fieldErrors.invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (isLinkLocalUnicast(ip)) {
    errs.push(fieldErrors.invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  }
  if (isLinkLocalMulticast(ip)) {
    errs.push(
      fieldErrors.invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'),
    );
  }
  return errs;
}
