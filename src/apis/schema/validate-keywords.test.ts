import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import type { Schema } from './schema.js';
import { isIPv6 } from './string-formats.js';
import { validateAgainstSchema, validateValueAgainstSchema } from './validate.js';

/** The keywords structural schemas of custom resources use beyond the built-in kinds' ones. */
const cases: { name: string; schema: Schema; value: unknown; want: string[] }[] = [
  {
    name: 'exclusive bounds',
    schema: {
      type: 'object',
      properties: { n: { type: 'number', minimum: 1, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true } },
    },
    value: { n: 5 },
    want: ['n: Invalid value: 5: n in body should be less than 5'],
  },
  {
    name: 'exclusive lower bound reached',
    schema: { type: 'object', properties: { n: { type: 'integer', minimum: 1, exclusiveMinimum: true } } },
    value: { n: 1 },
    want: ['n: Invalid value: 1: n in body should be greater than 1'],
  },
  {
    name: 'multipleOf',
    schema: { type: 'object', properties: { n: { type: 'number', multipleOf: 0.5 } } },
    value: { n: 1.25 },
    want: ['n: Invalid value: 1.25: n in body should be a multiple of 0.5'],
  },
  {
    name: 'multipleOf with a float factor that divides',
    schema: { type: 'object', properties: { n: { type: 'number', multipleOf: 0.1 } } },
    value: { n: 0.3 },
    want: [],
  },
  {
    name: 'uniqueItems',
    schema: { type: 'object', properties: { l: { type: 'array', items: { type: 'object' }, uniqueItems: true } } },
    value: { l: [{ a: 1 }, { a: 1 }] },
    want: ['l: Invalid value: [{"a":1},{"a":1}]: l in body shouldn\'t contain duplicates'],
  },
  {
    name: 'anyOf: none matches',
    schema: {
      type: 'object',
      properties: { s: { type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b', maxLength: 1 }] } },
    },
    value: { s: 'cc' },
    want: [
      '<nil>: Invalid value: "": "s" must validate at least one schema (anyOf)',
      's: Invalid value: "cc": s in body should match \'^a\'',
    ],
  },
  {
    name: 'anyOf: one matches',
    schema: { type: 'object', properties: { s: { type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^c' }] } } },
    value: { s: 'cc' },
    want: [],
  },
  {
    name: 'oneOf: two match',
    schema: { type: 'object', properties: { s: { type: 'string', oneOf: [{ minLength: 1 }, { maxLength: 5 }] } } },
    value: { s: 'cc' },
    want: ['<nil>: Invalid value: "": "s" must validate one and only one schema (oneOf). Found 2 valid alternatives'],
  },
  {
    name: 'oneOf: none matches',
    schema: { type: 'object', properties: { s: { type: 'string', oneOf: [{ minLength: 5 }, { maxLength: 1 }] } } },
    value: { s: 'cc' },
    want: [
      '<nil>: Invalid value: "": "s" must validate one and only one schema (oneOf). Found none valid',
      's: Invalid value: "cc": s in body should be at least 5 chars long',
    ],
  },
  {
    name: 'allOf: every member applies',
    schema: {
      type: 'object',
      properties: { o: { type: 'object', allOf: [{ required: ['a'] }, { required: ['b'] }] } },
    },
    value: { o: { a: 1 } },
    want: ['o.b: Required value', '<nil>: Invalid value: "": "o" must validate all the schemas (allOf)'],
  },
  {
    name: 'not',
    schema: { type: 'object', properties: { s: { type: 'string', not: { enum: ['forbidden'] } } } },
    value: { s: 'forbidden' },
    want: ['<nil>: Invalid value: "": "s" must not validate the schema (not)'],
  },
  {
    name: 'custom resource formats',
    schema: {
      type: 'object',
      properties: {
        ip: { type: 'string', format: 'ipv4' },
        mail: { type: 'string', format: 'email' },
        id: { type: 'string', format: 'uuid' },
        d: { type: 'string', format: 'date' },
        ok: { type: 'string', format: 'hostname' },
      },
    },
    value: { ip: '1.2.3.256', mail: 'nobody', id: 'x', d: '2024-02-30', ok: 'example.com' },
    want: [
      'ip: Invalid value: "1.2.3.256": ip in body must be of type ipv4: "1.2.3.256"',
      'mail: Invalid value: "nobody": mail in body must be of type email: "nobody"',
      'id: Invalid value: "x": id in body must be of type uuid: "x"',
      'd: Invalid value: "2024-02-30": d in body must be of type date: "2024-02-30"',
    ],
  },
];

describe('schema keywords of structural schemas', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(validateAgainstSchema(c.schema, c.value).map(formatFieldError), c.want);
    });
  }

  it('names a value validated on its own relative to itself', () => {
    assert.deepEqual(validateValueAgainstSchema({ type: 'integer' }, 'x', 'p.default').map(formatFieldError), [
      'p.default: Invalid value: "string":  in body must be of type integer: "string"',
    ]);
    assert.deepEqual(
      validateValueAgainstSchema(
        { type: 'object', properties: { a: { type: 'integer' } } },
        { a: true },
        'p.default',
      ).map(formatFieldError),
      ['p.default.a: Invalid value: "boolean": a in body must be of type integer: "boolean"'],
    );
  });

  it('reads IPv6 addresses as Go does', () => {
    for (const ok of ['::1', '2001:db8::', 'fe80::1:2:3:4', '::ffff:1.2.3.4', '1:2:3:4:5:6:7:8'])
      assert.ok(isIPv6(ok), ok);
    for (const bad of ['1.2.3.4', ':::', '1:2:3:4:5:6:7:8:9', 'g::1', '1::2::3']) assert.ok(!isIPv6(bad), bad);
  });
});
