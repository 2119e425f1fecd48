import type { PolicyRule } from '../../apis/rbac/rbac-types.js';
import type { Attributes } from '../authorizer.js';

/** The wildcard of verbs, API groups, resources and non-resource URLs. */
export const ALL = '*';

// Indexed loops and no intermediate strings throughout: every request's decision runs here.

function has(list: readonly string[] | undefined, value: string): boolean {
  if (!list) return false;
  for (let i = 0; i < list.length; i++) if (list[i] === value) return true;
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
  const resources = rule.resources;
  if (!resources) return false;
  for (let i = 0; i < resources.length; i++) {
    const r = resources[i];
    if (r === ALL) return true;
    if (!subresource) {
      if (r === resource) return true;
    } else if (r.length === resource.length + 1 + subresource.length) {
      // `resource/subresource`, compared in place.
      if (r.startsWith(resource) && r.charCodeAt(resource.length) === SLASH && r.endsWith(subresource)) return true;
    } else if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) {
      return true;
    }
  }
  return false;
}

const SLASH = 0x2f;

/** An empty `resourceNames` covers every name; otherwise only the listed ones. */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  if (!rule.resourceNames || rule.resourceNames.length === 0) return true;
  return has(rule.resourceNames, name);
}

/** A rule's non-resource URLs cover `path`: exactly, or by a prefix ending in `*`. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  const urls = rule.nonResourceURLs;
  if (!urls) return false;
  for (let i = 0; i < urls.length; i++) {
    const u = urls[i];
    if (u === ALL || u === path) return true;
    if (u.endsWith('*') && hasPrefix(path, u, u.length - 1)) return true;
  }
  return false;
}

/** Whether `s` starts with the first `n` characters of `prefix` (no substring is built). */
function hasPrefix(s: string, prefix: string, n: number): boolean {
  if (s.length < n) return false;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) !== prefix.charCodeAt(i)) return false;
  return true;
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
