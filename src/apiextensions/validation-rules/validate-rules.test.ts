import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, formatFieldError } from '../../apis/meta/field-error.js';
import type { Schema, SchemaValidationRule } from '../../apis/schema/schema.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { versionedCelLibraries } from '../../cel/library/index.js';
import { type CompiledRules, type CompileValidationRulesOptions, compileValidationRules } from './index.js';

const cel = new CelEnvironmentSet({ libraries: versionedCelLibraries() });

function compiled(schema: Schema, opts: CompileValidationRulesOptions = {}): CompiledRules {
  const { rules, errors } = compileValidationRules(schema, { cel, ...opts });
  assert.deepEqual(errors, []);
  assert.ok(rules);
  return rules;
}

const shown = (errs: readonly FieldError[]): string[] => errs.map(formatFieldError);

/** A resource whose `spec` has `rules`, an integer `replicas`, a string `name` and the properties given. */
function spec(rules: SchemaValidationRule[], properties: Record<string, Schema> = {}): Schema {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { replicas: { type: 'integer' }, name: { type: 'string' }, ...properties },
        'x-orch-validations': rules,
      },
    },
  };
}

describe('CompiledRules.validate: failures', () => {
  const obj = { spec: { replicas: 5, name: 'web', labels: { app: 'x' } } };
  const labels: Schema = { type: 'object', additionalProperties: { type: 'string' } };
  const cases: [name: string, rule: SchemaValidationRule, want: string[]][] = [
    ['a passing rule', { rule: 'self.replicas == 5' }, []],
    [
      'the default message',
      { rule: 'self.replicas < 3' },
      ['spec: Invalid value: "object": failed rule: self.replicas < 3'],
    ],
    ['a message', { rule: 'self.replicas < 3', message: ' too many ' }, ['spec: Invalid value: "object": too many']],
    [
      'FieldValueInvalid',
      { rule: 'self.replicas < 3', message: 'm', reason: 'FieldValueInvalid' },
      ['spec: Invalid value: "object": m'],
    ],
    [
      'FieldValueForbidden',
      { rule: 'self.replicas < 3', message: 'm', reason: 'FieldValueForbidden' },
      ['spec: Forbidden: m'],
    ],
    [
      'FieldValueRequired',
      { rule: 'self.replicas < 3', message: 'm', reason: 'FieldValueRequired' },
      ['spec: Required value: m'],
    ],
    [
      'FieldValueDuplicate (the message is dropped, as kube drops it)',
      { rule: 'self.replicas < 3', message: 'm', reason: 'FieldValueDuplicate' },
      ['spec: Duplicate value: "object"'],
    ],
    [
      'a fieldPath',
      { rule: 'self.replicas < 3', fieldPath: '.replicas' },
      ['spec.replicas: Invalid value: "object": failed rule: self.replicas < 3'],
    ],
    [
      'a fieldPath into a map',
      { rule: 'self.replicas < 3', fieldPath: ".labels['app']", reason: 'FieldValueForbidden', message: 'no' },
      ['spec.labels[app]: Forbidden: no'],
    ],
    [
      'a messageExpression',
      { rule: 'self.replicas < 3', messageExpression: "'replicas ' + string(self.replicas) + ' over 3'" },
      ['spec: Invalid value: "object": replicas 5 over 3'],
    ],
    [
      'a messageExpression with a reason and fieldPath',
      {
        rule: 'self.replicas < 3',
        messageExpression: "' ' + self.name + ' is too big '",
        reason: 'FieldValueForbidden',
        fieldPath: '.replicas',
      },
      ['spec.replicas: Forbidden: web is too big'],
    ],
    [
      'a messageExpression that fails: the message instead',
      { rule: 'self.replicas < 3', message: 'fallback', messageExpression: "self.labels['nope']" },
      ['spec: Invalid value: "object": fallback'],
    ],
    [
      'a messageExpression that fails without a message: the default',
      { rule: 'self.replicas < 3', messageExpression: "self.labels['nope']" },
      ['spec: Invalid value: "object": failed rule: self.replicas < 3'],
    ],
    [
      'an empty messageExpression result',
      { rule: 'self.replicas < 3', message: 'fallback', messageExpression: "'  '" },
      ['spec: Invalid value: "object": fallback'],
    ],
    [
      'a messageExpression result on two lines',
      { rule: 'self.replicas < 3', message: 'fallback', messageExpression: "'a\\nb'" },
      ['spec: Invalid value: "object": fallback'],
    ],
    [
      'a messageExpression result of 5 KiB passes',
      { rule: 'self.replicas < 3', message: 'fallback', messageExpression: `'${'x'.repeat(5120)}'` },
      [`spec: Invalid value: "object": ${'x'.repeat(5120)}`],
    ],
    [
      'a messageExpression result longer than 5 KiB',
      { rule: 'self.replicas < 3', message: 'fallback', messageExpression: `'${'é'.repeat(2561)}'` },
      ['spec: Invalid value: "object": fallback'],
    ],
    [
      'an evaluation error',
      { rule: "self.labels['nope'] == 'x'" },
      ["spec: Invalid value: \"object\": no such key: nope evaluating rule: self.labels['nope'] == 'x'"],
    ],
    [
      'an evaluation error names the message',
      { rule: "self.labels['nope'] == 'x'", message: 'needs nope' },
      ['spec: Invalid value: "object": no such key: nope evaluating rule: needs nope'],
    ],
  ];
  for (const [name, rule, want] of cases) {
    it(name, () => assert.deepEqual(shown(compiled(spec([rule], { labels })).validate(obj, undefined)), want));
  }

  it('reports a rule at the root at the field <nil>, as kube does', () => {
    const rules = compiled({
      type: 'object',
      'x-orch-validations': [{ rule: "self.metadata.name.startsWith('a-')" }],
    });
    assert.deepEqual(rules.validate({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a-1' } }, undefined), []);
    assert.deepEqual(shown(rules.validate({ metadata: { name: 'b' } }, undefined)), [
      `<nil>: Invalid value: "object": failed rule: self.metadata.name.startsWith('a-')`,
    ]);
    const withPath = compiled({
      type: 'object',
      properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
      'x-orch-validations': [{ rule: 'false', fieldPath: '.spec.x', reason: 'FieldValueRequired', message: 'x' }],
    });
    assert.deepEqual(shown(withPath.validate({ spec: {} }, undefined)), ['spec.x: Required value: x']);
  });

  it('reports a call with arguments of the wrong type (int-or-string) as kube words it', () => {
    const rules = compiled(spec([{ rule: 'self.port > 1024' }], { port: { 'x-orch-int-or-string': true } }));
    assert.deepEqual(rules.validate({ spec: { port: 2000 } }, undefined), []);
    assert.deepEqual(shown(rules.validate({ spec: { port: 'http' } }, undefined)), [
      'spec: Invalid value: "object": \'no such overload\': call arguments did not match a supported operator, function or macro signature for rule: self.port > 1024',
    ]);
  });

  it('validates every node: list items, map values, nested objects, embedded resources; skips null', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'integer', 'x-orch-validations': [{ rule: 'self >= 0' }] } },
        byName: {
          type: 'object',
          additionalProperties: { type: 'string', 'x-orch-validations': [{ rule: 'self != ""', message: 'empty' }] },
        },
        nested: {
          type: 'object',
          nullable: true,
          properties: {
            deep: {
              type: 'object',
              properties: { n: { type: 'number', 'x-orch-validations': [{ rule: 'self < 1.5' }] } },
            },
          },
        },
        inner: {
          type: 'object',
          'x-orch-embedded-resource': true,
          'x-orch-validations': [{ rule: "self.kind == 'Pod'", message: 'pods only' }],
        },
      },
    };
    const rules = compiled(schema);
    const obj = {
      items: [1, -1, 2, -3],
      byName: { a: 'x', b: '' },
      nested: { deep: { n: 2.5 } },
      inner: { apiVersion: 'v1', kind: 'Service', metadata: {} },
    };
    assert.deepEqual(shown(rules.validate(obj, undefined)), [
      'items[1]: Invalid value: "integer": failed rule: self >= 0',
      'items[3]: Invalid value: "integer": failed rule: self >= 0',
      'byName[b]: Invalid value: "string": empty',
      'nested.deep.n: Invalid value: "number": failed rule: self < 1.5',
      'inner: Invalid value: "object": pods only',
    ]);
    assert.deepEqual(rules.validate({ items: [null], nested: null, byName: { a: null } }, undefined), []);
  });
});

