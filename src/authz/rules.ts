import type { PolicyRule } from '../apis/rbac/rbac-types.js';

/** Actions on resources an authorizer would allow (SelfSubjectRulesReview's `resourceRules`). */
export interface ResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

/** Actions on paths an authorizer would allow (`nonResourceRules`). */
export interface NonResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** What a user may do in a namespace, as far as one or more authorizers can tell. */
export interface RulesResult {
  readonly resourceRules: readonly ResourceRuleInfo[];
  readonly nonResourceRules: readonly NonResourceRuleInfo[];
  /** True when some authorizer cannot list its rules (its decisions may allow more). */
  readonly incomplete: boolean;
  /** Errors met while listing (the rules listed are still valid). */
  readonly errors: readonly string[];
}

export const NO_RULES: RulesResult = Object.freeze({
  resourceRules: [],
  nonResourceRules: [],
  incomplete: false,
  errors: [],
});

export const ALL_RULES: RulesResult = Object.freeze({
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
  errors: [],
});

/** The review rules of a policy rule: resource and non-resource parts, as kube-apiserver splits them. */
export function rulesOfPolicy(rule: PolicyRule): { resource?: ResourceRuleInfo; nonResource?: NonResourceRuleInfo } {
  const out: { resource?: ResourceRuleInfo; nonResource?: NonResourceRuleInfo } = {};
  if ((rule.resources?.length ?? 0) > 0) {
    out.resource = {
      verbs: [...rule.verbs],
      apiGroups: [...(rule.apiGroups ?? [])],
      resources: [...(rule.resources ?? [])],
      resourceNames: [...(rule.resourceNames ?? [])],
    };
  }
  if ((rule.nonResourceURLs?.length ?? 0) > 0) {
    out.nonResource = { verbs: [...rule.verbs], nonResourceURLs: [...(rule.nonResourceURLs ?? [])] };
  }
  return out;
}

/** Concatenates the rules of several authorizers; incomplete when any is. */
export function mergeRules(results: readonly RulesResult[]): RulesResult {
  return {
    resourceRules: results.flatMap((r) => r.resourceRules),
    nonResourceRules: results.flatMap((r) => r.nonResourceRules),
    incomplete: results.some((r) => r.incomplete),
    errors: results.flatMap((r) => r.errors),
  };
}
