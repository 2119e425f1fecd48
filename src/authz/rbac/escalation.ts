import type { PolicyRule } from '../../apis/rbac/rbac-types.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import { goQuote } from '../../util/go-strconv.js';
import { ALL } from './rule-matching.js';

/**
 * kube-apiserver's escalation check, pure: may an owner with `owner` rules grant `servant` rules?
 * Every servant rule is broken into atomic rules (one group, resource, name and verb, or one URL
 * and verb), and each must be covered by a single owner rule.
 */

/** The atomic rules of a rule (kube's BreakdownRule). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      if (rule.resourceNames && rule.resourceNames.length > 0) {
        for (const name of rule.resourceNames) {
          for (const verb of rule.verbs) {
            out.push({ apiGroups: [group], resources: [resource], resourceNames: [name], verbs: [verb] });
          }
        }
      } else {
        for (const verb of rule.verbs) out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

const hasAll = (set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean =>
  (wanted ?? []).every((w) => (set ?? []).includes(w));

function resourcesCovered(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  const own = owner ?? [];
  if (own.includes(ALL) || hasAll(own, wanted)) return true;
  for (const r of wanted ?? []) {
    const slash = r.indexOf('/');
    if (slash >= 0 && own.includes(`*${r.slice(slash)}`)) continue;
    return false;
  }
  return true;
}

function urlsCovered(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  return (wanted ?? []).every((w) =>
    (owner ?? []).some((o) => o === w || (o.endsWith('*') && w.startsWith(o.slice(0, -1)))),
  );
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes(ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const ownerNames = owner.resourceNames ?? [];
  const names =
    (sub.resourceNames ?? []).length === 0
      ? ownerNames.length === 0
      : ownerNames.length === 0 || hasAll(ownerNames, sub.resourceNames);
  return (
    verbs &&
    groups &&
    names &&
    resourcesCovered(owner.resources, sub.resources) &&
    urlsCovered(owner.nonResourceURLs, sub.nonResourceURLs)
  );
}

/** The atomic servant rules no owner rule covers (empty: the owner may grant them all). */
export function uncoveredRules(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const sub of servant.flatMap(breakdownRule)) {
    if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  }
  return missing;
}

/** Merges atomic rules that differ only by verb (kube's CompactRules). */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, { apiGroups: string[]; resources: string[]; verbs: string[] }>();
  for (const r of rules) {
    const isSimple =
      (r.apiGroups?.length ?? 0) === 1 &&
      (r.resources?.length ?? 0) === 1 &&
      (r.resourceNames?.length ?? 0) === 0 &&
      (r.nonResourceURLs?.length ?? 0) === 0;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = `${r.apiGroups?.[0]}\u0000${r.resources?.[0]}`;
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...r.verbs.filter((v) => !existing.verbs.includes(v)));
    else {
      const merged = { apiGroups: [...(r.apiGroups ?? [])], resources: [...(r.resources ?? [])], verbs: [...r.verbs] };
      simple.set(key, merged);
      out.push(merged);
    }
  }
  return out;
}

const goStrings = (list: readonly string[]) => `[${list.map(goQuote).join(' ')}]`;

/** kube's CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if ((r.apiGroups?.length ?? 0) > 0) parts.push(`APIGroups:${goStrings(r.apiGroups ?? [])}`);
  if ((r.resources?.length ?? 0) > 0) parts.push(`Resources:${goStrings(r.resources ?? [])}`);
  if ((r.nonResourceURLs?.length ?? 0) > 0) parts.push(`NonResourceURLs:${goStrings(r.nonResourceURLs ?? [])}`);
  if ((r.resourceNames?.length ?? 0) > 0) parts.push(`ResourceNames:${goStrings(r.resourceNames ?? [])}`);
  if (r.verbs.length > 0) parts.push(`Verbs:${goStrings(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/**
 * kube-apiserver's text for an escalation attempt: who, their groups, and every missing
 * permission, compacted and sorted, one per line.
 */
export function escalationMessage(user: UserInfo, missing: readonly PolicyRule[]): string {
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  return `user ${goQuote(user.name)} (groups=${goStrings(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
}
