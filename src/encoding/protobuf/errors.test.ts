import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configMapSchema, secretSchema } from '../../apis/core/core-v1-schemas.js';
import type { Schema } from '../../apis/schema/schema.js';
import { ProtobufDecodeError, ProtobufEncodeError, ProtobufSchemaError } from './errors.js';
import { encodeList } from './list-codec.js';
import { decodeObject, encodeObject } from './object-codec.js';

const bytes = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

/** `k8s\0` + Unknown{typeMeta v1/ConfigMap, raw} with `raw` given in hex. */
function configMapEnvelope(raw: string): Uint8Array {
  const r = raw.replace(/\s+/g, '');
  const len = (r.length / 2).toString(16).padStart(2, '0');
  return bytes(`6b387300 0a0f 0a027631 1209436f6e6669674d6170 12${len}${r}`);
}

function decodeFails(input: Uint8Array, reason: string, path: string, message?: RegExp) {
  assert.throws(
    () => decodeObject(configMapSchema, input),
    (e: unknown) => {
      assert.ok(e instanceof ProtobufDecodeError, String(e));
      assert.equal(e.reason, reason);
      assert.equal(e.path, path);
      if (path) assert.match(e.message, new RegExp(`\\(at ${path.replace(/[[\]().]/g, '\\$&')}\\)$`));
      if (message) assert.match(e.message, message);
      return true;
    },
  );
}

describe('ProtobufDecodeError', () => {
  it('rejects empty input, a wrong prefix and a bare prefix with kube’s messages', () => {
    decodeFails(new Uint8Array(0), 'prefix', '', /^empty data$/);
    decodeFails(Buffer.from('{"kind":"ConfigMap"}'), 'prefix', '', /expected prefix \[107 56 115 0\]/);
    decodeFails(bytes('6b387301 0a00'), 'prefix', '');
    decodeFails(bytes('6b387300'), 'prefix', '', /^empty body$/);
  });

  it('names the field of a truncated varint', () => {
    // metadata { generation: <varint cut off> }
    decodeFails(configMapEnvelope('0a02 38ff'), 'truncated', 'metadata.generation', /varint/);
  });

  it('names the field of a wrong wire type', () => {
    // metadata { name: varint 1 } — name is a string.
    decodeFails(configMapEnvelope('0a02 0801'), 'wire-type', 'metadata.name', /wrong wire type 0/);
  });

  it('names the list index of a broken repeated message element', () => {
    // ownerReferences[0] is fine, ownerReferences[1].uid has a varint.
    decodeFails(configMapEnvelope('0a08 6a02 0a00 6a02 2001'), 'wire-type', 'metadata.ownerReferences[1].uid');
  });

  it('names the map key of a truncated map value', () => {
    // labels entry { key: "app", value: length 9 with 1 byte left }
    decodeFails(configMapEnvelope('0a0a 5a08 0a03617070 120978'), 'truncated', 'metadata.labels[app]');
  });

  it('names a value that runs past its parent message', () => {
    // data entry declares 16 bytes, the message has 2 left.
    decodeFails(configMapEnvelope('1210 0a00'), 'truncated', 'data');
  });

  it('rejects a Time with a wrong wire type and FieldsV1 that is not JSON', () => {
    decodeFails(configMapEnvelope('0a04 4202 0a00'), 'wire-type', 'metadata.creationTimestamp');
    const notJson = Buffer.from('{oops').toString('hex');
    decodeFails(
      configMapEnvelope(`0a0c 8a0109 3a07 0a05${notJson}`),
      'malformed',
      'metadata.managedFields[0].fieldsV1',
      /does not hold JSON/,
    );
  });

  it('rejects a truncated envelope and a truncated raw', () => {
    decodeFails(bytes('6b387300 0a0f 0a027631'), 'truncated', '<envelope>.typeMeta');
    decodeFails(bytes('6b387300 1205 0a03'), 'truncated', '<envelope>.raw');
  });

  it('rejects a document of another kind than expected', () => {
    const secret = encodeObject(secretSchema, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
    assert.throws(
      () => decodeObject(configMapSchema, secret, { apiVersion: 'v1', kind: 'ConfigMap' }),
      (e: unknown) => e instanceof ProtobufDecodeError && e.reason === 'kind-mismatch' && /Secret/.test(e.message),
    );
  });

  it('rejects an envelope without kind when nothing is expected', () => {
    assert.throws(
      () => decodeObject(configMapSchema, bytes('6b387300 0a00 1200')),
      (e: unknown) => e instanceof ProtobufDecodeError && /'Kind' is missing/.test(e.message),
    );
  });
});

describe('ProtobufEncodeError', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a number in a string map', { metadata: {}, data: { a: 1 } }, 'data[a]'],
    ['a bad timestamp', { metadata: { creationTimestamp: 'yesterday' } }, 'metadata.creationTimestamp'],
    [
      'a string in a bool',
      { metadata: { ownerReferences: [{ name: 'o' }, { controller: 'yes' }] } },
      'metadata.ownerReferences[1].controller',
    ],
    ['a fraction in an int64', { metadata: { generation: 1.5 } }, 'metadata.generation'],
    ['an array as a message', { metadata: [] }, 'metadata'],
    [
      'fieldsV1 that is not an object',
      { metadata: { managedFields: [{ fieldsV1: 'f:a' }] } },
      'metadata.managedFields[0].fieldsV1',
    ],
  ];
  for (const [name, fields, path] of cases) {
    it(`names the path of ${name}`, () => {
      assert.throws(
        () => encodeObject(configMapSchema, { apiVersion: 'v1', kind: 'ConfigMap', ...fields }),
        (e: unknown) => e instanceof ProtobufEncodeError && e.path === path && e.message.endsWith(`(at ${path})`),
      );
    });
  }

  it('names the item of a list', () => {
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items: [{ metadata: {} }, { data: 'x' }] };
    assert.throws(
      () => encodeList(configMapSchema, list),
      (e: unknown) => e instanceof ProtobufEncodeError && e.path === 'items[1].data',
    );
  });

  it('needs apiVersion and kind for the envelope', () => {
    assert.throws(() => encodeObject(configMapSchema, { metadata: {} }), ProtobufEncodeError);
  });
});

describe('ProtobufSchemaError', () => {
  it('rejects shapes protobuf cannot carry and duplicate field numbers', () => {
    const nested: Schema = {
      type: 'object',
      properties: {
        grid: { type: 'array', items: { type: 'array', items: { type: 'string' } }, 'x-orch-protobuf-field': 1 },
      },
    };
    const duplicate: Schema = {
      type: 'object',
      properties: {
        a: { type: 'string', 'x-orch-protobuf-field': 1 },
        b: { type: 'string', 'x-orch-protobuf-field': 1 },
      },
    };
    const freeForm: Schema = {
      type: 'object',
      properties: { any: { type: 'object', 'x-orch-preserve-unknown-fields': true, 'x-orch-protobuf-field': 1 } },
    };
    for (const schema of [nested, duplicate, freeForm]) {
      assert.throws(() => encodeObject(schema, { apiVersion: 'v1', kind: 'X' }), ProtobufSchemaError);
    }
  });
});
