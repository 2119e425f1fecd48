import type { PolicyRule } from '../../apis/rbac/rbac-types.js';
import type { Attributes } from '../authorizer.js';

/** The wildcard of verbs, API groups, resources and non-resource URLs. */
export const ALL = '*';

function has(list: readonly string[] | undefined, value: string): boolean {
  if (!list) return false;
  for (const v of list) if (v === value) return true;
  return false;
}

/** A rule's verbs cover `verb` (or every verb). */
export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return has(rule.verbs, ALL) || has(rule.verbs, verb);
}

/** A rule's API groups cover `group` (`""` is the core group). */
export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return has(rule.apiGroups, ALL) || has(rule.apiGroups, group);
}

/**
 * A rule's resources cover `resource` with `subresource`: `*` covers everything, `pods` only the
 * resource itself, `pods/log` only that sub-resource, `*\/scale` that sub-resource of every
 * resource (kube-apiserver's ResourceMatches).
 */
export function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const wanted = subresource ? `${resource}/${subresource}` : resource;
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === wanted) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) {
      return true;
    }
  }
  return false;
}

/** An empty `resourceNames` covers every name; otherwise only the listed ones. */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  if (!rule.resourceNames || rule.resourceNames.length === 0) return true;
  return has(rule.resourceNames, name);
}

/** A rule's non-resource URLs cover `path`: exactly, or by a prefix ending in `*`. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ALL || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.slice(0, -1))) return true;
  }
  return false;
}

/**
 * Whether `rule` allows the request. Resource requests need verb, group, resource and name to
 * match; a rule with `resourceNames` never matches a request without a name (create,
 * deletecollection; list and watch name one object only through a `metadata.name` field
 * selector, which request-info turns into the name). Non-resource requests need verb and URL.
 */
export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (a.isResourceRequest) {
    return (
      verbMatches(rule, a.verb) &&
      apiGroupMatches(rule, a.apiGroup) &&
      resourceMatches(rule, a.resource, a.subresource) &&
      resourceNameMatches(rule, a.name)
    );
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
}
