import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../../apis/schema/schema.js';
import { ProtobufSchemaError } from './errors.js';
import { decodeMessage } from './message-decoder.js';
import { encodeMessage } from './message-encoder.js';
import { compileMessageTable } from './message-table.js';
import { ProtoReader } from './wire-reader.js';
import { ProtoWriter } from './wire-writer.js';

/**
 * Structs Go embeds with `json:",inline"` (`x-orch-protobuf-inline`): flattened in JSON, one
 * message field in protobuf, like core/v1 `Volume` { name = 1; VolumeSource volumeSource = 2 }.
 */
const mount: Schema = {
  type: 'object',
  'x-orch-type-name': 'io.orch.test.Mount',
  required: ['name', 'path'],
  'x-orch-protobuf-inline': [{ field: 2, properties: ['path', 'size'] }],
  properties: {
    name: { type: 'string', 'x-orch-protobuf-field': 1 },
    path: { type: 'string', 'x-orch-protobuf-field': 1 },
    size: { type: 'integer', format: 'int32', 'x-orch-protobuf-field': 2 },
    readOnly: { type: 'boolean', 'x-orch-protobuf-field': 3 },
  },
};
const pod: Schema = {
  type: 'object',
  'x-orch-type-name': 'io.orch.test.Pod',
  properties: { mounts: { type: 'array', items: mount, 'x-orch-protobuf-field': 1 } },
};

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

function encode(schema: Schema, obj: Record<string, unknown>): string {
  const w = new ProtoWriter();
  encodeMessage(w, compileMessageTable(schema), obj);
  return hex(w.finish());
}

function decode(schema: Schema, h: string): Record<string, unknown> {
  const b = bytes(h);
  return decodeMessage(new ProtoReader(b), b.length, compileMessageTable(schema));
}

describe('inlined structs in protobuf', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'flattened fields travel in the embedded message field',
      { name: 'a', path: '/x', size: 5, readOnly: true },
      '0a0161 1206 0a022f78 1005 1801',
    ],
    // Go always writes a non-pointer embedded struct, even an empty one.
    ['an empty embedded struct is still written', { name: 'a' }, '0a0161 1200'],
  ];
  for (const [what, obj, encoded] of cases) {
    it(what, () => {
      assert.equal(encode(mount, obj), encoded.replace(/\s+/g, ''));
      const decoded = decode(mount, encoded);
      assert.deepEqual(decoded, obj);
      assert.deepEqual(Object.keys(decoded), Object.keys(obj));
    });
  }

  it('decodes in schema order whatever the wire order, merging a repeated embedded message', () => {
    const decoded = decode(mount, '1801 1204 0a022f78 0a0161 1202 1009');
    assert.deepEqual(Object.entries(decoded), [
      ['name', 'a'],
      ['path', '/x'],
      ['size', 9],
      ['readOnly', true],
    ]);
  });

  it('works inside lists (volumes of a pod)', () => {
    const obj = {
      mounts: [
        { name: 'a', path: '/x' },
        { name: 'b', size: 1 },
      ],
    };
    const encoded = encode(pod, obj);
    assert.equal(encoded, '0a09 0a0161 1204 0a022f78 0a07 0a0162 1202 1001'.replace(/\s+/g, ''));
    assert.deepEqual(decode(pod, encoded), obj);
  });

  it('refuses an inline group naming a property the schema lacks', () => {
    const broken: Schema = { ...mount, 'x-orch-protobuf-inline': [{ field: 2, properties: ['path', 'missing'] }] };
    assert.throws(() => compileMessageTable(broken), ProtobufSchemaError);
  });
});
