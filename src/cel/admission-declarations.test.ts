import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../apis/schema/schema.js';
import { composeVariables } from './composition.js';
import { admissionDeclarations, crdValidationDeclarations } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError, CelEvaluationError } from './errors.js';
import { authorizerValue } from './library/authz.js';
import { versionedCelLibraries } from './library/index.js';
import { compile, evaluate } from './program.js';

const request = {
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  requestKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  requestResource: { group: 'apps', version: 'v1', resource: 'deployments' },
  name: 'web',
  namespace: 'dev',
  operation: 'CREATE',
  userInfo: { username: 'alice', groups: ['dev', 'system:authenticated'] },
  dryRun: false,
  options: { kind: 'CreateOptions', apiVersion: 'meta.orch.io/v1', fieldManager: 'kubectl', dryRun: ['All'] },
};
const object = { metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 3 } };
const namespaceObject = {
  metadata: { name: 'dev', labels: { env: 'dev' }, creationTimestamp: '2024-05-01T10:00:00Z', generation: 1 },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
};
const params = { maxReplicas: 5 };

describe('admission declarations', () => {
  const set = new CelEnvironmentSet({ libraries: versionedCelLibraries() });
  const env = set.extend(admissionDeclarations({ hasParams: true, hasAuthorizer: true })).newExpressions;
  const run = (expression: string, extra: Record<string, unknown> = {}) =>
    evaluate(compile(expression, env), { object, oldObject: null, request, namespaceObject, params, ...extra });

  const cases: [expression: string, want: unknown][] = [
    ["request.operation == 'CREATE' && request.kind.kind == 'Deployment'", true],
    ['request.userInfo.groups', ['dev', 'system:authenticated']],
    ["request.options.fieldManager == 'kubectl'", true],
    ["request.options.dryRun == ['All']", true],
    ['has(request.options.force)', false],
    ['object.spec.replicas <= params.maxReplicas', true],
    ['oldObject == null', true],
    ["namespaceObject.metadata.labels['env']", 'dev'],
    ['namespaceObject.metadata.creationTimestamp.getFullYear()', 2024],
    ['namespaceObject.metadata.generation + 1', 2],
    ["namespaceObject.status.phase == 'Active'", true],
    ['namespaceObject.spec.finalizers', ['kubernetes']],
    ['has(namespaceObject.metadata.deletionTimestamp)', false],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} == ${JSON.stringify(want)}`, () => assert.deepEqual(run(expression), want));
  }

  it('has namespaceObject null for a cluster-scoped resource', () => {
    assert.equal(run('namespaceObject == null', { namespaceObject: null }), true);
    assert.equal(run('null != namespaceObject', { namespaceObject: null }), false);
    assert.equal(
      run("namespaceObject == null || namespaceObject.metadata.name == 'x'", { namespaceObject: null }),
      true,
    );
    assert.equal(run('namespaceObject != null'), true);
  });

  it('types request and namespaceObject: unknown fields do not compile', () => {
    assert.throws(() => compile('request.uid', env), CelCompileError);
    assert.throws(() => compile('namespaceObject.metadata.ownerReferences', env), CelCompileError);
    assert.throws(() => compile('request.operation + 1', env), CelCompileError);
  });

  it('declares params and authorizer only when asked', () => {
    const plain = set.extend(admissionDeclarations()).newExpressions;
    assert.throws(() => compile('params.x', plain), CelCompileError);
    assert.throws(() => compile("authorizer.path('/x').check('get').allowed()", plain), CelCompileError);
  });

  it('binds authorizer and authorizer.requestResource', () => {
    const asked: string[] = [];
    const authorizer = authorizerValue(
      { name: 'alice', groups: ['dev'] },
      (a) => {
        asked.push(`${a.verb} ${a.resource}/${a.subresource} ${a.namespace}/${a.name}`);
        return { decision: a.verb === 'get' ? 'allow' : 'no-opinion', reason: '' };
      },
      { group: 'apps', resource: 'deployments', namespace: 'dev', name: 'web' },
    );
    assert.equal(run("authorizer.requestResource.check('get').allowed()", { authorizer }), true);
    assert.equal(
      run("authorizer.requestResource.subresource('scale').check('update').allowed()", { authorizer }),
      false,
    );
    assert.deepEqual(asked, ['get deployments/ dev/web', 'update deployments/scale dev/web']);
  });
});

describe('optionalOldSelf', () => {
  const schema: Schema = { type: 'object', properties: { replicas: { type: 'integer' } } };
  const set = new CelEnvironmentSet();
  const env = set.extend(crdValidationDeclarations(schema, { optionalOldSelf: true })).newExpressions;
  const rule = 'oldSelf.hasValue() ? self.replicas >= oldSelf.value().replicas : self.replicas > 0';

  it('is optional.none() without an old value, optional.of(old) with one', () => {
    const program = compile(rule, env);
    assert.equal(evaluate(program, { self: { replicas: 1 } }), true);
    assert.equal(evaluate(program, { self: { replicas: 1 }, oldSelf: null }), true);
    assert.equal(evaluate(program, { self: { replicas: 0 } }), false);
    assert.equal(evaluate(program, { self: { replicas: 2 }, oldSelf: { replicas: 3 } }), false);
    assert.equal(evaluate(program, { self: { replicas: 3 }, oldSelf: { replicas: 3 } }), true);
    assert.equal(evaluate(compile('oldSelf.orValue(self) == self', env), { self: { replicas: 3 } }), true);
  });

  it('is not optional without the option', () => {
    const plain = set.extend(crdValidationDeclarations(schema)).newExpressions;
    assert.throws(() => compile('oldSelf.hasValue()', plain), CelCompileError);
  });
});

describe('composited variables', () => {
  const set = new CelEnvironmentSet({ libraries: versionedCelLibraries() });
  const declarations = admissionDeclarations({ hasParams: true });
  const activation = { object, oldObject: null, request, namespaceObject, params };

  it('reads variables declared before, typed by their result, each evaluated once per evaluation', () => {
    const composition = composeVariables(set, declarations, [
      { name: 'replicas', expression: 'object.spec.replicas' },
      { name: 'limit', expression: 'params.maxReplicas' },
      { name: 'fits', expression: 'variables.replicas <= variables.limit' },
      { name: 'labels', expression: 'object.metadata.labels' },
      { name: 'names', expression: "['a', 'b']" },
    ]);
    const env = composition.environment;
    assert.deepEqual(
      composition.variables.map((v) => [v.name, v.error?.message]),
      [
        ['replicas', undefined],
        ['limit', undefined],
        ['fits', undefined],
        ['labels', undefined],
        ['names', undefined],
      ],
    );
    const bound = composition.bind(activation);
    assert.equal(evaluate(compile('variables.fits && variables.replicas == 3', env), bound), true);
    assert.deepEqual(evaluate(compile('variables.names', env), bound), ['a', 'b']);
    assert.equal(evaluate(compile("variables.labels.app == 'web'", env), bound), true);
    // `names` is list<string>: a mistyped use does not compile.
    assert.throws(() => compile('variables.names + 1', env), CelCompileError);
    assert.throws(() => compile('variables.unknown', env), CelCompileError);
  });

  it('evaluates each variable at most once per bound activation', () => {
    const withAuthorizer = admissionDeclarations({ hasParams: true, hasAuthorizer: true });
    const composition = composeVariables(set, withAuthorizer, [
      { name: 'allowed', expression: "authorizer.path('/x').check('get').allowed()" },
      { name: 'twice', expression: 'variables.allowed || variables.allowed' },
    ]);
    let calls = 0;
    const authorizer = authorizerValue({ name: 'alice', groups: [] }, () => {
      calls++;
      return { decision: 'no-opinion', reason: '' };
    });
    const bound = composition.bind({ ...activation, authorizer });
    const env = composition.environment;
    assert.equal(evaluate(compile('variables.twice || variables.allowed', env), bound), false);
    assert.equal(evaluate(compile('!variables.allowed', env), bound), true);
    assert.equal(calls, 1);
  });

  it('does not see a variable declared later', () => {
    const composition = composeVariables(set, declarations, [
      { name: 'first', expression: 'variables.second' },
      { name: 'second', expression: '1' },
    ]);
    assert.ok(composition.variables[0].error instanceof CelCompileError);
    assert.throws(
      () => evaluate(compile('variables.first', composition.environment), composition.bind(activation)),
      (e: unknown) =>
        e instanceof CelEvaluationError && e.message.startsWith('composited variable "first" fails to compile: '),
    );
    assert.equal(evaluate(compile('variables.second', composition.environment), composition.bind(activation)), 1);
  });

  it('evaluates a variable only when read, and reports its failure', () => {
    const composition = composeVariables(set, declarations, [
      { name: 'broken', expression: 'object.spec.replicas / 0' },
      { name: 'fine', expression: 'true' },
    ]);
    const env = composition.environment;
    assert.equal(evaluate(compile('variables.fine', env), composition.bind(activation)), true);
    assert.throws(
      () => evaluate(compile('variables.broken > 0', env), composition.bind(activation)),
      (e: unknown) =>
        e instanceof CelEvaluationError && e.message.startsWith('composited variable "broken" fails to evaluate: '),
    );
  });
});
