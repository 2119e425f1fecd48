import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_SELECTORS } from '../../apis/request/authorization-attributes.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import {
  AUTHORIZER_TYPE,
  authorizerValue,
  authzLibrary,
  type CelAuthorizationAttributes,
  type CelAuthorizationDecision,
} from './authz.js';
import { celEnvironment, evaluationErrorOf } from './testing/cel-cases.js';

const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };

/** An authorizer that records what it is asked: alice may list pods in "dev" and get /healthz. */
function recorder(): {
  asked: CelAuthorizationAttributes[];
  authorize: (a: CelAuthorizationAttributes) => CelAuthorizationDecision;
} {
  const asked: CelAuthorizationAttributes[] = [];
  return {
    asked,
    authorize(a) {
      asked.push(a);
      if (a.user.name === 'system:serviceaccount:kube-system:broken') {
        return { decision: 'no-opinion', reason: '', error: 'webhook unavailable' };
      }
      if (a.user.name !== 'alice') return { decision: 'deny', reason: 'not alice' };
      if (a.isResourceRequest && a.resource === 'pods' && a.namespace === 'dev' && a.verb === 'list') {
        return { decision: 'allow', reason: 'dev may list pods' };
      }
      if (!a.isResourceRequest && a.path === '/healthz' && a.verb === 'get') return { decision: 'allow', reason: '' };
      return { decision: 'no-opinion', reason: 'no rule' };
    },
  };
}

function evaluate(expr: string, options: { authorizeWithSelectors?: boolean } = {}) {
  const r = recorder();
  const value = authorizerValue(alice, r.authorize, {
    group: 'apps',
    resource: 'deployments',
    namespace: 'dev',
    name: 'web',
  });
  const env = celEnvironment([authzLibrary(options)], { authorizer: [AUTHORIZER_TYPE, value] });
  return { env, value, asked: r.asked, result: () => env.evaluate(expr, { authorizer: value }) };
}

const resource = (fields: Partial<CelAuthorizationAttributes>): CelAuthorizationAttributes => ({
  user: alice,
  isResourceRequest: true,
  path: '',
  apiGroup: '',
  apiVersion: '*',
  resource: '',
  subresource: '',
  namespace: '',
  name: '',
  ...NO_SELECTORS,
  verb: '',
  ...fields,
});

