import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../meta/status.js';
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { canonicalizeEmbeddedQuantities, canonicalizeQuantities } from './quantity-fields.js';

const quantity: Schema = { type: 'string', 'x-orch-protobuf-message': 'Quantity' };
const schema: Schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    list: { type: 'array', items: quantity },
    limits: { type: 'object', additionalProperties: quantity },
    // A map that also declares a key: the declared key is no map entry.
    mixed: { type: 'object', properties: { note: { type: 'string' } }, additionalProperties: quantity },
    nested: { type: 'array', items: { type: 'object', properties: { size: quantity, label: { type: 'string' } } } },
  },
};

const object = (fields: Record<string, unknown>) =>
  ({ apiVersion: 'example.io/v2', kind: 'Thing', ...fields }) as ApiObject;

describe('canonicalizeQuantities', () => {
  it('rewrites quantities in lists, maps and nested objects, and leaves the rest', () => {
    const obj = object({
      name: '0.5',
      list: ['1024Mi', 0.5, null],
      limits: { cpu: ' 1000m ', memory: 3 },
      mixed: { note: '0.5', other: '0.5' },
      nested: [{ size: '2048Ki', label: '0.5' }, 'text'],
    });
    canonicalizeQuantities(schema, obj);
    assert.deepEqual(obj, {
      apiVersion: 'example.io/v2',
      kind: 'Thing',
      name: '0.5',
      list: ['1Gi', '500m', null],
      limits: { cpu: '1', memory: '3' },
      mixed: { note: '0.5', other: '500m' },
      nested: [{ size: '2Mi', label: '0.5' }, 'text'],
    });
  });

  it('fails the request on a malformed quantity, as a decoding error', () => {
    const obj = object({ limits: { a: 'x1' }, list: ['y2'] });
    assert.throws(
      () => canonicalizeQuantities(schema, obj),
      (e) =>
        e instanceof StatusError &&
        e.code === 400 &&
        e.message.startsWith('Thing in version "v2" cannot be handled as a Thing: quantities must match'),
    );
    assert.throws(
      () => canonicalizeEmbeddedQuantities(schema, { list: ['1', 'bad'] }),
      (e) => e instanceof StatusError && e.code === 400 && e.message.startsWith('quantities must match'),
    );
  });
});
