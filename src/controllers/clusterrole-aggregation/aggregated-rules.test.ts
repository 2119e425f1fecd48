import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterRole, PolicyRule } from '../../apis/rbac/rbac-types.js';
import { aggregatedRules } from './aggregated-rules.js';

const rule = (resource: string, verb = 'get'): PolicyRule => ({
  apiGroups: [''],
  resources: [resource],
  verbs: [verb],
});
const role = (
  name: string,
  labels: Record<string, string>,
  rules: PolicyRule[],
  selectors?: object[],
): ClusterRole => ({
  apiVersion: 'v1',
  kind: 'ClusterRole',
  metadata: { name, labels },
  rules,
  ...(selectors ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}),
});

describe('aggregatedRules', () => {
  const others = [
    role('b', { view: 'true' }, [rule('pods'), rule('secrets')]),
    role('a', { view: 'true', edit: 'true' }, [rule('secrets'), rule('configmaps')]),
    role('c', { edit: 'true' }, [rule('pods', 'update')]),
    role('d', {}, [rule('nodes')]),
  ];
  const cases: [string, object[], PolicyRule[]][] = [
    [
      'collects matching roles by name, each rule once',
      [{ matchLabels: { view: 'true' } }],
      [rule('secrets'), rule('configmaps'), rule('pods')],
    ],
    [
      'walks selectors in order',
      [{ matchLabels: { edit: 'true' } }, { matchLabels: { view: 'true' } }],
      [rule('secrets'), rule('configmaps'), rule('pods', 'update'), rule('pods')],
    ],
    [
      'supports expressions',
      [{ matchExpressions: [{ key: 'edit', operator: 'DoesNotExist' }] }],
      [rule('pods'), rule('secrets'), rule('nodes')],
    ],
    ['an invalid selector selects nothing', [{ matchExpressions: [{ key: 'x', operator: 'Nope' }] }], []],
    ['no selector, no rules', [], []],
  ];
  for (const [what, selectors, want] of cases) {
    it(what, () => {
      const self = role('self', { view: 'true' }, [rule('mine')], selectors);
      assert.deepEqual(aggregatedRules(self, [...others, self]), want);
    });
  }
});