describe('CompiledRules.validate: transition rules', () => {
  it('runs a rule reading oldSelf only on update, when the old object has the value', () => {
    const rules = compiled(spec([{ rule: 'self.replicas >= oldSelf.replicas', message: 'no scale down' }]));
    assert.deepEqual(rules.validate({ spec: { replicas: 1 } }, undefined), []);
    assert.deepEqual(rules.validate({ spec: { replicas: 1 } }, { metadata: {} }), []);
    assert.deepEqual(shown(rules.validate({ spec: { replicas: 1 } }, { spec: { replicas: 2 } })), [
      'spec: Invalid value: "object": no scale down',
    ]);
    assert.deepEqual(rules.validate({ spec: { replicas: 3 } }, { spec: { replicas: 2 } }), []);
  });

  it('pairs map values by key', () => {
    const rules = compiled({
      type: 'object',
      properties: {
        m: {
          type: 'object',
          additionalProperties: {
            // Bounded: comparing strings costs a tenth of their size, and an unbounded string in
            // a map without maxProperties is over the estimated cost limit (as in kube).
            type: 'string',
            maxLength: 10,
            'x-orch-validations': [{ rule: 'self == oldSelf', message: 'immutable' }],
          },
        },
      },
    });
    assert.deepEqual(shown(rules.validate({ m: { a: '1', b: '2', c: '3' } }, { m: { a: '1', b: 'x' } })), [
      'm[b]: Invalid value: "string": immutable',
    ]);
  });

  it('pairs map-list items by their keys, never set or atomic list items', () => {
    const item = (v: Schema): Schema => ({
      type: 'object',
      required: ['name', 'zone'],
      properties: { name: { type: 'string' }, zone: { type: 'integer' }, v },
    });
    const immutable: Schema = {
      type: 'integer',
      'x-orch-validations': [{ rule: 'self == oldSelf', message: 'immutable' }],
    };
    const rules = compiled({
      type: 'object',
      properties: {
        l: {
          type: 'array',
          'x-orch-list-type': 'map',
          'x-orch-list-map-keys': ['name', 'zone'],
          items: item(immutable),
        },
      },
    });
    const old = {
      l: [
        { name: 'a', zone: 1, v: 1 },
        { name: 'b', zone: 1, v: 2 },
        { name: 'a', zone: 2, v: 3 },
      ],
    };
    const now = {
      l: [
        { name: 'a', zone: 2, v: 3 },
        { name: 'b', zone: 1, v: 9 },
        { name: 'c', zone: 1, v: 7 },
        { name: 'a', zone: 1, v: 0 },
      ],
    };
    assert.deepEqual(shown(rules.validate(now, old)), [
      'l[1].v: Invalid value: "integer": immutable',
      'l[3].v: Invalid value: "integer": immutable',
    ]);
    // The first of old items with equal keys is the one paired.
    const dup = {
      l: [
        { name: 'a', zone: 1, v: 1 },
        { name: 'a', zone: 1, v: 5 },
      ],
    };
    assert.deepEqual(shown(rules.validate({ l: [{ name: 'a', zone: 1, v: 5 }] }, dup)), [
      'l[0].v: Invalid value: "integer": immutable',
    ]);
  });

  it('runs optionalOldSelf rules on create too, with oldSelf empty', () => {
    const rules = compiled(
      spec([
        {
          rule: '!oldSelf.hasValue() || self.name == oldSelf.value().name',
          message: 'name is immutable',
          optionalOldSelf: true,
        },
        {
          rule: "oldSelf.orValue(self).name.startsWith('a')",
          optionalOldSelf: true,
          message: 'first name starts with a',
        },
      ]),
    );
    assert.deepEqual(shown(rules.validate({ spec: { name: 'b' } }, undefined)), [
      'spec: Invalid value: "object": first name starts with a',
    ]);
    assert.deepEqual(shown(rules.validate({ spec: { name: 'b' } }, { spec: { name: 'a' } })), [
      'spec: Invalid value: "object": name is immutable',
    ]);
    // Without CRDValidationRatcheting, optional transition rules wait for an old value, as others do.
    const rule: SchemaValidationRule = { rule: 'oldSelf.hasValue()', optionalOldSelf: true, message: 'update only' };
    assert.deepEqual(shown(compiled(spec([rule])).validate({ spec: {} }, undefined)), [
      'spec: Invalid value: "object": update only',
    ]);
    const off = compiled(spec([rule]), { ratcheting: false });
    assert.deepEqual(off.validate({ spec: {} }, undefined), []);
    assert.deepEqual(off.validate({ spec: {} }, { spec: {} }), []);
  });
});

