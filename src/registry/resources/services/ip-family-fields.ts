import { invalidStrings } from '../../../apis/core/go-value-format.js';
import { familyOf, type IpFamily, parseIP } from '../../../apis/core/ip-address.js';
import { validateClusterIPsRelatedFields } from '../../../apis/core/service-ip-validation.js';
import { CLUSTER_IP_NONE, type ServiceSpec, sameStrings } from '../../../apis/core/service-types.js';
import { type FieldError, fieldErrors } from '../../../apis/meta/field-error.js';

/** The IP families the cluster serves, the default (`--service-cluster-ip-range`'s first) first. */
export type ClusterFamilies = readonly IpFamily[];

function otherFamily(f: string): IpFamily {
  return f === 'IPv4' ? 'IPv6' : 'IPv4';
}

/**
 * kube's `isMatchingPreferDualStackClusterIPFields`: an update of a PreferDualStack service that
 * keeps its type, policy, cluster IPs and families is left alone (no upgrade or downgrade after
 * the cluster's families changed).
 */
export function isUnchangedPreferDualStack(spec: ServiceSpec, old: ServiceSpec | undefined): boolean {
  if (!old || spec.ipFamilyPolicy === undefined || old.type !== spec.type) return false;
  if (spec.type !== 'ClusterIP' && spec.type !== 'NodePort' && spec.type !== 'LoadBalancer') return false;
  if (spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  if (old.ipFamilyPolicy !== undefined && old.ipFamilyPolicy !== 'PreferDualStack') return false;
  return sameStrings(old.clusterIPs, spec.clusterIPs) && sameStrings(old.ipFamilies, spec.ipFamilies);
}

/**
 * kube v1.32's `initIPFamilyFields`: defaults `ipFamilyPolicy` (the old one on update;
 * RequireDualStack for headless services without a selector; else SingleStack), trims dual-stack
 * fields a SingleStack update no longer wants, infers `ipFamilies` from the cluster IPs, and
 * checks the families against the cluster (`not configured on this cluster`). Mutates `spec`;
 * returns the field errors (then nothing more should happen).
 */
export function initIPFamilyFields(
  spec: ServiceSpec,
  old: ServiceSpec | undefined,
  cluster: ClusterFamilies,
): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  if (isUnchangedPreferDualStack(spec, old)) return [];
  const headlessSelectorless = spec.clusterIP === CLUSTER_IP_NONE && Object.keys(spec.selector ?? {}).length === 0;
  if (spec.ipFamilyPolicy === undefined) {
    if (old?.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = old.ipFamilyPolicy;
    else spec.ipFamilyPolicy = headlessSelectorless ? 'RequireDualStack' : 'SingleStack';
  }
  const loose = validateClusterIPsRelatedFields(spec);
  if (loose.length > 0) return loose;
  const errs: FieldError[] = [];
  const singleStack = spec.ipFamilyPolicy === 'SingleStack';
  if (old) {
    if (singleStack) {
      // Choosing SingleStack while keeping the fields is clear intent to drop the secondary.
      if (sameStrings(old.clusterIPs, spec.clusterIPs) && (spec.clusterIPs ?? []).length > 1) {
        spec.clusterIPs = spec.clusterIPs!.slice(0, 1);
      }
      if (sameStrings(old.ipFamilies, spec.ipFamilies) && (spec.ipFamilies ?? []).length > 1) {
        spec.ipFamilies = spec.ipFamilies!.slice(0, 1);
      }
    } else {
      const now = spec.clusterIPs ?? [];
      if (now.length > 0 && now.length < (old.clusterIPs ?? []).length) {
        errs.push(
          fieldErrors.invalid(
            'spec.ipFamilyPolicy',
            spec.ipFamilyPolicy,
            "must be 'SingleStack' to release the secondary cluster IP",
          ),
        );
      }
      const families = spec.ipFamilies ?? [];
      if (families.length > 0 && families.length < (old.ipFamilies ?? []).length) {
        errs.push(
          fieldErrors.invalid(
            'spec.ipFamilyPolicy',
            spec.ipFamilyPolicy,
            "must be 'SingleStack' to release the secondary IP family",
          ),
        );
      }
    }
  }
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if ((spec.clusterIPs ?? []).length === 2) {
      errs.push(
        fieldErrors.invalid(
          'spec.ipFamilyPolicy',
          spec.ipFamilyPolicy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
        ),
      );
    }
    if ((spec.ipFamilies ?? []).length === 2) {
      errs.push(
        fieldErrors.invalid(
          'spec.ipFamilyPolicy',
          spec.ipFamilyPolicy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
        ),
      );
    }
  }
  const clusterIPs = spec.clusterIPs ?? [];
  for (const [i, ip] of clusterIPs.entries()) {
    if (ip === CLUSTER_IP_NONE) break;
    const family = familyOf(parseIP(ip)!);
    if (i >= (spec.ipFamilies ?? []).length) {
      if (!cluster.includes(family)) {
        errs.push(invalidStrings(`spec.clusterIPs[${i}]`, clusterIPs, `${family} is not configured on this cluster`));
      } else spec.ipFamilies = [...(spec.ipFamilies ?? []), family];
    }
  }
  if (errs.length > 0) return errs;
  if (headlessSelectorless) {
    // Headless services without a selector may name families the cluster does not serve.
    if ((spec.ipFamilies ?? []).length === 0) spec.ipFamilies = [cluster[0]];
    if (spec.ipFamilies!.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') {
      spec.ipFamilies = [...spec.ipFamilies!, otherFamily(spec.ipFamilies![0])];
    }
    return [];
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack' && cluster.length < 2) {
    errs.push(
      fieldErrors.invalid(
        'spec.ipFamilyPolicy',
        spec.ipFamilyPolicy,
        'this cluster is not configured for dual-stack services',
      ),
    );
  }
  for (const [i, family] of (spec.ipFamilies ?? []).entries()) {
    if (!cluster.includes(family as IpFamily)) {
      errs.push(fieldErrors.invalid(`spec.ipFamilies[${i}]`, family, 'not configured on this cluster'));
    }
  }
  if (errs.length > 0) return errs;
  if ((spec.ipFamilies ?? []).length === 0) spec.ipFamilies = [cluster[0]];
  if (spec.ipFamilyPolicy !== 'SingleStack' && spec.ipFamilies!.length === 1 && cluster.length === 2) {
    spec.ipFamilies = [...spec.ipFamilies!, otherFamily(spec.ipFamilies![0])];
  }
  return [];
}
