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

describe("optional chaining looks fields up in the object type, as cel-go's checker does", () => {
  // One property per row of the schema mapping table that can be selected from.
  const schema: Schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          sub: { type: 'object', properties: { n: { type: 'integer' } } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          kept: { type: 'object', 'x-orch-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
          free: { type: 'object', 'x-orch-preserve-unknown-fields': true },
          port: { 'x-orch-int-or-string': true },
          template: { type: 'object', 'x-orch-embedded-resource': true, 'x-orch-preserve-unknown-fields': true },
          items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
    },
  };
  const set = new CelEnvironmentSet({ libraries: versionedCelLibraries() });
  const env = set.extend(crdValidationDeclarations(schema)).newExpressions;
  const optionalEnv = set.extend(crdValidationDeclarations(schema, { optionalOldSelf: true })).newExpressions;
  const self = {
    spec: { sub: { n: 1 }, labels: { a: 'b' }, kept: { a: 'x' }, template: { kind: 'Pod' }, items: [{ n: 1 }] },
  };

  const rejected: [rule: string, column: number, field: string, optionalOldSelf?: boolean][] = [
    ['self.?spec.undeclaredField', 11, 'undeclaredField'],
    ['self.?zz', 5, 'zz'],
    ['self.spec.?zz', 10, 'zz'],
    ['self.?spec.sub.zz', 15, 'zz'],
    ['self.?spec.?sub.?zz', 16, 'zz'],
    ['self.spec.?sub.zz.orValue(0) == 0', 15, 'zz'],
    ['self.?spec.items[0].?zz', 20, 'zz'],
    // preserve-unknown-fields: the declared properties only (none when it declares none).
    ['self.?spec.kept.zz', 16, 'zz'],
    ['self.spec.?free.zz', 16, 'zz'],
    ['self.spec.free.?zz', 15, 'zz'],
    // An embedded resource: apiVersion, kind and metadata only.
    ['self.spec.template.?spec', 19, 'spec'],
    // A presence test through an optional.
    ['has(self.?spec.zz)', 15, 'zz'],
    // `.` on an optional oldSelf (optionalOldSelf), and a presence test through it.
    ['oldSelf.spec.zz', 13, 'zz', true],
    ['oldSelf.?zz', 8, 'zz', true],
    ['has(oldSelf.spec.sub.zz)', 21, 'zz', true],
  ];
  for (const [rule, column, field, optionalOldSelf] of rejected) {
    it(`${rule} fails to compile at column ${column}`, () => {
      assert.throws(
        () => compile(rule, optionalOldSelf ? optionalEnv : env),
        (e: unknown) =>
          e instanceof CelCompileError &&
          e.message.includes(`ERROR: <input>:1:${column}: undefined field '${field}'`) &&
          e.issues.length === 1,
      );
    });
  }

  // Maps, dynamic values and declared fields accept the selection.
  const accepted: [rule: string, want: unknown, optionalOldSelf?: boolean][] = [
    ["self.?spec.labels.zz.orValue('none')", 'none'],
    ["self.spec.?labels.a.orValue('')", 'b'],
    ["self.?spec.kept.a.orValue('')", 'x'],
    ['self.spec.?port.anything.hasValue()', false], // `port` absent: none
    ["self.spec.?template.kind.orValue('')", 'Pod'],
    ["self.spec.template.?metadata.name.orValue('unset')", 'unset'],
    ['self.?spec.?sub.?n.orValue(0)', 1],
    ['dyn(self).?anything.hasValue()', false],
    ['has(self.?spec.sub.n)', true],
    ['oldSelf.spec.sub.n.orValue(0)', 1, true],
    ['has(oldSelf.spec.sub.n)', true, true],
    ['has(oldSelf.spec.labels.zz)', false, true],
    ['has(oldSelf.spec)', true, true],
  ];
  for (const [rule, want, optionalOldSelf] of accepted) {
    it(`${rule} → ${JSON.stringify(want)}`, () => {
      const program = compile(rule, optionalOldSelf ? optionalEnv : env);
      assert.equal(evaluate(program, { self, oldSelf: self }), want);
    });
  }

  it('answers a presence test through an absent optional oldSelf with false', () => {
    assert.equal(evaluate(compile('has(oldSelf.spec)', optionalEnv), { self }), false);
    assert.equal(evaluate(compile('has(oldSelf.spec.sub.n)', optionalEnv), { self }), false);
  });
});

describe('a macro variable that shadows a declared variable has its own type', () => {
  const schema: Schema = {
    type: 'object',
    properties: { items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } } },
  };
  const set = new CelEnvironmentSet({ libraries: versionedCelLibraries() });
  const env = set.extend(crdValidationDeclarations(schema)).newExpressions;
  const optionalEnv = set.extend(crdValidationDeclarations(schema, { optionalOldSelf: true })).newExpressions;
  const self = { items: [{ n: 1 }, { n: 2 }] };

  const cases: [rule: string, want: unknown, optionalOldSelf?: boolean][] = [
    // `self` bound to optionals: selection through them is optional chaining.
    ["[optional.of({'a': 1})].all(self, self.a.hasValue())", true],
    ["[optional.of({'a': 1})].all(self, !self.b.hasValue())", true],
    ['[optional.none()].all(self, !self.b.hasValue())', true],
    ["[optional.of({'a': 1})].exists(self, has(self.a))", true],
    ["[optional.of({'a': 1})].all(self, !has(self.b))", true],
    ["cel.bind(self, optional.of({'a': 2}), self.a.orValue(0)) == 2", true],
    // `oldSelf` (optional) bound to plain values: plain selection.
    ["[{'a': 1}].map(oldSelf, oldSelf.a) == [1]", true, true],
    ['self.items.all(oldSelf, oldSelf.n > 0)', true, true],
    ['[1].map(oldSelf, oldSelf + 1) == [2]', true, true],
  ];
  for (const [rule, want, optionalOldSelf] of cases) {
    it(`${rule} → ${String(want)}`, () => {
      const program = compile(rule, optionalOldSelf ? optionalEnv : env);
      assert.equal(evaluate(program, { self, oldSelf: self }), want);
    });
  }

  const rejected: [rule: string, column: number, optionalOldSelf?: boolean][] = [
    ['self.items.all(self, self.?zz.hasValue())', 26],
    ['self.items.all(oldSelf, oldSelf.?zz.hasValue())', 32, true],
    ['[oldSelf].all(self, self.zz.hasValue())', 25, true],
  ];
  for (const [rule, column, optionalOldSelf] of rejected) {
    it(`${rule} fails to compile at column ${column}`, () => {
      assert.throws(
        () => compile(rule, optionalOldSelf ? optionalEnv : env),
        (e: unknown) =>
          e instanceof CelCompileError && e.message.includes(`ERROR: <input>:1:${column}: undefined field`),
      );
    });
  }
});
