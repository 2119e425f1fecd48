import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Environment } from '@marcbachmann/cel-js';
import type { CelLibrary } from './cel-library.js';
import {
  ADMISSION_DECLARATIONS,
  AUTHENTICATION_CLAIMS_DECLARATIONS,
  AUTHENTICATION_USER_DECLARATIONS,
  AUTHORIZATION_MATCH_DECLARATIONS,
} from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError } from './errors.js';
import { compile, evaluate } from './program.js';
import {
  celVersion,
  compareCelVersions,
  DEFAULT_COMPATIBILITY_VERSION,
  formatCelVersion,
  parseCelVersion,
} from './version.js';

const OPTIONALS = [
  ["claims.?email.orValue('none')", 'none'],
  ["claims[?'email'].hasValue()", false],
  ['optional.of(1).value()', 1],
  ['optional.none().orValue(2)', 2],
  ["claims.?sub.value() == 'u'", true],
  ["optional.of(claims.sub).hasValue() && claims.?nope.orValue('x') == 'x'", true],
] as const;

describe('versioned environments', () => {
  it('has optional types from compatibility version 1.28 on (release 1.29 onwards)', () => {
    for (const [version, available] of [
      ['1.27', false],
      ['1.28', true],
      ['1.31', true],
    ] as const) {
      const set = new CelEnvironmentSet({ compatibilityVersion: parseCelVersion(version) });
      const { newExpressions, storedExpressions } = set.extend(AUTHENTICATION_CLAIMS_DECLARATIONS);
      for (const [expression, want] of OPTIONALS) {
        // Stored expressions always may use them: they may have been written by a newer release.
        assert.equal(evaluate(compile(expression, storedExpressions), { claims: { sub: 'u' } }), want, expression);
        if (available) assert.equal(evaluate(compile(expression, newExpressions), { claims: { sub: 'u' } }), want);
        else assert.throws(() => compile(expression, newExpressions), CelCompileError, `${version}: ${expression}`);
      }
    }
  });

  it('offers a library to new expressions from its version, and to stored ones until it is removed', () => {
    const library = (name: string, fn: string, result: string): CelLibrary => ({
      name,
      register(env: Environment) {
        env.registerFunction(`${fn}(): string`, () => result);
      },
    });
    const libraries = [
      {
        library: library('v1', 'greeting', 'hello'),
        introducedVersion: celVersion(1, 29),
        removedVersion: celVersion(1, 31),
      },
      { library: library('v2', 'greeting2', 'hi'), introducedVersion: celVersion(1, 31) },
    ];
    const at = (v: string) =>
      new CelEnvironmentSet({ compatibilityVersion: parseCelVersion(v), libraries }).extend(
        AUTHENTICATION_CLAIMS_DECLARATIONS,
      );
    const compiles = (expression: string, env: ReturnType<typeof at>['newExpressions']) => {
      try {
        compile(expression, env);
        return true;
      } catch {
        return false;
      }
    };
    assert.equal(compiles('greeting()', at('1.28').newExpressions), false);
    assert.equal(compiles('greeting()', at('1.29').newExpressions), true);
    assert.equal(compiles('greeting2()', at('1.29').newExpressions), false);
    assert.equal(compiles('greeting()', at('1.31').newExpressions), false);
    assert.equal(compiles('greeting2()', at('1.31').newExpressions), true);
    // stored expressions: every library not removed
    assert.equal(compiles('greeting()', at('1.29').storedExpressions), false);
    assert.equal(compiles('greeting2()', at('1.28').storedExpressions), true);
    assert.equal(evaluate(compile('greeting2()', at('1.28').storedExpressions), {}), 'hi');
  });

  it('shares one environment when new and stored expressions see the same features', () => {
    const pair = new CelEnvironmentSet({ compatibilityVersion: celVersion(1, 32) }).extend(
      AUTHENTICATION_CLAIMS_DECLARATIONS,
    );
    assert.equal(pair.newExpressions, pair.storedExpressions);
    // At the default (1.31), stored expressions also see what 1.32 introduced.
    const current = new CelEnvironmentSet().extend(AUTHENTICATION_CLAIMS_DECLARATIONS);
    assert.notEqual(current.newExpressions, current.storedExpressions);
    const old = new CelEnvironmentSet({ compatibilityVersion: celVersion(1, 27) }).extend(
      AUTHENTICATION_CLAIMS_DECLARATIONS,
    );
    assert.notEqual(old.newExpressions, old.storedExpressions);
  });

  it('parses and orders versions', () => {
    assert.deepEqual(parseCelVersion('v1.31'), { major: 1, minor: 31 });
    assert.equal(formatCelVersion(DEFAULT_COMPATIBILITY_VERSION), '1.31');
    assert.ok(compareCelVersions(celVersion(1, 9), celVersion(1, 10)) < 0);
    assert.ok(compareCelVersions(celVersion(2, 0), celVersion(1, 99)) > 0);
    assert.throws(() => parseCelVersion('1'), RangeError);
    assert.throws(() => celVersion(-1, 0), RangeError);
  });
});

