import type { UserInfo } from '../../apis/request/user-info.js';
import { ALLOW_RESULT, type Attributes, type AuthorizationResult, type Authorizer } from '../authorizer.js';
import type { NonResourceRuleInfo, ResourceRuleInfo, RulesResult } from '../rules.js';
import type { AbacPolicy } from './abac-policy.js';

const NO_POLICY_MATCHED: AuthorizationResult = Object.freeze({ decision: 'no-opinion', reason: 'No policy matched.' });
const READ_VERBS = ['get', 'list', 'watch'];

/**
 * kube's subject match: a named user must be the request's (`*` any), and a named group one of
 * its groups (`*` any); a policy naming neither matches no one.
 */
function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user !== '') {
    if (p.user !== '*' && p.user !== user.name) return false;
    matched = true;
  }
  if (p.group !== '') {
    if (p.group !== '*' && !user.groups.includes(p.group)) return false;
    matched = true;
  }
  return matched;
}

/** Every policy allows reads (get, list, watch); one not marked `readonly` allows every verb. */
function verbMatches(p: AbacPolicy, a: Attributes): boolean {
  return !p.readonly || READ_VERBS.includes(a.verb);
}

function resourceMatches(p: AbacPolicy, a: Attributes): boolean {
  return (
    a.isResourceRequest &&
    (p.namespace === '*' || p.namespace === a.namespace) &&
    (p.resource === '*' || p.resource === a.resource) &&
    (p.apiGroup === '*' || p.apiGroup === a.apiGroup)
  );
}

/** `*`, the exact path, or a prefix ending in `*` (`/logs/*` matches `/logs/` and below). */
function nonResourceMatches(p: AbacPolicy, a: Attributes): boolean {
  if (a.isResourceRequest) return false;
  const rule = p.nonResourcePath;
  if (rule === '*' || rule === a.path) return true;
  return rule.endsWith('*') && a.path.startsWith(rule.replace(/\*+$/, ''));
}

function matches(p: AbacPolicy, a: Attributes): boolean {
  return subjectMatches(p, a.user) && verbMatches(p, a) && (resourceMatches(p, a) || nonResourceMatches(p, a));
}

/**
 * The `ABAC` authorization mode (kube's `abac.PolicyList`): the first policy that matches the
 * request's user, verb and target allows it; otherwise it has no opinion, with kube's reason
 * `No policy matched.`. It never denies. Decides synchronously; `policies` is not copied.
 */
export function abacAuthorizer(policies: readonly AbacPolicy[]): Authorizer {
  const decide = (a: Attributes): AuthorizationResult => {
    for (let i = 0; i < policies.length; i++) if (matches(policies[i], a)) return ALLOW_RESULT;
    return NO_POLICY_MATCHED;
  };
  return {
    decide,
    async authorize(a: Attributes): Promise<AuthorizationResult> {
      return decide(a);
    },
    /**
     * Like kube: every policy matching the user whose namespace is `*` or the one asked gives a
     * resource rule when it names a resource and a non-resource rule when it names a path, with
     * verbs `get, list, watch` when read-only and `*` otherwise. Complete (ABAC lists all it allows).
     */
    async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      for (const p of policies) {
        if (!subjectMatches(p, user) || (p.namespace !== '*' && p.namespace !== namespace)) continue;
        const verbs = p.readonly ? [...READ_VERBS] : ['*'];
        if (p.resource !== '') {
          resourceRules.push({ verbs, apiGroups: [p.apiGroup], resources: [p.resource], resourceNames: [] });
        }
        if (p.nonResourcePath !== '')
          nonResourceRules.push({ verbs: [...verbs], nonResourceURLs: [p.nonResourcePath] });
      }
      return { resourceRules, nonResourceRules, incomplete: false, errors: [] };
    },
  };
}
