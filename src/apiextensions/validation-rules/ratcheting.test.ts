import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apis/meta/field-error.js';
import type { Schema } from '../../apis/schema/schema.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { versionedCelLibraries } from '../../cel/library/index.js';
import { CorrelatedValue, oldItemsOf } from './correlated-value.js';
import { type CompiledRules, type CompileValidationRulesOptions, compileValidationRules } from './index.js';

const cel = new CelEnvironmentSet({ libraries: versionedCelLibraries() });

function compiled(schema: Schema, opts: CompileValidationRulesOptions = {}): CompiledRules {
  const { rules, errors } = compileValidationRules(schema, { cel, ...opts });
  assert.deepEqual(errors, []);
  assert.ok(rules);
  return rules;
}

/** Errors and warnings of one validation, as kube prints them. */
function run(rules: CompiledRules, obj: unknown, old?: unknown): { errors: string[]; warnings: string[] } {
  const warnings: string[] = [];
  const errors = rules.validate(obj, old, { warn: (w) => warnings.push(w) }).map(formatFieldError);
  return { errors, warnings };
}

const small: Schema = { type: 'integer', 'x-orch-validations': [{ rule: 'self < 5', message: 'too big' }] };
const keyed = (v: Schema): Schema => ({
  type: 'array',
  'x-orch-list-type': 'map',
  'x-orch-list-map-keys': ['k'],
  items: { type: 'object', required: ['k'], properties: { k: { type: 'string' }, v } },
});
const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        a: small,
        b: { type: 'string' },
        set: { type: 'array', 'x-orch-list-type': 'set', items: small },
        map: keyed(small),
        labels: { type: 'object', additionalProperties: small },
        frozen: { type: 'integer', 'x-orch-validations': [{ rule: 'self == oldSelf', message: 'immutable' }] },
      },
    },
  },
};

describe('ratcheting of unchanged values (CRDValidationRatcheting)', () => {
  const rules = compiled(schema);

  it('reports an invalid value on create', () => {
    assert.deepEqual(run(rules, { spec: { a: 9 } }), {
      errors: ['spec.a: Invalid value: "integer": too big'],
      warnings: [],
    });
  });

  it('turns the failure of an unchanged value into a warning when another field changes', () => {
    assert.deepEqual(run(rules, { spec: { a: 9, b: 'new' } }, { spec: { a: 9, b: 'old' } }), {
      errors: [],
      warnings: ['spec.a: Invalid value: "integer": too big'],
    });
  });

  it('fails a changed value, and a value that was absent', () => {
    assert.deepEqual(run(rules, { spec: { a: 10 } }, { spec: { a: 9 } }).errors, [
      'spec.a: Invalid value: "integer": too big',
    ]);
    assert.deepEqual(run(rules, { spec: { a: 9 } }, { spec: {} }).errors, [
      'spec.a: Invalid value: "integer": too big',
    ]);
  });

  it('ratchets map values and map-list items by key, in any order', () => {
    const old = {
      spec: {
        labels: { x: 7, y: 1 },
        map: [
          { k: 'p', v: 8 },
          { k: 'q', v: 1 },
        ],
      },
    };
    const now = {
      spec: {
        labels: { x: 7, y: 9 },
        map: [
          { k: 'q', v: 1 },
          { k: 'p', v: 8 },
          { k: 'r', v: 6 },
        ],
      },
    };
    assert.deepEqual(run(rules, now, old), {
      errors: ['spec.labels[y]: Invalid value: "integer": too big', 'spec.map[2].v: Invalid value: "integer": too big'],
      warnings: [
        'spec.labels[x]: Invalid value: "integer": too big',
        'spec.map[1].v: Invalid value: "integer": too big',
      ],
    });
  });

  it('ratchets set-list items only while the whole list is unchanged', () => {
    const old = { spec: { set: [1, 7], b: 'x' } };
    assert.deepEqual(run(rules, { spec: { set: [1, 7], b: 'y' } }, old), {
      errors: [],
      warnings: ['spec.set[1]: Invalid value: "integer": too big'],
    });
    assert.deepEqual(run(rules, { spec: { set: [1, 7, 2] } }, old).errors, [
      'spec.set[1]: Invalid value: "integer": too big',
    ]);
  });

  it('never ratchets transition rules', () => {
    assert.deepEqual(run(rules, { spec: { frozen: 2, b: 'y' } }, { spec: { frozen: 1, b: 'x' } }).errors, [
      'spec.frozen: Invalid value: "integer": immutable',
    ]);
  });

  it('is off without the feature', () => {
    const off = compiled(schema, { ratcheting: false });
    assert.deepEqual(run(off, { spec: { a: 9, b: 'new' } }, { spec: { a: 9, b: 'old' } }), {
      errors: ['spec.a: Invalid value: "integer": too big'],
      warnings: [],
    });
  });

  it('never ratchets apiVersion and kind at the root, nor a root rule once anything changed', () => {
    const root = compiled({
      type: 'object',
      properties: {
        kind: { type: 'string', 'x-orch-validations': [{ rule: "self == 'Good'", message: 'bad kind' }] },
        spec: { type: 'object', properties: { n: { type: 'integer' } } },
      },
      'x-orch-validations': [{ rule: 'self.spec.n < 5', message: 'n too big' }],
    });
    const old = { kind: 'Bad', spec: { n: 9 } };
    assert.deepEqual(run(root, { kind: 'Bad', spec: { n: 9 } }, old), {
      errors: ['kind: Invalid value: "string": bad kind'],
      warnings: ['<nil>: Invalid value: "object": n too big'],
    });
    assert.deepEqual(run(root, { kind: 'Bad', spec: { n: 9 }, extra: 1 }, old).errors, [
      '<nil>: Invalid value: "object": n too big',
      'kind: Invalid value: "string": bad kind',
    ]);
  });
});

