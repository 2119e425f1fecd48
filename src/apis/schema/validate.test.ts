import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldError } from '../meta/field-error.js';
import type { Schema } from './schema.js';
import { validateAgainstSchema } from './validate.js';

const spec: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
        replicas: { type: 'integer', format: 'int32', minimum: 0, maximum: 10 },
        ratio: { type: 'number' },
        enabled: { type: 'boolean' },
        mode: { type: 'string', enum: ['Fast', 'Slow'] },
        labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 2 },
        data: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
        at: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3, minItems: 1, 'x-orch-list-type': 'set' },
        ports: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
          'x-orch-list-type': 'map',
          'x-orch-list-map-keys': ['name'],
        },
        port: { 'x-orch-int-or-string': true },
        note: { type: 'string', nullable: true },
        size: { type: 'integer', format: 'int64' },
        sizes: { type: 'array', items: { type: 'integer', format: 'int64' }, 'x-orch-list-type': 'set' },
      },
    },
  },
};

const cases: { name: string; value: Record<string, unknown>; want: FieldError[] }[] = [
  { name: 'valid object', value: { name: 'abc', replicas: 3, ratio: 0.5, mode: 'Fast', note: null }, want: [] },
  {
    name: 'string where integer expected',
    value: { name: 'abc', replicas: 'string' },
    want: [
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.replicas',
        message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      },
    ],
  },
  {
    name: 'fraction where integer expected',
    value: { name: 'abc', replicas: 1.5 },
    want: [
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.replicas',
        message: 'Invalid value: "number": spec.replicas in body must be of type integer: "number"',
      },
    ],
  },
  {
    name: 'integer accepted as number',
    value: { name: 'abc', ratio: 2 },
    want: [],
  },
  {
    name: 'object where string expected',
    value: { name: { a: 1 } },
    want: [
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.name',
        message: 'Invalid value: "object": spec.name in body must be of type string: "object"',
      },
    ],
  },
  {
    name: 'null on a non-nullable field',
    value: { name: 'abc', enabled: null },
    want: [
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.enabled',
        message: 'Invalid value: "null": spec.enabled in body must be of type boolean: "null"',
      },
    ],
  },
  {
    name: 'missing required property',
    value: {},
    want: [{ type: 'FieldValueRequired', field: 'spec.name', message: 'Required value' }],
  },
  {
    name: 'enum',
    value: { name: 'abc', mode: 'Medium' },
    want: [
      {
        type: 'FieldValueNotSupported',
        field: 'spec.mode',
        message: 'Unsupported value: "Medium": supported values: "Fast", "Slow"',
      },
    ],
  },
  {
    name: 'string length and pattern',
    value: { name: 'ABCDEF' },
    want: [
      { type: 'FieldValueTooLong', field: 'spec.name', message: 'Too long: may not be more than 5 bytes' },
      {
        type: 'FieldValueInvalid',
        field: 'spec.name',
        message: 'Invalid value: "ABCDEF": spec.name in body should match \'^[a-z]+$\'',
      },
    ],
  },
  {
    name: 'minLength',
    value: { name: 'a' },
    want: [
      {
        type: 'FieldValueInvalid',
        field: 'spec.name',
        message: 'Invalid value: "a": spec.name in body should be at least 2 chars long',
      },
    ],
  },
  {
    name: 'minimum and maximum',
    value: { name: 'ab', replicas: 11 },
    want: [
      {
        type: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: 'Invalid value: 11: spec.replicas in body should be less than or equal to 10',
      },
    ],
  },
  {
    name: 'map of strings with a non-string value and too many entries',
    value: { name: 'ab', labels: { a: 'x', b: 1, c: 'z' } },
    want: [
      { type: 'FieldValueTooMany', field: 'spec.labels', message: 'Too many: 3: must have at most 2 items' },
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.labels.b',
        message: 'Invalid value: "integer": spec.labels.b in body must be of type string: "integer"',
      },
    ],
  },
  {
    name: 'format byte',
    value: { name: 'ab', data: { ok: 'aGVsbG8=', bad: 'not base64!' } },
    want: [
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.data.bad',
        message: 'Invalid value: "not base64!": spec.data.bad in body must be of type byte: "not base64!"',
      },
    ],
  },
  {
    name: 'format date-time',
    value: { name: 'ab', at: '2024-13-01T00:00:00Z' },
    want: [
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.at',
        message:
          'Invalid value: "2024-13-01T00:00:00Z": spec.at in body must be of type date-time: "2024-13-01T00:00:00Z"',
      },
    ],
  },
  {
    name: 'array bounds, item types and set duplicates',
    value: { name: 'ab', tags: ['a', 'a', 3, 'b'] },
    want: [
      { type: 'FieldValueTooMany', field: 'spec.tags', message: 'Too many: 4: must have at most 3 items' },
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.tags[2]',
        message: 'Invalid value: "integer": spec.tags[2] in body must be of type string: "integer"',
      },
      { type: 'FieldValueDuplicate', field: 'spec.tags[1]', message: 'Duplicate value: "a"' },
    ],
  },
  {
    name: 'minItems',
    value: { name: 'ab', tags: [] },
    want: [
      {
        type: 'FieldValueInvalid',
        field: 'spec.tags',
        message: 'Invalid value: []: spec.tags in body should have at least 1 items',
      },
    ],
  },
  {
    name: 'map list duplicate keys',
    value: {
      name: 'ab',
      ports: [
        { name: 'http', port: 80 },
        { name: 'http', port: 81 },
      ],
    },
    want: [{ type: 'FieldValueDuplicate', field: 'spec.ports[1]', message: 'Duplicate value: {"name":"http"}' }],
  },
  {
    name: 'int-or-string',
    value: { name: 'ab', port: true },
    want: [
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.port',
        message: 'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      },
    ],
  },
  {
    name: 'int64 values past 2^53 are integers, numbers and int-or-strings',
    value: { name: 'ab', size: 2n ** 63n - 1n, ratio: 9007199254740993n, port: -(2n ** 63n), sizes: [2n ** 60n] },
    want: [],
  },
  {
    name: 'int64 range is exact',
    value: { name: 'ab', size: 2n ** 63n },
    want: [
      {
        type: 'FieldValueInvalid',
        field: 'spec.size',
        message:
          'Invalid value: 9223372036854775808: spec.size in body should be less than or equal to 9223372036854775807',
      },
    ],
  },
  {
    name: 'a bigint past int32, and one in the wrong place',
    value: { name: 'ab', replicas: 9007199254740993n, enabled: 9007199254740993n },
    want: [
      {
        type: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: 'Invalid value: 9007199254740993: spec.replicas in body should be less than or equal to 10',
      },
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.enabled',
        message: 'Invalid value: "integer": spec.enabled in body must be of type boolean: "integer"',
      },
    ],
  },
  {
    name: 'set items differing past 2^53 are distinct',
    value: { name: 'ab', sizes: [9007199254740993n, 9007199254740992n, 9007199254740993n] },
    want: [{ type: 'FieldValueDuplicate', field: 'spec.sizes[2]', message: 'Duplicate value: 9007199254740993' }],
  },
  {
    name: 'int32 range',
    value: { name: 'ab', replicas: 2 ** 31 },
    want: [
      {
        type: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: 'Invalid value: 2147483648: spec.replicas in body should be less than or equal to 10',
      },
    ],
  },
];

describe('validateAgainstSchema', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(validateAgainstSchema(spec, { spec: c.value }), c.want);
    });
  }

  it('prefixes paths and reports a root type error', () => {
    assert.deepEqual(validateAgainstSchema({ type: 'integer' }, 'x', 'spec.count'), [
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.count',
        message: 'Invalid value: "string": spec.count in body must be of type integer: "string"',
      },
    ]);
  });

  it('ignores fields the schema does not declare', () => {
    assert.deepEqual(validateAgainstSchema(spec, { spec: { name: 'ab', unknown: 1 }, other: true }), []);
  });

  it('does not modify the value', () => {
    const value = { spec: { name: 'x', tags: ['a', 'a'] } };
    const copy = structuredClone(value);
    validateAgainstSchema(spec, value);
    assert.deepEqual(value, copy);
  });
});
