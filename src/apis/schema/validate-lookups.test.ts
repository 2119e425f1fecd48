import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import type { Schema } from './schema.js';
import { validateAgainstSchema } from './validate.js';

const lines = (schema: Schema, value: unknown) => validateAgainstSchema(schema, value).map(formatFieldError);

describe('validateAgainstSchema: enums', () => {
  const strings: Schema = { type: 'object', properties: { mode: { enum: ['Fast', 'Slow'] } } };
  const mixed: Schema = { type: 'object', properties: { level: { enum: [1, 'two', null] } } };

  it('a string enum accepts its strings only', () => {
    assert.deepEqual(lines(strings, { mode: 'Fast' }), []);
    assert.deepEqual(lines(strings, { mode: 'fast' }), [
      'mode: Unsupported value: "fast": supported values: "Fast", "Slow"',
    ]);
    assert.deepEqual(lines(strings, { mode: 1 }), ['mode: Unsupported value: 1: supported values: "Fast", "Slow"']);
  });

  it('an enum of other values compares JSON values', () => {
    assert.deepEqual(lines(mixed, { level: 1 }), []);
    assert.deepEqual(lines(mixed, { level: 'two' }), []);
    assert.deepEqual(lines(mixed, { level: '1' }), [
      'level: Unsupported value: "1": supported values: "1", "two", "null"',
    ]);
  });
});

describe('validateAgainstSchema: properties', () => {
  const schema: Schema = {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' } },
  };

  it('reports in the schema order whatever the order of the keys', () => {
    assert.deepEqual(lines(schema, { c: 1, b: 'x', a: 2 }), [
      'a: Invalid value: "integer": a in body must be of type string: "integer"',
      'b: Invalid value: "string": b in body must be of type integer: "string"',
      'c: Invalid value: "integer": c in body must be of type boolean: "integer"',
    ]);
  });

  it('skips undefined members and keys the schema does not declare', () => {
    assert.deepEqual(lines(schema, { z: 1, a: undefined, b: 2 }), []);
  });
});

describe('validateAgainstSchema: map lists', () => {
  const schema: Schema = {
    type: 'object',
    properties: {
      ports: {
        type: 'array',
        'x-orch-list-type': 'map',
        'x-orch-list-map-keys': ['port', 'protocol'],
        items: { type: 'object', properties: { port: {}, protocol: { type: 'string' } } },
      },
    },
  };

  it('items are duplicates when the keys they set are equal', () => {
    const ports = [
      { port: 80, protocol: 'TCP' },
      { protocol: 'TCP', port: 80 },
      { port: 80 },
      { port: 80 },
      { port: '80' },
      { protocol: 'TCP' },
      { port: 80, protocol: 'UDP' },
    ];
    assert.deepEqual(lines(schema, { ports }), [
      'ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}',
      'ports[3]: Duplicate value: {"port":80}',
    ]);
  });

  it('keys whose text would need escaping are compared exactly', () => {
    const ports = [{ protocol: 'a"b' }, { protocol: 'a\\"b' }, { protocol: 'a,b' }, { protocol: 'a"b' }];
    assert.deepEqual(lines(schema, { ports }), ['ports[3]: Duplicate value: {"protocol":"a\\"b"}']);
  });
});
