import type { ClusterRole, PolicyRule } from '../../apis/rbac/rbac-types.js';
import { labelSelectorFromObject, matchesLabels, SelectorParseError } from '../../apis/selectors/index.js';
import { deepEqual } from '../../util/deep-equal.js';

/**
 * The rules an aggregating ClusterRole should hold (kube's clusterrole-aggregation controller):
 * for each of its `clusterRoleSelectors` in order, the ClusterRoles whose labels match (itself
 * excluded), sorted by name, contribute their rules in order; a rule already collected is not
 * repeated. A selector that is not valid selects nothing.
 */
export function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const byName = [...all].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  for (const selectorObject of role.aggregationRule?.clusterRoleSelectors ?? []) {
    let selector: ReturnType<typeof labelSelectorFromObject>;
    try {
      selector = labelSelectorFromObject(selectorObject);
    } catch (e) {
      if (e instanceof SelectorParseError) continue;
      throw e;
    }
    for (const other of byName) {
      if (other.metadata.name === role.metadata.name || !matchesLabels(selector, other.metadata.labels)) continue;
      for (const rule of other.rules ?? []) {
        if (!out.some((r) => deepEqual(r, rule))) out.push(structuredClone(rule));
      }
    }
  }
  return out;
}
