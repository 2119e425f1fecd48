import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestInfo } from '../apis/request/request-info.js';
import { alwaysAllow, alwaysDeny } from './always.js';
import { attributesOf, forbiddenMessage } from './attributes.js';
import { buildAuthorizer, validateAuthorizationModes } from './authorization-modes.js';
import type { AuthorizationResult, Authorizer } from './authorizer.js';
import { unionAuthorizer } from './union-authorizer.js';

const request = { signal: new AbortController().signal };
const WITH_SELECTORS = { withSelectors: true };

function info(over: Partial<RequestInfo>): RequestInfo {
  return {
    isResourceRequest: true,
    path: '/api/v1/namespaces/ns/configmaps/x',
    verb: 'get',
    apiPrefix: 'api',
    apiGroup: '',
    apiVersion: 'v1',
    namespace: 'ns',
    resource: 'configmaps',
    subresource: '',
    name: 'x',
    parts: ['configmaps', 'x'],
    fieldSelector: '',
    labelSelector: '',
    ...over,
  };
}

const bob = { name: 'bob', groups: ['system:authenticated'] };
const admin = { name: 'root', groups: ['system:masters', 'system:authenticated'] };

function fixed(r: AuthorizationResult, calls: string[], name: string): Authorizer {
  return {
    async authorize() {
      calls.push(name);
      return r;
    },
  };
}

describe('authorization chain', () => {
  const noOpinion = (reason = ''): AuthorizationResult => ({ decision: 'no-opinion', reason });
  const cases: { name: string; chain: AuthorizationResult[]; want: AuthorizationResult; consulted: number }[] = [
    {
      name: 'first allow wins',
      chain: [
        { decision: 'allow', reason: '' },
        { decision: 'deny', reason: 'no' },
      ],
      want: { decision: 'allow', reason: '' },
      consulted: 1,
    },
    {
      name: 'first deny wins',
      chain: [
        { decision: 'deny', reason: 'no' },
        { decision: 'allow', reason: '' },
      ],
      want: { decision: 'deny', reason: 'no' },
      consulted: 1,
    },
    {
      name: 'no opinion passes to the next',
      chain: [noOpinion('a'), { decision: 'allow', reason: '' }],
      want: { decision: 'allow', reason: '' },
      consulted: 2,
    },
    {
      name: 'all no opinion joins the reasons',
      chain: [noOpinion('a'), noOpinion(''), noOpinion('b')],
      want: noOpinion('a\nb'),
      consulted: 3,
    },
    {
      name: 'errors of modules without opinion are aggregated as Go does',
      chain: [
        { decision: 'no-opinion', reason: '', evaluationError: 'webhook down' },
        { decision: 'no-opinion', reason: 'r', evaluationError: 'match failed' },
        { decision: 'no-opinion', reason: '', evaluationError: 'webhook down' },
      ],
      want: { decision: 'no-opinion', reason: 'r', evaluationError: '[webhook down, match failed]' },
      consulted: 3,
    },
    {
      name: 'a decision keeps only its own error',
      chain: [
        { decision: 'no-opinion', reason: '', evaluationError: 'first' },
        { decision: 'deny', reason: '', evaluationError: 'second' },
      ],
      want: { decision: 'deny', reason: '', evaluationError: 'second' },
      consulted: 2,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const calls: string[] = [];
      const union = unionAuthorizer(c.chain.map((r, i) => fixed(r, calls, String(i))));
      assert.deepEqual(await union.authorize(attributesOf(info({}), bob, WITH_SELECTORS), request), c.want);
      assert.equal(calls.length, c.consulted);
    });
  }

  it('lets system:masters through AlwaysDeny and denies others with kube reason', async () => {
    const authz = buildAuthorizer(['AlwaysDeny']);
    assert.equal((await authz.authorize(attributesOf(info({}), admin, WITH_SELECTORS), request)).decision, 'allow');
    assert.deepEqual(await authz.authorize(attributesOf(info({}), bob, WITH_SELECTORS), request), {
      decision: 'deny',
      reason: 'Everything is forbidden.',
    });
    assert.equal((await alwaysAllow.authorize(attributesOf(info({}), bob, WITH_SELECTORS), request)).decision, 'allow');
    assert.equal((await alwaysDeny.authorize(attributesOf(info({}), admin, WITH_SELECTORS), request)).decision, 'deny');
  });

  it('refuses unknown, planned and repeated modes, listing every problem', () => {
    assert.deepEqual(validateAuthorizationModes(['AlwaysAllow']), []);
    assert.deepEqual(validateAuthorizationModes(['Magic', 'AlwaysDeny', 'AlwaysDeny']), [
      'authorization-mode "Magic" is not a valid mode (valid modes: AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node)',
      'authorization-mode "AlwaysDeny" has mode specified more than once',
    ]);
    assert.throws(() => buildAuthorizer([]), /at least one authorization-mode must be passed/);
    assert.throws(() => buildAuthorizer(['RBAC']), /needs the RBAC authorizer/);
    assert.throws(() => buildAuthorizer(['ABAC']), /authorization-mode ABAC's authorization policy file not passed/);
    assert.throws(() => buildAuthorizer(['Node', 'RBAC']), /needs the Node authorizer/);
  });
});

