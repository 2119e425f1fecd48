/**
 * `orchctl auth can-i --list`: the rules of a SelfSubjectRulesReview printed as kubectl prints
 * them. Rules are broken down to one verb, group, resource and name each; rules on a single
 * group, resource and name are merged again (new verbs appended in order); the result is
 * sorted by the Go string form of a PolicyRule and printed as Resources, Non-Resource URLs,
 * Resource Names and Verbs.
 */
import { alignColumns } from './tab-writer.js';

/** A policy rule as the rules review returns it (resource and non-resource rules alike). */
export interface ListedRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

interface Rule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

/** The rules review's status. */
export interface RulesReviewStatus {
  readonly resourceRules?: readonly ListedRule[];
  readonly nonResourceRules?: readonly ListedRule[];
  readonly incomplete?: boolean;
  readonly evaluationError?: string;
}

function breakdown(r: ListedRule): Rule[] {
  const out: Rule[] = [];
  const none = { apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [] };
  for (const group of r.apiGroups ?? []) {
    for (const resource of r.resources ?? []) {
      for (const verb of r.verbs) {
        const names = r.resourceNames ?? [];
        const base = { ...none, apiGroups: [group], resources: [resource], verbs: [verb] };
        if (names.length > 0) for (const n of names) out.push({ ...base, resourceNames: [n] });
        else out.push(base);
      }
    }
  }
  for (const url of r.nonResourceURLs ?? []) {
    for (const verb of r.verbs) out.push({ ...none, nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function compact(rules: readonly Rule[]): Rule[] {
  const out: Rule[] = [];
  const simple = new Map<string, Rule>();
  for (const r of rules) {
    const isSimple =
      r.resourceNames.length <= 1 &&
      r.nonResourceURLs.length === 0 &&
      r.apiGroups.length === 1 &&
      r.resources.length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0], r.resourceNames.length > 0, r.resourceNames[0] ?? '']);
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...r.verbs.filter((v) => !existing.verbs.includes(v)));
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

const list = (v: readonly string[]) => `[${v.join(' ')}]`;

/** Go's generated `PolicyRule.String()`, kubectl's sort key. */
function goString(r: Rule): string {
  return `&PolicyRule{Verbs:${list(r.verbs)},APIGroups:${list(r.apiGroups)},Resources:${list(r.resources)},ResourceNames:${list(r.resourceNames)},NonResourceURLs:${list(r.nonResourceURLs)},}`;
}

function combineResourceGroup(resources: readonly string[], groups: readonly string[]): string {
  if (resources.length === 0) return '';
  const slash = resources[0].indexOf('/');
  const head = slash >= 0 ? resources[0].slice(0, slash) : resources[0];
  const group = groups.length > 0 && groups[0] !== '' ? `.${groups[0]}` : '';
  return `${head}${group}${slash >= 0 ? resources[0].slice(slash) : ''}`;
}

/** The table `kubectl auth can-i --list` prints for `status`. */
export function formatRulesReview(status: RulesReviewStatus, o: { readonly headers: boolean }): string {
  const rules = [...(status.resourceRules ?? []), ...(status.nonResourceRules ?? [])].flatMap(breakdown);
  const keyed = compact(rules).map((r) => ({ r, k: goString(r) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const rows: string[][] = o.headers ? [['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']] : [];
  for (const { r } of keyed) {
    rows.push([
      combineResourceGroup(r.resources, r.apiGroups),
      list(r.nonResourceURLs),
      list(r.resourceNames),
      list(r.verbs),
    ]);
  }
  return alignColumns(rows);
}
