import type { ClusterRole, ClusterRoleBinding, Subject } from '../apis/rbac/rbac-types.js';
import { uncoveredRules } from '../authz/rbac/escalation.js';
import { deepEqual } from '../util/deep-equal.js';

/** Go's strconv.ParseBool spellings of false: only these turn reconciliation off. */
const FALSE_VALUES = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

/** Whether start-up may change an existing default object (its autoupdate annotation is not false). */
export function mayAutoupdate(
  obj: { metadata: { annotations?: Record<string, string> } },
  annotation: string,
): boolean {
  const v = obj.metadata.annotations?.[annotation];
  return v === undefined || !FALSE_VALUES.has(v);
}

/** Adds the expected labels and annotations that are missing; values already set stay (kube's merge). */
function mergeMetadata(existing: ClusterRole, expected: ClusterRole): boolean {
  let changed = false;
  for (const field of ['labels', 'annotations'] as const) {
    const want = expected.metadata[field] ?? {};
    const have = { ...(existing.metadata[field] ?? {}) };
    for (const [k, v] of Object.entries(want)) {
      if (!(k in have)) {
        have[k] = v;
        changed = true;
      }
    }
    if (Object.keys(have).length > 0) existing.metadata[field] = have;
  }
  return changed;
}

/**
 * kube's role reconciliation without removing anything: missing labels and annotations, missing
 * aggregation selectors, and the expected rules the existing ones do not cover (appended, in
 * their atomic form) are added to `existing` in place. Returns whether anything changed.
 */
export function reconcileClusterRole(existing: ClusterRole, expected: ClusterRole): boolean {
  let changed = mergeMetadata(existing, expected);
  const wantSelectors = expected.aggregationRule?.clusterRoleSelectors;
  if (wantSelectors) {
    const have = [...(existing.aggregationRule?.clusterRoleSelectors ?? [])];
    const missing = wantSelectors.filter((s) => !have.some((h) => deepEqual(h, s)));
    if (missing.length > 0 || !existing.aggregationRule) {
      existing.aggregationRule = { ...existing.aggregationRule, clusterRoleSelectors: [...have, ...missing] };
      changed = true;
    }
  }
  const missingRules = uncoveredRules(existing.rules ?? [], expected.rules ?? []);
  if (missingRules.length > 0) {
    existing.rules = [...(existing.rules ?? []), ...missingRules.map((r) => ({ ...r }))];
    changed = true;
  }
  return changed;
}

const sameSubject = (a: Subject, b: Subject) =>
  a.kind === b.kind &&
  a.name === b.name &&
  (a.namespace ?? '') === (b.namespace ?? '') &&
  (a.apiGroup ?? '') === (b.apiGroup ?? '');

/**
 * kube's binding reconciliation without removing anything: missing labels, annotations and
 * subjects are added to `existing` in place. Returns whether anything changed. A binding whose
 * `roleRef` differs cannot be changed in place (see {@link roleRefDiffers}).
 */
export function reconcileClusterRoleBinding(existing: ClusterRoleBinding, expected: ClusterRoleBinding): boolean {
  let changed = mergeMetadata(existing, expected);
  const have = existing.subjects ?? [];
  const missing = (expected.subjects ?? []).filter((s) => !have.some((h) => sameSubject(h, s)));
  if (missing.length > 0) {
    existing.subjects = [...have, ...missing.map((s) => ({ ...s }))];
    changed = true;
  }
  return changed;
}

/** Whether a binding references another role than expected (kube then deletes and recreates it). */
export function roleRefDiffers(existing: ClusterRoleBinding, expected: ClusterRoleBinding): boolean {
  return !deepEqual(existing.roleRef, expected.roleRef);
}
