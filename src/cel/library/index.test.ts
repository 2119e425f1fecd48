import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTHORIZER_TYPE, authorizerValue, type CelAuthorize, celLibraries } from './index.js';
import { celEnvironment } from './testing/cel-cases.js';

describe('celLibraries', () => {
  it("lists kube-apiserver v1.32's base libraries in kube's order", () => {
    assert.deepEqual(
      celLibraries().map((l) => l.name),
      [
        'kubernetes.urls',
        'kubernetes.regex',
        'kubernetes.lists',
        'kubernetes.authz',
        'kubernetes.quantity',
        'cel.lib.ext.strings',
        'cel.lib.ext.sets',
        'kubernetes.net.ip',
        'kubernetes.net.cidr',
        'kubernetes.format',
      ],
    );
    assert.deepEqual(celLibraries({ semver: true }).at(-1)?.name, 'kubernetes.Semver');
  });

  it('register together into one environment, where their functions combine', () => {
    const allow: CelAuthorize = (a) => ({ decision: a.verb === 'get' ? 'allow' : 'deny', reason: '' });
    const authorizer = authorizerValue({ name: 'alice', groups: [] }, allow);
    const env = celEnvironment(celLibraries({ semver: true, authorizeWithSelectors: true }), {
      authorizer: [AUTHORIZER_TYPE, authorizer],
    });
    const expr = [
      "url('https://example.com:8443/p').getPort() == '8443'",
      "'a1b22'.findAll('[0-9]+').size() == 2",
      '[3, 1, 2].max() == 3',
      "authorizer.group('').resource('pods').labelSelector('app=x').check('get').allowed()",
      "quantity('1Gi').isGreaterThan(quantity('1G'))",
      "'%s-%d'.format(['x', 1]) == 'x-1'",
      'sets.contains([1, 2], [2])',
      "cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))",
      "!format.dns1123Label().validate('ok').hasValue()",
      "semver('1.2.3').isLessThan(semver('1.10.0'))",
    ].join(' && ');
    assert.equal(env.check(expr).valid, true, env.check(expr).error?.message);
    assert.equal(env.evaluate(expr, { authorizer }), true);
  });
});
