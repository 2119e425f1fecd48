import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyRule } from '../../apis/rbac/rbac-types.js';
import { breakdownRule, compactString, escalationMessage, uncoveredRules } from './escalation.js';

const r = (rule: Partial<PolicyRule> & { verbs: string[] }): PolicyRule => rule;

describe('escalation coverage', () => {
  it('breaks a rule into atomic rules', () => {
    assert.deepEqual(breakdownRule(r({ apiGroups: ['', 'apps'], resources: ['pods'], verbs: ['get', 'list'] })), [
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['list'] },
    ]);
    assert.deepEqual(breakdownRule(r({ nonResourceURLs: ['/a', '/b'], verbs: ['get'] })), [
      { nonResourceURLs: ['/a'], verbs: ['get'] },
      { nonResourceURLs: ['/b'], verbs: ['get'] },
    ]);
  });

  const cases: [string, PolicyRule[], PolicyRule[], number][] = [
    [
      'exact',
      [r({ apiGroups: [''], resources: ['pods'], verbs: ['get'] })],
      [r({ apiGroups: [''], resources: ['pods'], verbs: ['get'] })],
      0,
    ],
    [
      'wildcards cover everything',
      [r({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] })],
      [r({ apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['update'] })],
      0,
    ],
    [
      'a verb short',
      [r({ apiGroups: [''], resources: ['pods'], verbs: ['get'] })],
      [r({ apiGroups: [''], resources: ['pods'], verbs: ['get', 'delete'] })],
      1,
    ],
    [
      '*/scale covers any scale',
      [r({ apiGroups: ['*'], resources: ['*/scale'], verbs: ['get'] })],
      [r({ apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['get'] })],
      0,
    ],
    [
      'a resource does not cover its sub-resources',
      [r({ apiGroups: [''], resources: ['pods'], verbs: ['get'] })],
      [r({ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] })],
      1,
    ],
    [
      'named objects cannot grant all objects',
      [r({ apiGroups: [''], resources: ['secrets'], resourceNames: ['a'], verbs: ['get'] })],
      [r({ apiGroups: [''], resources: ['secrets'], verbs: ['get'] })],
      1,
    ],
    [
      'all objects cover named ones',
      [r({ apiGroups: [''], resources: ['secrets'], verbs: ['get'] })],
      [r({ apiGroups: [''], resources: ['secrets'], resourceNames: ['a', 'b'], verbs: ['get'] })],
      0,
    ],
    [
      'URL prefixes',
      [r({ nonResourceURLs: ['/logs/*'], verbs: ['get'] })],
      [r({ nonResourceURLs: ['/logs/x', '/metrics'], verbs: ['get'] })],
      1,
    ],
  ];
  for (const [name, owner, servant, missing] of cases) {
    it(name, () => assert.equal(uncoveredRules(owner, servant).length, missing));
  }

  it('words the refusal as kube-apiserver does, missing verbs compacted and sorted', () => {
    const missing = uncoveredRules(
      [],
      [
        r({ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }),
        r({ apiGroups: [''], resources: ['secrets'], resourceNames: ['s'], verbs: ['get'] }),
        r({ nonResourceURLs: ['/metrics'], verbs: ['get'] }),
      ],
    );
    assert.equal(
      escalationMessage({ name: 'alice', groups: ['dev', 'system:authenticated'] }, missing),
      'user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["secrets"], ResourceNames:["s"], Verbs:["get"]}\n' +
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}\n' +
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    );
    assert.equal(
      compactString(r({ verbs: ['get'], nonResourceURLs: ['/x'] })),
      '{NonResourceURLs:["/x"], Verbs:["get"]}',
    );
  });
});
