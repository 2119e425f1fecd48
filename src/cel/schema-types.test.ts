import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../apis/schema/schema.js';
import { crdValidationDeclarations } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError } from './errors.js';
import { compile, evaluate } from './program.js';

const set = new CelEnvironmentSet();

/** `self` typed by an object schema with one property `v` of `schema`, holding `value`. */
function run(schema: Schema, value: unknown, expression: string, old?: unknown): unknown {
  const root: Schema = { type: 'object', properties: { v: schema } };
  const env = set.extend(crdValidationDeclarations(root)).newExpressions;
  return evaluate(compile(expression, env), { self: value === undefined ? {} : { v: value }, oldSelf: { v: old } });
}

function rejects(schema: Schema, expression: string, message: RegExp): void {
  const root: Schema = { type: 'object', properties: { v: schema } };
  const env = set.extend(crdValidationDeclarations(root)).newExpressions;
  assert.throws(
    () => compile(expression, env),
    (e: unknown) => e instanceof CelCompileError && message.test(e.message),
  );
}

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };

describe('schema types: one row of the mapping table each', () => {
  it('object with properties: an object type with just those fields', () => {
    const s: Schema = { type: 'object', properties: { a: int, b: str } };
    assert.equal(run(s, { a: 1, b: 'x' }, 'self.v.a + 1 == 2 && self.v.b == "x"'), true);
    assert.equal(run(s, { a: 1 }, 'has(self.v.a) && !has(self.v.b)'), true);
    assert.equal(run(s, { a: 1, b: 'x' }, 'self.v == oldSelf.v', { b: 'x', a: 1 }), true);
    assert.equal(run(s, { a: 1, b: 'x' }, 'self.v != oldSelf.v', { a: 2, b: 'x' }), true);
    rejects(s, 'self.v.c', /undefined field 'c'/);
    // a presence test of a field the type lacks is a compile error too, as in cel-go
    rejects(s, 'has(self.v.c)', /ERROR: <input>:1:11: undefined field 'c'/);
    rejects(s, 'size(self.v)', /found no matching overload for 'size'/);
  });

  it('object with additionalProperties: map<string, T>', () => {
    const s: Schema = { type: 'object', additionalProperties: int };
    assert.equal(run(s, { x: 1, y: 2 }, "self.v['x'] + self.v.y == 3"), true);
    assert.equal(run(s, { x: 1 }, "'x' in self.v && !('z' in self.v) && size(self.v) == 1"), true);
    assert.equal(run(s, { x: 1, y: 2 }, 'self.v.all(k, self.v[k] > 0)'), true);
    assert.equal(run(s, { x: 1, y: 2 }, 'self.v == oldSelf.v', { y: 2, x: 1 }), true);
    assert.deepEqual(run(s, { x: 1 }, 'self.v'), { x: 1 });
    rejects(s, "self.v['x'] + 'a'", /applied to '\(int, string\)'/);
  });

  it('embedded resource: apiVersion, kind, metadata.name and metadata.generateName are always there', () => {
    const s: Schema = { type: 'object', 'x-orch-embedded-resource': true, 'x-orch-preserve-unknown-fields': true };
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', generateName: 'p-', namespace: 'ns' },
      spec: {},
    };
    assert.equal(
      run(
        s,
        pod,
        "self.v.apiVersion == 'v1' && self.v.kind == 'Pod' && self.v.metadata.name == 'p' && self.v.metadata.generateName == 'p-'",
      ),
      true,
    );
    // metadata holds only those two (kube replaces it), and the unknown fields stay out of reach
    rejects(s, 'self.v.metadata.namespace', /undefined field 'namespace'/);
    rejects(s, 'self.v.spec', /undefined field 'spec'/);
  });

  it('resource root: the same implicit fields at the root', () => {
    const root: Schema = { type: 'object', properties: { spec: { type: 'object', properties: { a: int } } } };
    const env = set.extend(crdValidationDeclarations(root, { isResourceRoot: true })).newExpressions;
    const self = { apiVersion: 'x.orch.io/v1', kind: 'X', metadata: { name: 'n' }, spec: { a: 1 } };
    assert.equal(
      evaluate(compile("self.kind == 'X' && self.metadata.name == 'n' && self.spec.a == 1", env), { self }),
      true,
    );
    // A schema that declares full metadata keeps it.
    const full: Schema = {
      type: 'object',
      properties: {
        apiVersion: str,
        kind: str,
        metadata: { type: 'object', properties: { name: str, generateName: str, namespace: str } },
      },
    };
    const fullEnv = set.extend(crdValidationDeclarations(full, { isResourceRoot: true })).newExpressions;
    assert.equal(
      evaluate(compile("self.metadata.__namespace__ == 'ns'", fullEnv), { self: { metadata: { namespace: 'ns' } } }),
      true,
    );
  });

  it('preserve-unknown-fields: declared properties only; without a type, not accessible', () => {
    const s: Schema = { type: 'object', 'x-orch-preserve-unknown-fields': true, properties: { a: int } };
    assert.equal(run(s, { a: 1, extra: { b: 2 } }, 'self.v.a == 1'), true);
    rejects(s, 'self.v.extra', /undefined field 'extra'/);
    // Unknown fields still count for equality, as JSON.
    assert.equal(run(s, { a: 1, extra: 1 }, 'self.v == oldSelf.v', { a: 1, extra: 2 }), false);
    rejects({ 'x-orch-preserve-unknown-fields': true }, 'self.v', /undefined field 'v'/);
  });

  it('int-or-string: dyn, an int or a string', () => {
    const s: Schema = { 'x-orch-int-or-string': true };
    assert.equal(run(s, 5, 'type(self.v) == int && self.v < 10'), true);
    assert.equal(run(s, '50%', "type(self.v) == string && self.v.endsWith('%')"), true);
    assert.equal(run(s, 5, "type(self.v) == int ? self.v == 5 : self.v == '5'"), true);
  });

  it('array: list<T>, ordered unless x-orch-list-type is set or map', () => {
    const atomic: Schema = { type: 'array', items: int };
    assert.equal(run(atomic, [1, 2], 'self.v.size() == 2 && self.v[1] == 2 && 2 in self.v'), true);
    assert.equal(run(atomic, [1, 2], 'self.v == oldSelf.v', [2, 1]), false);
    assert.deepEqual(run(atomic, [1, 2], 'self.v + [2, 3]'), [1, 2, 2, 3]);
    assert.equal(run(atomic, [1, 2], 'self.v.all(x, type(x) == int)'), true);
    rejects({ type: 'array' }, 'self.v', /undefined field 'v'/);
  });

  it('boolean, number, integer: bool, double, int', () => {
    assert.equal(run({ type: 'boolean' }, true, 'type(self.v) == bool && self.v'), true);
    // a whole number in a number field is still a double
    assert.equal(run({ type: 'number' }, 3, 'type(self.v) == double && self.v == 3.0'), true);
    assert.equal(run({ type: 'number' }, 0.5, 'self.v * 2.0 == 1.0'), true);
    assert.equal(run(int, 3, 'type(self.v) == int && self.v / 2 == 1'), true);
    rejects(int, 'self.v == 3.0', /applied to '\(int, double\)'/);
  });

  it('string and its formats: string, bytes, timestamp, duration', () => {
    assert.equal(run(str, 'abc', "type(self.v) == string && self.v.startsWith('a')"), true);
    assert.equal(
      run({ type: 'string', format: 'byte' }, 'aGVsbG8=', "type(self.v) == bytes && self.v == b'hello'"),
      true,
    );
    assert.equal(
      run(
        { type: 'string', format: 'date-time' },
        '2024-05-06T07:08:09.5+02:00',
        "self.v == timestamp('2024-05-06T05:08:09.500Z')",
      ),
      true,
    );
    assert.equal(
      run(
        { type: 'string', format: 'date' },
        '2024-05-06',
        "self.v == timestamp('2024-05-06T00:00:00Z') && self.v.getDayOfWeek() == 1",
      ),
      true,
    );
    assert.equal(
      run({ type: 'string', format: 'duration' }, '1h30m', "self.v == duration('90m') && self.v.getMinutes() == 90"),
      true,
    );
    assert.equal(run({ type: 'string', format: 'duration' }, '2 days', "self.v == duration('48h')"), true);
    // equality compares the values, not the spelling
    assert.equal(
      run(
        { type: 'string', format: 'date-time' },
        '2024-05-06T07:08:09Z',
        'self.v == oldSelf.v',
        '2024-05-06T09:08:09+02:00',
      ),
      true,
    );
  });

  it('null: a nullable property holding null is absent', () => {
    const s: Schema = { type: 'string', nullable: true };
    assert.equal(run(s, null, '!has(self.v)'), true);
    assert.equal(run(s, 'x', 'has(self.v)'), true);
  });
});

