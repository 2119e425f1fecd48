/**
 * The access review kinds from authorization.<domain>/v1beta1 into v1: `spec.group` (the
 * requesting user's groups) becomes `spec.groups`. SelfSubjectRulesReview has v1's shape.
 */
import type { ApiDomain } from '../api-domain.js';
import type { ConvertFn, KindFamily } from './conversion-types.js';
import { renameKey, withSpec } from './json-helpers.js';

/** Access reviews of authorization.<domain>/v1 and v1beta1. */
export function authorizationFamilies(domain: ApiDomain): KindFamily[] {
  const group = domain.group('authorization');
  const apiVersion = `${group}/v1`;
  const groupsRenamed: ConvertFn = (o) => {
    const out = withSpec(o, (spec) => renameKey(spec, 'group', 'groups'));
    out.apiVersion = apiVersion;
    return out;
  };
  const same: ConvertFn = (o) => ({ ...o, apiVersion });
  const kinds: [string, ConvertFn][] = [
    ['SubjectAccessReview', groupsRenamed],
    ['LocalSubjectAccessReview', groupsRenamed],
    ['SelfSubjectAccessReview', same],
    ['SelfSubjectRulesReview', same],
  ];
  return kinds.map(([kind, toHub]) => ({
    kind,
    internal: `authorization.${kind}`,
    served: [{ group, version: 'v1' }],
    removed: [{ group, version: 'v1beta1', toHub }],
  }));
}
