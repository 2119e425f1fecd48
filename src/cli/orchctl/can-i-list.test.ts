import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatRulesReview } from './can-i-list.js';

describe('formatRulesReview', () => {
  it('breaks rules down, merges single-resource rules, sorts them by their Go string form', () => {
    const out = formatRulesReview(
      {
        resourceRules: [
          { verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets', 'configmaps'] },
          { verbs: ['watch', 'get'], apiGroups: [''], resources: ['configmaps'] },
          { verbs: ['patch'], apiGroups: ['apps'], resources: ['deployments/scale'], resourceNames: ['web', 'api'] },
          { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        ],
        nonResourceRules: [{ verbs: ['get', 'post'], nonResourceURLs: ['/b', '/a'] }],
      },
      { headers: true },
    );
    // Sort keys: `&PolicyRule{Verbs:[*],…` < `Verbs:[get list watch]` < `Verbs:[get list]` < `Verbs:[get]` < …
    assert.deepEqual(out.split('\n'), [
      'Resources                Non-Resource URLs   Resource Names   Verbs',
      '*.*                      []                  []               [*]',
      'configmaps               []                  []               [get list watch]',
      'secrets                  []                  []               [get list]',
      '                         [/a]                []               [get]',
      '                         [/b]                []               [get]',
      'deployments.apps/scale   []                  [api]            [patch]',
      'deployments.apps/scale   []                  [web]            [patch]',
      '                         [/a]                []               [post]',
      '                         [/b]                []               [post]',
      '',
    ]);
  });
});