describe('schema types: property names', () => {
  const s: Schema = {
    type: 'object',
    properties: {
      'foo-bar': str,
      'a.b/c': str,
      x__y: str,
      namespace: str,
      'not accessible': str,
      '1st': str,
    },
  };
  const value = { 'foo-bar': '1', 'a.b/c': '2', x__y: '3', namespace: '4', 'not accessible': '5', '1st': '6' };

  it('are escaped', () => {
    assert.equal(
      run(
        s,
        value,
        "self.v.foo__dash__bar + self.v.a__dot__b__slash__c + self.v.x__underscores__y + self.v.__namespace__ == '1234'",
      ),
      true,
    );
    assert.equal(run(s, value, 'has(self.v.foo__dash__bar)'), true);
  });

  it('may be any accessible name, even one JavaScript objects reserve', () => {
    // JSON.parse: in an object literal `__proto__` would set the prototype.
    const odd: Schema = JSON.parse(
      '{"type": "object", "properties": {"constructor": {"type": "integer"}, "__proto__": {"type": "integer"}, "toString": {"type": "integer"}, "json": {"type": "integer"}}}',
    );
    const v = JSON.parse('{"constructor": 1, "__proto__": 2, "toString": 3, "json": 4}');
    assert.equal(
      run(
        odd,
        v,
        'self.v.constructor + self.v.__underscores__proto__underscores__ + self.v.toString + self.v.json == 10',
      ),
      true,
    );
    assert.equal(run(odd, v, 'self.v == oldSelf.v && has(self.v.toString) && has(self.v.constructor)', v), true);
    rejects(odd, 'self.v.$json', /Syntax error/);
  });

  it('are not accessible when they do not match [a-zA-Z_.-/][a-zA-Z0-9_.-/]*', () => {
    rejects(s, 'self.v.namespace', /Syntax error|undefined field/);
    rejects(s, "self.v['not accessible']", /found no matching overload for '_\[_\]'/);
    // but they count for equality
    assert.equal(run(s, value, 'self.v == oldSelf.v', { ...value, '1st': 'other' }), false);
  });
});
