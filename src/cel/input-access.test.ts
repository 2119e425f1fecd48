import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../apis/schema/schema.js';
import type { CelDeclarations } from './cel-environment.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelEvaluationError } from './errors.js';
import { compile, evaluate, PreparedActivation } from './program.js';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: int,
        name: str,
        gone: { type: 'string', nullable: true },
        inner: { type: 'object', properties: { n: int, when: { type: 'string', format: 'date-time' } } },
        items: { type: 'array', items: { type: 'object', properties: { n: int } } },
        labels: { type: 'object', additionalProperties: str },
        odd: { type: 'object', properties: { constructor: str, n: int } },
      },
    },
  },
};

const DECLS: CelDeclarations = {
  name: 'lazy-inputs',
  variables: [
    { name: 'self', type: { kind: 'schema', schema, typeName: 'test.Widget' } },
    { name: 'oldSelf', type: { kind: 'schema', schema, typeName: 'test.Widget' } },
    { name: 'claims', type: { kind: 'json', celType: 'map<string, dyn>' } },
  ],
};

const self = {
  spec: {
    replicas: 3,
    name: 'a',
    gone: null,
    inner: { n: 4, when: '2024-01-02T03:04:05Z' },
    items: [{ n: 1 }, null, { n: 2 }],
    labels: { a: 'b' },
    odd: { constructor: 'c', n: 5 },
  },
};
const oldSelf = { spec: { replicas: 2, name: 'a', inner: { n: 4 } } };
const claims = { sub: 'x', exp: 17, nested: { list: [1, 2.5, { deep: 3 }] }, nil: null };
const bad = { spec: { replicas: 'three', inner: 'flat', items: 'no' } };

/** Result or error message of one evaluation. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (e) {
    assert.ok(e instanceof CelEvaluationError, String(e));
    return { error: e.message };
  }
}

describe('lazy conversion of inputs', () => {
  const env = new CelEnvironmentSet().extend(DECLS).newExpressions;
  const activations = [
    { self, oldSelf, claims },
    { self: bad, oldSelf, claims },
    { self: { spec: null }, oldSelf, claims },
  ];
  // Each expression is evaluated with values converted as read (plain JSON in) and converted up
  // front (a prepared activation); the outcomes must be the same.
  const expressions = [
    'self.spec.replicas >= oldSelf.spec.replicas',
    'self.spec.replicas + 1',
    'self.spec.inner.n',
    'self.spec.inner.when.getFullYear()',
    'has(self.spec.gone)',
    'has(self.spec.inner.n)',
    'has(oldSelf.spec.items)',
    'self.spec.gone',
    'oldSelf.spec.items',
    'self.spec.items[0].n',
    'self.spec.items.size()',
    'self.spec.items.exists(i, has(i.n) && i.n > 1)',
    'self.spec.labels.a',
    'self.spec.odd.n + 1',
    'self.spec.odd.constructor',
    'self.spec.inner == oldSelf.spec.inner',
    'self == self',
    'self.spec == oldSelf.spec',
    'self.spec.?inner.?n.orValue(0)',
    'self.?spec.?gone.hasValue()',
    'type(self.spec.replicas) == int',
    '[self.spec.inner, oldSelf.spec.inner].map(x, x.n)',
    '[self].all(self, self.spec.replicas > 0)',
    'claims.exp + 1',
    'type(claims.exp)',
    'claims.nested.list[0] + 1',
    'claims.nested.list[2].deep + 1',
    'claims.nested.list',
    'claims["exp"] * 2',
    'has(claims.nil)',
    'claims.nil == null',
    'size(claims)',
    'claims.nested == {"list": [dyn(1), dyn(2.5), dyn({"deep": 3})]}',
    "claims.exists(k, k == 'exp' && claims[k] == 17)",
    'claims.?nested.?list.orValue([]).size()',
  ];
  for (const expression of expressions) {
    it(expression, () => {
      const program = compile(expression, env);
      for (const activation of activations) {
        const lazy = outcome(() => evaluate(program, activation));
        const eager = outcome(() => evaluate(program, new PreparedActivation(env, activation)));
        assert.deepEqual(lazy, eager, JSON.stringify(activation));
      }
    });
  }

  it('reads integers as int and fields holding null as absent', () => {
    assert.equal(evaluate(compile('type(self.spec.replicas) == int', env), { self }), true);
    assert.equal(evaluate(compile('has(self.spec.gone)', env), { self }), false);
    assert.equal(evaluate(compile('self.spec.replicas >= oldSelf.spec.replicas', env), { self, oldSelf }), true);
    assert.equal(evaluate(compile('type(claims.exp) == int', env), { claims }), true);
  });

  it("reports a value of the wrong type with the conversion's error", () => {
    assert.deepEqual(
      outcome(() => evaluate(compile('self.spec.replicas > 1', env), { self: bad })),
      { error: 'invalid data, expected int, got string' },
    );
    assert.deepEqual(
      outcome(() => evaluate(compile('self.spec.inner.n > 1', env), { self: bad })),
      { error: 'invalid data, expected object, got string' },
    );
  });

  it('never modifies the input', () => {
    const input = structuredClone({ self, oldSelf, claims });
    const program = compile('self.spec.replicas + claims.exp + size(claims.nested.list)', env);
    evaluate(program, input);
    assert.deepEqual(input, { self, oldSelf, claims });
  });
});
