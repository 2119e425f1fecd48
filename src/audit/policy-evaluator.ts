import type { AuditLevel, AuditPolicy, AuditPolicyRule, AuditStage } from './audit-policy.js';

/** What the policy decides for one request. */
export interface RequestAuditConfig {
  readonly level: AuditLevel;
  readonly omitStages: ReadonlySet<AuditStage>;
  readonly omitManagedFields: boolean;
}

/** The request as audit rules see it (an authorizer's attributes). */
export interface AuditAttributes {
  readonly user: { readonly name: string; readonly groups: readonly string[] };
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/** kube's default level when no rule matches. */
const DEFAULT_LEVEL: AuditLevel = 'None';

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(rule: AuditPolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  if (rule.namespaces?.length && !rule.namespaces.includes(a.namespace)) return false;
  if (!rule.resources?.length) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const gr of rule.resources) {
    if ((gr.group ?? '') !== a.apiGroup) continue;
    if (!gr.resources?.length) return true;
    for (const res of gr.resources) {
      if (gr.resourceNames?.length && !gr.resourceNames.includes(a.name)) continue;
      if (res === combined || res === '*') return true;
      if (a.subresource && res.startsWith('*/') && res.slice(2) === a.subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === a.resource) return true;
    }
  }
  return false;
}

/** kube's `ruleMatches`: users, groups, verbs, then resources/namespaces or non-resource URLs. */
function ruleMatches(rule: AuditPolicyRule, a: AuditAttributes): boolean {
  if (rule.users?.length && !rule.users.includes(a.user.name)) return false;
  if (rule.userGroups?.length && !a.user.groups.some((g) => rule.userGroups?.includes(g))) return false;
  if (rule.verbs?.length && !rule.verbs.includes(a.verb)) return false;
  if (rule.namespaces?.length || rule.resources?.length) return resourceMatches(rule, a);
  if (rule.nonResourceURLs?.length)
    return !a.isResourceRequest && rule.nonResourceURLs.some((s) => pathMatches(a.path, s));
  return true;
}

/**
 * kube's policy rule evaluator: the first matching rule gives the level; its omitted stages are
 * the union of the rule's and the policy's; `omitManagedFields` of the rule, else the policy's.
 * No rule matching means level None.
 */
export class AuditPolicyEvaluator {
  private readonly rules: readonly { rule: AuditPolicyRule; config: RequestAuditConfig }[];
  private readonly fallback: RequestAuditConfig;

  constructor(policy: AuditPolicy) {
    const policyStages = policy.omitStages ?? [];
    this.rules = policy.rules.map((rule) => ({
      rule,
      config: {
        level: rule.level,
        omitStages: new Set([...policyStages, ...(rule.omitStages ?? [])]),
        omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
      },
    }));
    this.fallback = {
      level: DEFAULT_LEVEL,
      omitStages: new Set(policyStages),
      omitManagedFields: policy.omitManagedFields ?? false,
    };
  }

  evaluate(a: AuditAttributes): RequestAuditConfig {
    for (const { rule, config } of this.rules) if (ruleMatches(rule, a)) return config;
    return this.fallback;
  }
}