describe('kubernetes.authz', () => {
  const decisions: [expr: string, want: unknown, asked: Partial<CelAuthorizationAttributes>][] = [
    [
      "authorizer.group('').resource('pods').namespace('dev').check('list').allowed()",
      true,
      { resource: 'pods', namespace: 'dev', verb: 'list' },
    ],
    [
      "authorizer.group('').resource('pods').namespace('dev').check('list').reason()",
      'dev may list pods',
      { resource: 'pods', namespace: 'dev', verb: 'list' },
    ],
    [
      "authorizer.group('apps').resource('deployments').subresource('scale').namespace('test').name('backend').check('update').allowed()",
      false,
      {
        apiGroup: 'apps',
        resource: 'deployments',
        subresource: 'scale',
        namespace: 'test',
        name: 'backend',
        verb: 'update',
      },
    ],
    // An empty subresource, namespace or name is "unset".
    [
      "authorizer.group('example.com').resource('widgets').subresource('').namespace('').name('').check('get').reason()",
      'no rule',
      { apiGroup: 'example.com', resource: 'widgets', verb: 'get' },
    ],
    ["authorizer.group('').resource('pods').check('create').errored()", false, { resource: 'pods', verb: 'create' }],
    ["authorizer.group('').resource('pods').check('create').error()", '', { resource: 'pods', verb: 'create' }],
    // The request's own resource (kube's authorizer.requestResource).
    [
      "authorizer.requestResource.check('delete').reason()",
      'no rule',
      { apiGroup: 'apps', resource: 'deployments', namespace: 'dev', name: 'web', verb: 'delete' },
    ],
    [
      "authorizer.requestResource.subresource('status').check('get').allowed()",
      false,
      { apiGroup: 'apps', resource: 'deployments', subresource: 'status', namespace: 'dev', name: 'web', verb: 'get' },
    ],
  ];
  for (const [expr, want, asked] of decisions) {
    it(expr, () => {
      const t = evaluate(expr);
      assert.deepEqual(t.result(), want);
      assert.deepEqual(t.asked, [resource(asked)]);
    });
  }

  it('checks non-resource paths with the HTTP verb as given', () => {
    const t = evaluate(
      "authorizer.path('/healthz').check('get').allowed() && !authorizer.path('/metrics').check('GET').allowed()",
    );
    assert.equal(t.result(), true);
    assert.deepEqual(
      t.asked.map((a) => [a.isResourceRequest, a.path, a.verb, a.apiVersion, a.resource]),
      [
        [false, '/healthz', 'get', '', ''],
        [false, '/metrics', 'GET', '', ''],
      ],
    );
  });

  it('switches to a service account, with its groups (not system:authenticated)', () => {
    const t = evaluate(
      "authorizer.serviceAccount('default', 'builder').group('').resource('pods').check('get').reason()",
    );
    assert.equal(t.result(), 'not alice');
    assert.deepEqual(t.asked[0].user, {
      name: 'system:serviceaccount:default:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default'],
    });
  });

  it('reports an authorizer error through errored() and error()', () => {
    const t = evaluate(
      "authorizer.serviceAccount('kube-system', 'broken').path('/x').check('get').errored() && authorizer.serviceAccount('kube-system', 'broken').path('/x').check('get').error() == 'webhook unavailable'",
    );
    assert.equal(t.result(), true);
  });

  it('rejects empty paths and resources and invalid service accounts with kube messages', () => {
    const cases: [string, string][] = [
      ["authorizer.path('')", 'path must not be empty'],
      ["authorizer.path('  ')", 'path must not be empty'],
      ["authorizer.path('\\u3000')", 'path must not be empty'],
      ["authorizer.group('apps').resource('')", 'resource must not be empty'],
      ["authorizer.group('apps').resource(' \\t')", 'resource must not be empty'],
      ["authorizer.serviceAccount('default', 'invalid@*name')", 'Invalid service account name'],
      ["authorizer.serviceAccount('not@a#valid!namespace', 'validname')", 'Invalid service account namespace'],
      ["authorizer.serviceAccount('a.b', 'validname')", 'Invalid service account namespace'],
      ["authorizer.serviceAccount('', 'validname')", 'Invalid service account namespace'],
      ["authorizer.serviceAccount('bad@', 'bad@')", 'Invalid service account name'],
    ];
    for (const [expr, message] of cases) {
      const t = evaluate(expr);
      assert.equal(evaluationErrorOf(t.env, expr, { authorizer: t.value }), message, expr);
      assert.deepEqual(t.asked, []);
    }
  });

  it('has no selectors without the AuthorizeWithSelectors gate', () => {
    const t = evaluate("authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1')");
    assert.equal(t.env.check("authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1')").valid, false);
    assert.equal(t.env.check("authorizer.group('').resource('pods').labelSelector('app=x')").valid, false);
  });

  it('passes field and label selectors to the authorizer with the gate', () => {
    const t = evaluate(
      "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1').labelSelector('app=x').namespace('dev').check('list').allowed()",
      { authorizeWithSelectors: true },
    );
    assert.equal(t.result(), true);
    assert.deepEqual(t.asked, [
      resource({
        resource: 'pods',
        namespace: 'dev',
        verb: 'list',
        fieldSelector: 'spec.nodeName=n1',
        labelSelector: 'app=x',
        fieldSelectorRequirements: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }],
        labelSelectorRequirements: [{ key: 'app', operator: '=', values: ['x'] }],
      }),
    ]);
  });

  it('is type-checked: checks need a verb, decisions are not booleans', () => {
    const t = evaluate('true');
    assert.equal(t.env.check("authorizer.path('/a').check()").valid, false);
    assert.equal(t.env.check("authorizer.group('').check('get')").valid, false);
    assert.equal(t.env.check("authorizer.path('/a').check('get') == true").valid, false);
  });
});