describe('CompiledRules.validate: runtime cost', () => {
  const list: Schema = { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 10 } };
  const quadratic = 'self.l.all(x, self.l.all(y, x.size() + y.size() >= 0))';

  it('stops at a rule over the per-call limit, reporting it as kube does', () => {
    const rules = compiled(spec([{ rule: quadratic }, { rule: 'false', message: 'the next rule' }], { l: list }), {
      perCallLimit: 1000,
    });
    assert.deepEqual(shown(rules.validate({ spec: { l: ['a', 'b'] } }, undefined)), [
      'spec: Invalid value: "object": the next rule',
    ]);
    const many = Array.from({ length: 40 }, (_, i) => `s${i}`);
    assert.deepEqual(shown(rules.validate({ spec: { l: many } }, undefined)), [
      'spec: Invalid value: "object": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(x, self.l.all(y, x.size() + y.size() >= 0))',
    ]);
  });

  it('stops once the object budget is spent, and stays stopped for the other nodes', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        a: {
          type: 'array',
          maxItems: 100,
          items: { type: 'string', maxLength: 10, 'x-orch-validations': [{ rule: "self.startsWith('x')" }] },
        },
        b: { type: 'string', 'x-orch-validations': [{ rule: 'false' }] },
      },
    };
    const rules = compiled(schema, { costBudget: 20 });
    assert.deepEqual(rules.validate({ a: ['x1', 'x2'], b: 'b' }, undefined).length, 1);
    const errs = shown(rules.validate({ a: Array.from({ length: 30 }, () => 'x'), b: 'b' }, undefined));
    assert.equal(errs.length, 1);
    assert.match(
      errs[0],
      /^a\[\d+\]: Invalid value: "string": validation failed due to running out of cost budget, no further validation rules will be run$/,
    );
  });

  it('charges a messageExpression, and stops when it does not fit', () => {
    const rule: SchemaValidationRule = {
      rule: 'self.replicas < 0',
      messageExpression: "self.l.map(x, self.l.map(y, x + y).join(',')).join(';')",
    };
    // One item costs 176 (two map() loops at 42 per element and 41 once), three 709.
    const rules = compiled(spec([rule], { l: { ...list, maxItems: 3 } }), { perCallLimit: 200 });
    assert.deepEqual(shown(rules.validate({ spec: { replicas: 1, l: ['a'] } }, undefined)), [
      'spec: Invalid value: "object": aa',
    ]);
    assert.deepEqual(shown(rules.validate({ spec: { replicas: 1, l: ['a', 'b', 'c'] } }, undefined)), [
      `spec: Invalid value: "object": no further validation rules will be run due to call cost exceeds limit for messageExpression: "self.l.map(x, self.l.map(y, x + y).join(',')).join(';')"`,
    ]);
    const budget = compiled(spec([rule], { l: { ...list, maxItems: 3 } }), { costBudget: 30 });
    assert.deepEqual(shown(budget.validate({ spec: { replicas: 1, l: ['a', 'b', 'c'] } }, undefined)), [
      'spec: Invalid value: "object": messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
    ]);
  });
});
