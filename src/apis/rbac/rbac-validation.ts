import { goQuote } from '../../util/go-strconv.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../meta/name-validation.js';
import { goStringSlice } from '../selectors/go-format.js';
import { labelSelectorFromObject } from '../selectors/label-selector-object.js';
import { type LabelSelectorValidationOptions, validateLabelSelector } from './label-selector-validation.js';
import type { ClusterRole, PolicyRule, Role, RoleBinding, RoleRef, Subject } from './rbac-types.js';

/**
 * kube's RBAC validation (`pkg/apis/rbac/validation`) beyond what the schema and the generic
 * metadata checks cover: rules, aggregation selectors, role references and subjects. Every
 * function takes the RBAC group name (`ApiDomain.group('rbac.authorization')`) where kube uses
 * its constant, and returns every problem, not just the first. Objects are expected to match
 * their schema (strategies call these only then).
 */

/** `Invalid value` with a value already in Go's `%#v` form (kube prints structs and slices so). */
function invalidGo(field: string, goValue: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${goValue}: ${detail}` };
}

/** kube's `ValidatePolicyRule`; namespaced rules (of a Role) may not name non-resource URLs. */
export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if ((rule.verbs ?? []).length === 0) {
    errs.push(fieldErrors.required(`${path}.verbs`, 'verbs must contain at least one value'));
  }
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (namespaced) {
      errs.push(
        invalidGo(`${path}.nonResourceURLs`, goStringSlice(urls), 'namespaced rules cannot apply to non-resource URLs'),
      );
    }
    const resourceParts = [rule.apiGroups, rule.resources, rule.resourceNames];
    if (resourceParts.some((p) => (p ?? []).length > 0)) {
      errs.push(
        invalidGo(
          `${path}.nonResourceURLs`,
          goStringSlice(urls),
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    }
    return errs;
  }
  if ((rule.apiGroups ?? []).length === 0) {
    errs.push(fieldErrors.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  }
  if ((rule.resources ?? []).length === 0) {
    errs.push(fieldErrors.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  }
  return errs;
}

function validateRules(rules: readonly PolicyRule[] | undefined, namespaced: boolean): FieldError[] {
  return (rules ?? []).flatMap((rule, i) => validatePolicyRule(rule, namespaced, `rules[${i}]`));
}

/** kube's `ValidateRole` (its metadata part is the strategy's). */
export function validateRole(role: Role): FieldError[] {
  return validateRules(role.rules, true);
}

/** kube's `ValidateClusterRole`: rules, and an aggregation rule needs valid selectors. */
export function validateClusterRole(role: ClusterRole, options: LabelSelectorValidationOptions = {}): FieldError[] {
  const errs = validateRules(role.rules, false);
  const aggregation = role.aggregationRule;
  if (aggregation !== undefined && aggregation !== null) {
    const path = 'aggregationRule.clusterRoleSelectors';
    const selectors = aggregation.clusterRoleSelectors ?? [];
    if (selectors.length === 0) {
      errs.push(fieldErrors.required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    }
    selectors.forEach((selector, i) => {
      errs.push(...validateLabelSelector(selector, `${path}[${i}]`, options));
      try {
        labelSelectorFromObject(selector);
      } catch {
        // kube reports the (nil) selector the failed conversion returned.
        errs.push(fieldErrors.invalid(`${path}[${i}]`, 'null', 'invalid label selector.'));
      }
    });
  }
  return errs;
}

/** The Go `%#v` of a role reference, as kube prints it in `cannot change roleRef`. */
export function goRoleRef(ref: RoleRef): string {
  return `rbac.RoleRef{APIGroup:${goQuote(ref.apiGroup)}, Kind:${goQuote(ref.kind)}, Name:${goQuote(ref.name)}}`;
}

/**
 * kube's `ValidateRoleBinding` (`namespaced`) and `ValidateClusterRoleBinding`: the role is of
 * the RBAC group, a `Role` or `ClusterRole` (only `ClusterRole` for cluster bindings), with a
 * path-segment name; then each subject.
 */
export function validateRoleBinding(binding: RoleBinding, namespaced: boolean, rbacGroup: string): FieldError[] {
  const errs: FieldError[] = [];
  const ref = binding.roleRef;
  if (ref.apiGroup !== rbacGroup) errs.push(fieldErrors.notSupported('roleRef.apiGroup', ref.apiGroup, [rbacGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(fieldErrors.notSupported('roleRef.kind', ref.kind, kinds));
  if (ref.name === '') errs.push(fieldErrors.required('roleRef.name'));
  else
    for (const msg of isValidPathSegmentName(ref.name)) errs.push(fieldErrors.invalid('roleRef.name', ref.name, msg));
  (binding.subjects ?? []).forEach((subject, i) => {
    errs.push(...validateSubject(subject, namespaced, `subjects[${i}]`, rbacGroup));
  });
  return errs;
}

/** kube's `ValidateRoleBindingSubject`. */
export function validateSubject(subject: Subject, namespaced: boolean, path: string, rbacGroup: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiGroup = subject.apiGroup ?? '';
  if (subject.name === '') errs.push(fieldErrors.required(`${path}.name`));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (subject.name !== '') {
        for (const msg of isDNS1123Subdomain(subject.name))
          errs.push(fieldErrors.invalid(`${path}.name`, subject.name, msg));
      }
      if (apiGroup !== '') errs.push(fieldErrors.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && (subject.namespace ?? '') === '') errs.push(fieldErrors.required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroup) errs.push(fieldErrors.notSupported(`${path}.apiGroup`, apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(fieldErrors.notSupported(`${path}.kind`, subject.kind, ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

/** The update rule of both binding kinds: the role reference is immutable. */
export function validateRoleRefUnchanged(binding: RoleBinding, old: RoleBinding): FieldError[] {
  const a = binding.roleRef;
  const b = old.roleRef;
  if (a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name) return [];
  return [invalidGo('roleRef', goRoleRef(a), 'cannot change roleRef')];
}
