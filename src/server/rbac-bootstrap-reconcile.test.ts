import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterRole, ClusterRoleBinding } from '../apis/rbac/rbac-types.js';
import {
  mayAutoupdate,
  reconcileClusterRole,
  reconcileClusterRoleBinding,
  roleRefDiffers,
} from './rbac-bootstrap-reconcile.js';

const ANNOTATION = 'rbac.authorization.example/autoupdate';
const role = (over: Partial<ClusterRole> & { labels?: Record<string, string> } = {}): ClusterRole => {
  const { labels, ...rest } = over;
  return { apiVersion: 'v1', kind: 'ClusterRole', metadata: { name: 'r', ...(labels ? { labels } : {}) }, ...rest };
};
const EXPECTED = role({
  labels: { boot: 'defaults' },
  rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
});

describe('default policy reconciliation', () => {
  const roleCases: [string, ClusterRole, ClusterRole, boolean, Partial<ClusterRole>][] = [
    ['an equal role is left alone', structuredClone(EXPECTED), EXPECTED, false, { rules: EXPECTED.rules }],
    [
      'a missing verb comes back in its atomic form; user rules and label values stay',
      role({
        labels: { boot: 'mine', extra: 'x' },
        rules: [
          { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
          { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
        ],
      }),
      EXPECTED,
      true,
      {
        rules: [
          { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
          { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
          { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
        ],
      },
    ],
    [
      'a broader user rule covers the expected ones',
      role({ labels: { boot: 'defaults' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }),
      EXPECTED,
      false,
      { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] },
    ],
    [
      'a missing aggregation selector is added after the user ones',
      role({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { mine: 'true' } }] } }),
      role({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { view: 'true' } }] } }),
      true,
      {
        aggregationRule: {
          clusterRoleSelectors: [{ matchLabels: { mine: 'true' } }, { matchLabels: { view: 'true' } }],
        },
      },
    ],
  ];
  for (const [what, existing, expected, changed, want] of roleCases) {
    it(what, () => {
      assert.equal(reconcileClusterRole(existing, expected), changed);
      if (want.rules) assert.deepEqual(existing.rules, want.rules);
      if (want.aggregationRule) assert.deepEqual(existing.aggregationRule, want.aggregationRule);
      for (const [k, v] of Object.entries(expected.metadata.labels ?? {}))
        assert.ok(existing.metadata.labels?.[k], `${k}=${v}`);
    });
  }

  it('adds missing subjects after the user ones, and sees a changed roleRef', () => {
    const subject = (name: string) => ({ kind: 'Group', apiGroup: 'g', name });
    const binding = (subjects: ClusterRoleBinding['subjects'], roleName = 'r'): ClusterRoleBinding => ({
      apiVersion: 'v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'b' },
      roleRef: { apiGroup: 'g', kind: 'ClusterRole', name: roleName },
      subjects,
    });
    const existing = binding([subject('mine'), subject('a')]);
    assert.equal(reconcileClusterRoleBinding(existing, binding([subject('a'), subject('b')])), true);
    assert.deepEqual(existing.subjects, [subject('mine'), subject('a'), subject('b')]);
    assert.equal(reconcileClusterRoleBinding(existing, binding([subject('b')])), false);
    assert.equal(roleRefDiffers(existing, binding([], 'other')), true);
    assert.equal(roleRefDiffers(existing, binding([])), false);
  });

  const autoupdate: [string | undefined, boolean][] = [
    [undefined, true],
    ['true', true],
    ['false', false],
    ['False', false],
    ['0', false],
    ['no', true],
  ];
  for (const [value, may] of autoupdate) {
    it(`autoupdate ${JSON.stringify(value)} → ${may ? 'reconciled' : 'left alone'}`, () => {
      const annotations = value === undefined ? undefined : { [ANNOTATION]: value };
      assert.equal(mayAutoupdate({ metadata: { annotations } }, ANNOTATION), may);
    });
  }
});
