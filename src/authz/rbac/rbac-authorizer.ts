import type { PolicyRule, Subject } from '../../apis/rbac/rbac-types.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import { goQuote } from '../../util/go-strconv.js';
import type { Attributes, AuthorizationResult, Authorizer } from '../authorizer.js';
import { type NonResourceRuleInfo, type ResourceRuleInfo, type RulesResult, rulesOfPolicy } from '../rules.js';
import type { IndexedBinding, MatchedBinding, RbacIndex } from './rbac-index.js';
import { ruleAllows } from './rule-matching.js';
import { describeSubject } from './subjects.js';

const NO_OPINION: AuthorizationResult = Object.freeze({ decision: 'no-opinion' as const, reason: '' });

/** The subject keys of a user: its name and each of its groups. */
export function userKeys(user: UserInfo): string[] {
  const keys = [`u:${user.name}`];
  for (const g of user.groups) keys.push(`g:${g}`);
  return keys;
}

/** kube-apiserver's description of the binding that allowed a request. */
function describeBinding(m: MatchedBinding): string {
  const b = m.binding;
  const role = `${b.roleKind} ${goQuote(b.roleName)}`;
  if (b.namespace === '')
    return `ClusterRoleBinding ${goQuote(b.name)} of ${role} to ${describeSubject(m.subject, '')}`;
  return `RoleBinding ${goQuote(`${b.name}/${b.namespace}`)} of ${role} to ${describeSubject(m.subject, b.namespace)}`;
}

/**
 * Role-based access control over an {@link RbacIndex}: allows when a rule of a role bound to the
 * user (directly, through a group, or as a service account) covers the request; ClusterRoleBindings
 * grant everywhere, RoleBindings only in their namespace. Never denies: without a matching rule
 * the answer is `no-opinion` (and the chain denies). Decisions are synchronous reads of the index.
 */
export class RbacAuthorizer implements Authorizer {
  /**
   * Authenticators hand out the same frozen user object for a credential while it is cached, so
   * a user's keys are computed once per user object.
   */
  private readonly keysByUser = new WeakMap<UserInfo, readonly string[]>();
  private readonly allowedBySubject = new WeakMap<Subject, AuthorizationResult>();

  constructor(private readonly index: RbacIndex) {}

  private keysOf(user: UserInfo): readonly string[] {
    let keys = this.keysByUser.get(user);
    if (keys === undefined) {
      keys = userKeys(user);
      if (Object.isFrozen(user)) this.keysByUser.set(user, keys);
    }
    return keys;
  }

  async authorize(a: Attributes): Promise<AuthorizationResult> {
    return this.decide(a);
  }

  /**
   * Whether a rule of the binding's role allows the request. Created once: the decision path
   * passes the attributes as argument instead of capturing them in a fresh closure.
   */
  private readonly bindingAllows = (binding: IndexedBinding, a: Attributes): boolean => {
    const rules = this.index.rulesOf(binding);
    if (rules === undefined) return false;
    for (let i = 0; i < rules.length; i++) if (ruleAllows(a, rules[i])) return true;
    return false;
  };

  /**
   * The decision, synchronously (also what SelfSubjectAccessReview and escalation checks use).
   * Allocates nothing once a frozen user's keys and an allowing subject's result are cached.
   */
  decide(a: Attributes): AuthorizationResult {
    const keys = this.keysOf(a.user);
    const allowedBy = this.index.findBinding(keys, a.isResourceRequest ? a.namespace : '', this.bindingAllows, a);
    if (!allowedBy) return NO_OPINION;
    const subject = this.index.subjectFor(allowedBy, keys) as Subject;
    // A subject object belongs to one indexed binding: its allow result is built once.
    let result = this.allowedBySubject.get(subject);
    if (result === undefined) {
      result = Object.freeze({
        decision: 'allow' as const,
        reason: `RBAC: allowed by ${describeBinding({ binding: allowedBy, subject })}`,
      });
      this.allowedBySubject.set(subject, result);
    }
    return result;
  }

  /**
   * The policy rules `user` holds in `namespace` (cluster-wide ones too; only those for an empty
   * namespace), and the roles that bindings name but that do not exist.
   */
  policyRulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; missingRoles: string[] } {
    const rules: PolicyRule[] = [];
    const missingRoles: string[] = [];
    for (const m of this.index.bindingsFor(userKeys(user), namespace)) {
      const found = this.index.rulesOf(m.binding);
      if (found) rules.push(...found);
      else missingRoles.push(`${m.binding.roleKind} ${goQuote(m.binding.roleName)} not found`);
    }
    return { rules, missingRoles };
  }

  /** Every rule of every role bound to `user` that applies in `namespace` (cluster-wide ones too). */
  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    const errors: string[] = [];
    for (const m of this.index.bindingsFor(userKeys(user), namespace)) {
      const rules = this.index.rulesOf(m.binding);
      if (!rules) {
        const b = m.binding;
        errors.push(`${b.roleKind} ${goQuote(b.roleName)} not found`);
        continue;
      }
      for (const rule of rules) {
        const r = rulesOfPolicy(rule);
        if (r.resource) resourceRules.push(r.resource);
        if (r.nonResource) nonResourceRules.push(r.nonResource);
      }
    }
    return { resourceRules, nonResourceRules, incomplete: errors.length > 0, errors };
  }
}