describe('environments per use', () => {
  const set = new CelEnvironmentSet();

  it('authentication claims: a dynamic map', () => {
    const env = set.extend(AUTHENTICATION_CLAIMS_DECLARATIONS).newExpressions;
    const claims = { sub: 'alice', groups: ['a', 'b'], exp: 1700000000, nested: { ok: true } };
    assert.equal(evaluate(compile("'system:' + claims.sub", env), { claims }), 'system:alice');
    assert.deepEqual(evaluate(compile("claims.groups.map(g, 'oidc:' + g)", env), { claims }), ['oidc:a', 'oidc:b']);
    assert.equal(
      evaluate(compile('claims.exp > 1600000000 && has(claims.nested.ok) && !has(claims.email)', env), { claims }),
      true,
    );
    assert.throws(() => compile('claims + 1', env), CelCompileError);
  });

  it('authentication user: username, uid, groups, extra', () => {
    const env = set.extend(AUTHENTICATION_USER_DECLARATIONS).newExpressions;
    const user = { username: 'alice', uid: '1', groups: ['dev'], extra: { scopes: ['x', 'y'] } };
    const expression =
      "user.username.startsWith('al') && 'dev' in user.groups && user.extra['scopes'].size() == 2 && user.uid == '1'";
    assert.equal(evaluate(compile(expression, env), { user }), true);
    assert.throws(() => compile('user.name', env), /undefined field 'name'/);
  });

  it('authorization match conditions: request is a SubjectAccessReview spec', () => {
    const env = set.extend(AUTHORIZATION_MATCH_DECLARATIONS).newExpressions;
    const request = {
      user: 'alice',
      groups: ['system:authenticated'],
      resourceAttributes: {
        verb: 'list',
        resource: 'pods',
        namespace: 'ns',
        labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['web'] }] },
      },
    };
    const expression =
      "has(request.resourceAttributes) && request.resourceAttributes.verb == 'list' && !has(request.nonResourceAttributes) && request.resourceAttributes.labelSelector.requirements[0].values == ['web']";
    assert.equal(evaluate(compile(expression, env), { request }), true);
    assert.throws(() => compile('request.resourceAttributes.kind', env), /undefined field 'kind'/);
    // kube declares these types natively: `namespace` keeps its name (schema properties escape it).
    assert.equal(evaluate(compile("request.resourceAttributes.namespace == 'ns'", env), { request }), true);
    assert.throws(() => compile('request.resourceAttributes.__namespace__', env), /undefined field '__namespace__'/);
  });

  it('admission: object and oldObject and params dynamic, request typed', () => {
    const env = set.extend(ADMISSION_DECLARATIONS).newExpressions;
    const activation = {
      object: { metadata: { name: 'x', labels: { app: 'web' } }, spec: { replicas: 3 } },
      oldObject: null,
      params: { maxReplicas: 5 },
      request: {
        operation: 'CREATE',
        kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        userInfo: { username: 'alice', groups: ['dev'] },
        dryRun: false,
      },
      namespaceObject: { metadata: { name: 'ns' } },
    };
    const expression =
      "request.operation == 'CREATE' && oldObject == null && object.spec.replicas <= params.maxReplicas && request.kind.kind == 'Deployment' && request.userInfo.username == 'alice' && namespaceObject.metadata.name == 'ns'";
    assert.equal(evaluate(compile(expression, env), activation), true);
    assert.equal(
      evaluate(compile("has(object.metadata.labels) && object.metadata.labels.app == 'web'", env), activation),
      true,
    );
    assert.throws(() => compile('request.operations', env), /undefined field 'operations'/);
  });
});