describe('CorrelatedValue', () => {
  const s: Schema = {
    type: 'object',
    properties: { m: keyed({ type: 'integer' }), l: { type: 'array', items: { type: 'integer' } } },
    additionalProperties: undefined,
  };

  it('compares through correlated children', () => {
    const cases: [unknown, unknown, boolean][] = [
      [{ m: [{ k: 'a', v: 1 }] }, { m: [{ k: 'a', v: 1 }] }, true],
      [{ m: [{ k: 'a', v: 1 }, { k: 'b' }] }, { m: [{ k: 'b' }, { k: 'a', v: 1 }] }, true],
      [{ m: [{ k: 'a', v: 1 }] }, { m: [{ k: 'a', v: 2 }] }, false],
      [{ m: [{ k: 'a' }] }, { m: [{ k: 'b' }] }, false],
      [{ l: [1, 2] }, { l: [1, 2] }, true],
      [{ l: [1, 2] }, { l: [2, 1] }, false],
      // A property the schema does not declare never compares equal, as in kube.
      [{ x: 1 }, { x: 1 }, false],
      [{}, {}, true],
      [null, null, true],
      [{ l: null }, { l: null }, true],
    ];
    for (const [value, old, want] of cases) {
      assert.equal(new CorrelatedValue(value, old, s).equal(), want, JSON.stringify([value, old]));
    }
  });

  it('pairs keys present on both sides only', () => {
    const c = new CorrelatedValue({ m: [], l: [1] }, { m: [] }, s);
    assert.ok(c.key('m'));
    assert.equal(c.key('l'), undefined);
    assert.equal(c.key('m')?.index(0), undefined);
  });

  it('finds old map-list items by scalar keys only, first match wins', () => {
    const list = keyed({ type: 'integer' });
    const old = [{ k: 'a', v: 1 }, { k: 'a', v: 2 }, { k: { x: 1 }, v: 3 }, { v: 4 }];
    const items = oldItemsOf(list, old);
    assert.deepEqual(items.get({ k: 'a' }), { k: 'a', v: 1 });
    assert.equal(items.get({ k: { x: 1 } }), undefined);
    assert.equal(items.get({}), undefined);
    assert.equal(items.get('a'), undefined);
    assert.equal(
      oldItemsOf({ type: 'array', 'x-orch-list-type': 'set', items: { type: 'string' } }, ['a']).get('a'),
      undefined,
    );
  });
});
