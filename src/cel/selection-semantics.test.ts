import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../apis/schema/schema.js';
import { crdValidationDeclarations } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError, CelEvaluationError } from './errors.js';
import { versionedCelLibraries } from './library/index.js';
import { compile, evaluate } from './program.js';

describe('selection and indexing on optional values, and dynamic uint list indexes (cel-go v0.22)', () => {
  const env = new CelEnvironmentSet().extend({
    name: 'selection',
    variables: [
      { name: 'm', type: { kind: 'native', celType: 'map<string, map<string, string>>' } },
      { name: 'l', type: { kind: 'native', celType: 'list<int>' } },
    ],
  }).newExpressions;
  const values = { m: { a: { b: 'x' } }, l: [7n, 8n] };
  const run = (expression: string) => evaluate(compile(expression, env), values);

  const cases: [expression: string, want: unknown][] = [
    ["optional.of({'c': {}}).c.missing.or(optional.none()[0]).orValue('default')", 'default'],
    ["optional.of({'c': 'd'}).c.value()", 'd'],
    ["optional.of({'c': 'd'}).c.hasValue()", true],
    ["optional.of({'c': 'd'}).x.hasValue()", false],
    ['optional.none().x.hasValue()', false],
    ['optional.none()[0].hasValue()', false],
    ['optional.none().?x.hasValue()', false],
    ['optional.none()[?0].hasValue()', false],
    ['optional.of([1, 2])[1].value() == 2', true],
    ['optional.of([1, 2])[5].hasValue()', false],
    ['optional.of([1, 2])[?1].value() == 2', true],
    ['m.?a.b.value()', 'x'],
    ['m.?a.c.hasValue()', false],
    ['m.?z.b.hasValue()', false],
    ["m.?a[?'b'].orValue('none')", 'x'],
    ['{}.?k.invalid.hasValue()', false],
    // has() through optional values.
    ['has(m.?a.b)', true],
    ['has(m.?a.c)', false],
    ['has(m.?z.b)', false],
    ['has({}.?x.y)', false],
    ["has({'x': {'y': 'z'}}.?x.y)", true],
    ["has({'foo': optional.none()}.foo.bar)", false],
    ["has(optional.of({'c': {'e': 'h'}}).c) && !has(optional.of({'c': {'e': 'h'}}).c.missing)", true],
    // type() of an optional.
    ['type(optional.none()) == optional_type', true],
    ['type(optional.of(1)) == optional_type', true],
    ['type(1) == optional_type', false],
    // A list indexed by a dynamic uint.
    ['[7, 8, 9][dyn(0u)] == 7', true],
    ['l[dyn(1u)] == 8', true],
    ['l[dyn(1)] == 8', true],
    // Plain selections are the engine's.
    ["m.a.b == 'x'", true],
    ['l[0] == 7', true],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} → ${JSON.stringify(want)}`, () => assert.equal(run(expression), want));
  }

  const failing: [expression: string, message: RegExp][] = [
    // Selecting from a present value with no fields fails, as in cel-go.
    ['{true: dyn(0)}[?true].absent.hasValue()', /no such key/],
    ["{'k': dyn(null)}.?k.invalid.hasValue()", /no such key/],
    ['l[dyn(5u)] == 1', /index out of bounds/],
    ["optional.of([1])[dyn('a')].hasValue()", /unsupported index type/],
  ];
  for (const [expression, message] of failing) {
    it(`${expression} fails`, () => {
      assert.throws(
        () => run(expression),
        (e: unknown) => e instanceof CelEvaluationError && message.test(e.message),
      );
    });
  }

  it('rejects a field of an optional value whose type has no fields', () => {
    assert.throws(
      () => compile("optional.of('s').x", env),
      (e: unknown) =>
        e instanceof CelCompileError && e.message.includes("type 'string' does not support field selection"),
    );
  });
});

describe('optional chaining through a schema-typed object (CRD rules)', () => {
  const schema: Schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          hosts: { type: 'array', items: { type: 'string' } },
          sub: { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  };
  const env = new CelEnvironmentSet({ libraries: versionedCelLibraries() }).extend(
    crdValidationDeclarations(schema),
  ).newExpressions;
  const self = { spec: { replicas: 3, hosts: ['a'], sub: { n: 2 }, labels: { a: 'b' } } };

  const cases: [rule: string, want: unknown][] = [
    ['self.?spec.replicas.orValue(0)', 3],
    ['self.?spec.sub.n.orValue(0)', 2],
    ["self.?spec.sub.s.orValue('none')", 'none'],
    ['has(self.?spec.sub.s)', false],
    ['has(self.?spec.sub.n)', true],
    ["self.?spec.labels.a.orValue('')", 'b'],
    ["self.spec.?labels.x.orValue('none')", 'none'],
    ["self.?spec.hosts[0].orValue('')", 'a'],
    ['self.?spec.hosts[3].hasValue()', false],
  ];
  for (const [rule, want] of cases) {
    it(`${rule} → ${JSON.stringify(want)}`, () => assert.equal(evaluate(compile(rule, env), { self }), want));
  }

  it('selects through an optional oldSelf (optionalOldSelf) as through any optional value', () => {
    const optional = new CelEnvironmentSet({ libraries: versionedCelLibraries() }).extend(
      crdValidationDeclarations(schema, { optionalOldSelf: true }),
    ).newExpressions;
    const rule = 'oldSelf.spec.replicas.orValue(0) <= self.spec.replicas';
    assert.equal(evaluate(compile(rule, optional), { self, oldSelf: self }), true);
    assert.equal(evaluate(compile(rule, optional), { self }), true);
    assert.equal(evaluate(compile('oldSelf.spec.sub.s.hasValue()', optional), { self, oldSelf: self }), false);
  });

  it("names the optional's value type when it has no fields, as cel-go does", () => {
    assert.throws(
      () => compile('self.?spec.replicas.x', env),
      (e: unknown) => e instanceof CelCompileError && e.message.includes("type 'int' does not support field selection"),
    );
  });
});