describe('forbidden message', () => {
  const cases: { name: string; info: Partial<RequestInfo>; want: string }[] = [
    {
      name: 'namespaced resource',
      info: {},
      want: 'User "bob" cannot get resource "configmaps" in API group "" in the namespace "ns"',
    },
    {
      name: 'cluster scope with a group and sub-resource',
      info: {
        namespace: '',
        apiGroup: 'coordination.orch.io',
        resource: 'leases',
        subresource: 'status',
        verb: 'update',
      },
      want: 'User "bob" cannot update resource "leases/status" in API group "coordination.orch.io" at the cluster scope',
    },
    {
      name: 'non-resource path',
      info: { isResourceRequest: false, path: '/healthz', verb: 'get', resource: '', name: '', namespace: '' },
      want: 'User "bob" cannot get path "/healthz"',
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(forbiddenMessage(attributesOf(info(c.info), bob, WITH_SELECTORS)), c.want));
  }
});

describe('request attributes (AuthorizeWithSelectors)', () => {
  const list = (fieldSelector: string, labelSelector: string) =>
    info({ verb: 'list', name: '', parts: ['configmaps'], fieldSelector, labelSelector });
  const cases: {
    name: string;
    info: RequestInfo;
    withSelectors: boolean;
    want: Partial<ReturnType<typeof attributesOf>>;
  }[] = [
    {
      name: 'parses both selectors into requirements',
      info: list('metadata.namespace!=kube,spec.x==y', 'app in (b,a),!tier'),
      withSelectors: true,
      want: {
        fieldSelector: 'metadata.namespace!=kube,spec.x==y',
        fieldSelectorRequirements: [
          { field: 'metadata.namespace', operator: '!=', value: 'kube' },
          { field: 'spec.x', operator: '=', value: 'y' },
        ],
        fieldSelectorParsingError: undefined,
        labelSelector: 'app in (b,a),!tier',
        labelSelectorRequirements: [
          { key: 'app', operator: 'in', values: ['a', 'b'] },
          { key: 'tier', operator: '!', values: [] },
        ],
        labelSelectorParsingError: undefined,
      },
    },
    {
      name: 'keeps the parse error of a selector that does not parse, and no requirements',
      info: list('a', 'x in ('),
      withSelectors: true,
      want: {
        fieldSelectorRequirements: undefined,
        fieldSelectorParsingError: "invalid selector: 'a'; can't understand 'a'",
        labelSelectorRequirements: undefined,
        labelSelectorParsingError: "unable to parse requirement: found '', expected: ',', ')' or identifier",
      },
    },
    {
      name: 'a selector without terms has no requirements',
      info: list(',', ''),
      withSelectors: true,
      want: { fieldSelector: ',', fieldSelectorRequirements: undefined, fieldSelectorParsingError: undefined },
    },
    {
      name: 'carries no selector at all without the gate',
      info: list('spec.x=y', 'app=a'),
      withSelectors: false,
      want: {
        fieldSelector: '',
        labelSelector: '',
        fieldSelectorRequirements: undefined,
        labelSelectorRequirements: undefined,
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const a = attributesOf(c.info, bob, { withSelectors: c.withSelectors });
      const picked = Object.fromEntries(Object.keys(c.want).map((k) => [k, a[k as keyof typeof a]]));
      assert.deepEqual(picked, c.want);
    });
  }
});
