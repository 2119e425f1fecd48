import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { invalidStrings } from './go-value-format.js';
import { isIPv6String, parseIP } from './ip-address.js';
import { CLUSTER_IP_NONE, isHeadless, type ServiceSpec } from './service-types.js';

/** The IP families a service may name. */
export const IP_FAMILIES = ['IPv4', 'IPv6'] as const;
/** The IP family policies a service may name. */
export const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'] as const;

/** kube's `IsValidIP` message. */
export const INVALID_IP_MESSAGE = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** kube's `IsValidIP`: the errors of `value` at `path` (none when valid). */
export function validateIP(path: string, value: string): FieldError[] {
  return parseIP(value) ? [] : [fieldErrors.invalid(path, value, INVALID_IP_MESSAGE)];
}

/**
 * kube v1.32's `ValidateServiceClusterIPsRelatedFields`: `clusterIP` and `clusterIPs[0]` agree;
 * `ipFamilies` are known and unique; `ipFamilyPolicy` is known; `clusterIPs` are valid IPs (`None`
 * only alone), at most two, one per family, each of the family its `ipFamilies` entry names.
 * ExternalName services are checked elsewhere (they may set none of these).
 */
export function validateClusterIPsRelatedFields(spec: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const clusterIPs = spec.clusterIPs ?? [];
  const families = spec.ipFamilies ?? [];
  if (spec.clusterIP) {
    if (clusterIPs.length === 0) errs.push(fieldErrors.required('spec.clusterIPs'));
    else if (clusterIPs[0] !== spec.clusterIP) {
      errs.push(invalidStrings('spec.clusterIPs', clusterIPs, 'first value must match `clusterIP`'));
    }
  } else if (clusterIPs.length > 0) {
    errs.push(invalidStrings('spec.clusterIPs', clusterIPs, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  families.forEach((family, i) => {
    const path = `spec.ipFamilies[${i}]`;
    if (!(IP_FAMILIES as readonly string[]).includes(family)) {
      errs.push(fieldErrors.notSupported(path, family, IP_FAMILIES));
    }
    if (seen.has(family)) errs.push(fieldErrors.duplicate(path, family));
    seen.add(family);
  });
  if (spec.ipFamilyPolicy !== undefined && !(IP_FAMILY_POLICIES as readonly string[]).includes(spec.ipFamilyPolicy)) {
    errs.push(fieldErrors.notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, IP_FAMILY_POLICIES));
  }
  let hasInvalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === CLUSTER_IP_NONE) {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(invalidStrings('spec.clusterIPs', clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = validateIP(`spec.clusterIPs[${i}]`, ip);
    if (ipErrs.length > 0) hasInvalidIPs = true;
    errs.push(...ipErrs);
  });
  if (clusterIPs.length > 2) errs.push(invalidStrings('spec.clusterIPs', clusterIPs, 'may only hold up to 2 values'));
  // Bad addresses would make the family checks below report nonsense.
  if (hasInvalidIPs) return errs;
  if (clusterIPs.length > 1) {
    const v6 = clusterIPs.map(isIPv6String);
    const dualStack = v6.length === 2 && v6[0] !== v6[1];
    if (!dualStack) {
      errs.push(invalidStrings('spec.clusterIPs', clusterIPs, 'may specify no more than one IP for each IP family'));
    }
  }
  if (!isHeadless(spec) && clusterIPs.length > 0 && families.length > 0) {
    clusterIPs.forEach((ip, i) => {
      if (i > families.length - 1) return;
      if (families[i] === 'IPv4' && isIPv6String(ip)) {
        errs.push(
          fieldErrors.invalid(
            `spec.clusterIPs[${i}]`,
            ip,
            `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
      }
      if (families[i] === 'IPv6' && !isIPv6String(ip)) {
        errs.push(
          fieldErrors.invalid(
            `spec.clusterIPs[${i}]`,
            ip,
            `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
      }
    });
  }
  return errs;
}

const MAY_NOT_CHANGE = 'may not change once set';

/**
 * kube's `validateUpgradeDowngradeClusterIPs`: an update may add a secondary cluster IP or, with
 * `ipFamilyPolicy: SingleStack`, drop it, but never change one (ExternalName and headless
 * services excepted).
 */
export function validateClusterIPsUpdate(spec: ServiceSpec, old: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName' || old.type === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(old)) return [];
  const errs: FieldError[] = [];
  const now = spec.clusterIPs ?? [];
  const before = old.clusterIPs ?? [];
  if (before.length === now.length) {
    before.forEach((ip, i) => {
      if (ip !== now[i]) errs.push(invalidStrings(`spec.clusterIPs[${i}]`, now, MAY_NOT_CHANGE));
    });
  } else if (before.length > now.length) {
    if (now.length === 0) errs.push(invalidStrings('spec.clusterIPs[0]', now, 'primary clusterIP can not be unset'));
    if (before.length > 0 && now.length > 0 && now[0] !== before[0]) {
      errs.push(invalidStrings('spec.clusterIPs[0]', now, MAY_NOT_CHANGE));
    }
    if (now.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(
        fieldErrors.invalid(
          'spec.ipFamilyPolicy',
          spec.ipFamilyPolicy ?? null,
          "must be set to 'SingleStack' when releasing the secondary clusterIP",
        ),
      );
    }
  } else if (before.length > 0 && now[0] !== before[0]) {
    errs.push(invalidStrings('spec.clusterIPs[0]', now, MAY_NOT_CHANGE));
  }
  return errs;
}

/**
 * kube's `validateUpgradeDowngradeIPFamilies`: the same rules for `ipFamilies` (headless services
 * may change them). kube reports some of these with the cluster IPs as the value; so does this.
 */
export function validateIPFamiliesUpdate(spec: ServiceSpec, old: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName' || old.type === 'ExternalName') return [];
  if (isHeadless(spec) !== isHeadless(old) || isHeadless(spec)) return [];
  const errs: FieldError[] = [];
  const now = spec.ipFamilies ?? [];
  const before = old.ipFamilies ?? [];
  if (before.length === now.length) {
    before.forEach((family, i) => {
      if (family !== now[i]) errs.push(invalidStrings('spec.ipFamilies[0]', now, MAY_NOT_CHANGE));
    });
  } else if (before.length > now.length) {
    if ((spec.clusterIPs ?? []).length === 0) {
      errs.push(invalidStrings('spec.ipFamilies[0]', now, 'primary ipFamily can not be unset'));
    }
    if (now.length > 0 && now[0] !== before[0]) {
      errs.push(invalidStrings('spec.ipFamilies[0]', spec.clusterIPs, MAY_NOT_CHANGE));
    }
    if (now.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(
        fieldErrors.invalid(
          'spec.ipFamilyPolicy',
          spec.ipFamilyPolicy ?? null,
          "must be set to 'SingleStack' when releasing the secondary ipFamily",
        ),
      );
    }
  } else if (before.length > 0 && now.length > 0 && now[0] !== before[0]) {
    errs.push(invalidStrings('spec.ipFamilies[0]', spec.clusterIPs, MAY_NOT_CHANGE));
  }
  return errs;
}
