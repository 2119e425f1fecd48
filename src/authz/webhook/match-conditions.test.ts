import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { requestSelectorAttributes } from '../../apis/request/selector-attributes.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { versionedCelLibraries } from '../../cel/library/index.js';
import { AuthorizationMetrics } from '../authorization-metrics.js';
import { compileMatchConditions, MatchConditionCompiler } from './match-conditions.js';
import { type SubjectAccessReviewSpec, subjectAccessReviewSpec } from './subject-access-review.js';

const compiler = new MatchConditionCompiler(new CelEnvironmentSet({ libraries: versionedCelLibraries() }));

const podList: SubjectAccessReviewSpec = subjectAccessReviewSpec({
  user: { name: 'alice', groups: ['dev'] },
  verb: 'list',
  isResourceRequest: true,
  path: '/api/v1/namespaces/team/pods',
  namespace: 'team',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: '',
  ...requestSelectorAttributes('spec.nodeName=n1', 'app=web'),
});
const healthz: SubjectAccessReviewSpec = {
  nonResourceAttributes: { path: '/healthz', verb: 'get' },
  user: 'bob',
  groups: [],
  extra: {},
  uid: '',
};

function matcher(expressions: string[], registry = new Registry()) {
  const compiled = compileMatchConditions(expressions, compiler, {
    path: 'authorizers[0]',
    authorizerType: 'Webhook',
    authorizerName: 'policy',
    metrics: new AuthorizationMetrics(registry),
  });
  assert.deepEqual(compiled.errors, []);
  assert.ok(compiled.matcher);
  return compiled.matcher;
}

describe('match conditions', () => {
  const cases: { name: string; expressions: string[]; spec: SubjectAccessReviewSpec; want: boolean | RegExp }[] = [
    {
      name: 'all true',
      expressions: [
        "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'team'",
        "'dev' in request.groups && request.uid == '' && request.extra.size() == 0",
        "request.resourceAttributes.fieldSelector.requirements.exists(r, r.key == 'spec.nodeName' && r.operator == 'In' && r.values == ['n1'])",
        "request.resourceAttributes.labelSelector.requirements[0].key == 'app'",
      ],
      spec: podList,
      want: true,
    },
    {
      name: 'one false',
      expressions: ['true', "request.user == 'nobody'"],
      spec: podList,
      want: false,
    },
    {
      name: 'a non-resource request',
      expressions: ["!has(request.resourceAttributes) && request.nonResourceAttributes.path == '/healthz'"],
      spec: healthz,
      want: true,
    },
    {
      name: 'an error and no false',
      expressions: ['true', "request.extra['scopes'][0] == 'x'"],
      spec: podList,
      want: /^cel evaluation error: expression 'request\.extra\['scopes'\]\[0\] == 'x'' resulted in error: no such key: scopes$/,
    },
    {
      name: 'an error and a false: false wins',
      expressions: ["request.extra['scopes'][0] == 'x'", "request.user == 'nobody'"],
      spec: podList,
      want: false,
    },
    {
      name: 'two errors, aggregated',
      expressions: ["request.extra['a'][0] == 'x'", "request.extra['b'][0] == 'x'"],
      spec: podList,
      want: /^\[cel evaluation error: .* no such key: a, cel evaluation error: .* no such key: b\]$/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const m = matcher(c.expressions);
      if (typeof c.want === 'boolean') assert.equal(await m.matches(c.spec), c.want);
      else {
        const want = c.want;
        await assert.rejects(
          async () => m.matches(c.spec),
          (e: unknown) => e instanceof Error && want.test(e.message),
        );
      }
    });
  }

  it('counts exclusions, errors and evaluation time per authorizer', async () => {
    const registry = new Registry();
    const m = matcher(["request.user == 'alice'", "request.extra['x'][0] == 'y'"], registry);
    await assert.rejects(async () => m.matches(podList));
    assert.equal(await m.matches(healthz), false);
    const value = async (name: string) =>
      (await registry.getSingleMetric(name)?.get())?.values.map((v) => [v.labels.type, v.labels.name, v.value]);
    assert.deepEqual(await value('apiserver_authorization_match_condition_evaluation_errors_total'), [
      ['Webhook', 'policy', 1],
    ]);
    assert.deepEqual(await value('apiserver_authorization_match_condition_exclusions_total'), [
      ['Webhook', 'policy', 1],
    ]);
    const seconds = await registry.getSingleMetric('apiserver_authorization_match_condition_evaluation_seconds')?.get();
    assert.ok(
      seconds?.values.some((v) => (v as { metricName?: string }).metricName?.endsWith('_count') && v.value === 2),
    );
  });

  it('has no matcher without conditions', () => {
    const compiled = compileMatchConditions([], compiler, {
      path: 'p',
      authorizerType: 'Webhook',
      authorizerName: 'n',
    });
    assert.deepEqual(compiled, { matcher: undefined, errors: [] });
  });
});
