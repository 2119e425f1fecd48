import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import type { StorageVersionConversion } from '../../apis/resource-definition.js';
import { findMetadataEnd, needsGoEscaping, servedJsonOfStored } from './stored-json.js';
import { decodeStored, encodeStored, storedCodec } from './stored-object.js';

/** v1 `spec.count` is v2 `spec.replicas`; v2's `spec.color` travels in an annotation on v1. */
const COLOR = 'test.orch.io/color';
const v1ToV2: StorageVersionConversion = {
  apiVersion: 'test.orch.io/v2',
  toStorage(obj) {
    const { count, ...spec } = (obj.spec ?? {}) as Record<string, unknown>;
    const { [COLOR]: color, ...annotations } = obj.metadata.annotations ?? {};
    const metadata: ApiObject['metadata'] = { ...obj.metadata, annotations };
    if (Object.keys(annotations).length === 0) delete metadata.annotations;
    return {
      ...obj,
      apiVersion: 'test.orch.io/v2',
      metadata,
      spec: { ...spec, replicas: count, ...(color !== undefined ? { color } : {}) },
    };
  },
  fromStorage(stored) {
    const { replicas, color, ...spec } = (stored.spec ?? {}) as Record<string, unknown>;
    const metadata = { ...stored.metadata };
    if (typeof color === 'string') metadata.annotations = { ...(metadata.annotations ?? {}), [COLOR]: color };
    return { ...stored, apiVersion: 'test.orch.io/v1', metadata, spec: { ...spec, count: replicas } };
  },
};

describe('stored objects', () => {
  it('are known as encoded here only as the arrays the codec returned', () => {
    const codec = storedCodec({});
    const obj: ApiObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } };
    const value = codec.encode(obj);
    assert.deepEqual(codec.encodedMetadataEnd?.(value), findMetadataEnd(value));
    // The same bytes read back from a store, or encoded by another definition's codec, are not.
    assert.equal(codec.encodedMetadataEnd?.(Uint8Array.from(value)), undefined);
    assert.equal(storedCodec({}).encodedMetadataEnd?.(value), undefined);
    // A converting codec's bytes are not the object as served: it never claims any.
    const converting = storedCodec({ storageVersion: v1ToV2 });
    assert.equal(converting.encodedMetadataEnd?.(converting.encode(obj)), undefined);
  });

  it('copy the known text of a fieldsV1 and are byte for byte what serializing it gives', () => {
    const shared = Object.freeze({ 'f:data': Object.freeze({ '.': {}, 'f:k': {} }) });
    const other = { 'f:data': { 'f:x': {} } };
    const texts: unknown[] = [];
    // Known text that differs from the value's own serialization shows where the copy is used.
    const known = (v: unknown) => {
      if (v !== shared) return undefined;
      texts.push(v);
      return '{"f:data":{"f:known":{}}}';
    };
    const entry = (fieldsV1: unknown, extra: Record<string, unknown> = {}) => ({
      manager: 'm',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2026-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1,
      ...extra,
    });
    const cases: { metadata: Record<string, unknown>; copies: number }[] = [
      { metadata: { name: 'a', labels: { x: 'ü😀' }, managedFields: [entry(shared)] }, copies: 1 },
      { metadata: { managedFields: [entry(shared), entry(other), entry(shared)] }, copies: 2 },
      { metadata: { name: 'a', managedFields: [entry(other)] }, copies: 0 },
      // fieldsV1 not last in its entry, or managedFields not last: serialized whole.
      { metadata: { name: 'a', managedFields: [entry(shared, { subresource: 'status' })] }, copies: 0 },
      { metadata: { managedFields: [entry(shared)], zExtra: 'after' }, copies: 0 },
      // Entries JSON has no object for, and a bigint beside a copied fieldsV1.
      { metadata: { generation: 2n ** 60n, managedFields: [null, 'text', entry(shared)] }, copies: 1 },
      { metadata: { name: 'a', managedFields: [] }, copies: 0 },
      { metadata: { managedFields: [{ fieldsV1: shared }] }, copies: 1 },
    ];
    for (const { metadata, copies } of cases) {
      const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { k: 'v' } } as unknown as ApiObject;
      texts.length = 0;
      const copied = Buffer.from(storedCodec({}, known).encode(obj)).toString();
      assert.equal(texts.length, copies, copied);
      // The same bytes as serializing the known value as its text.
      const swap = (e: unknown) =>
        (e as { fieldsV1?: unknown } | null)?.fieldsV1 === shared
          ? { ...(e as object), fieldsV1: { 'f:data': { 'f:known': {} } } }
          : e;
      const entries = metadata.managedFields as unknown[];
      const expected = { ...obj, metadata: { ...metadata, managedFields: entries.map(swap) } } as unknown as ApiObject;
      assert.equal(copied, Buffer.from(encodeStored(copies > 0 ? expected : obj)).toString());
    }
  });

  it('record where metadata ends exactly as a scan of their bytes finds it', () => {
    const codec = storedCodec({});
    const managedFields = [{ manager: 'm', operation: 'Update', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } } }];
    const objects: Record<string, unknown>[] = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '5' }, data: { k: 'v' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { k: 'v' } },
      { metadata: { name: 'first', managedFields }, kind: 'ConfigMap', apiVersion: 'v1' },
      // Characters beyond ASCII before and inside metadata move byte offsets away from string ones.
      { apiVersion: 'v1', kind: 'Ünïcode', metadata: { name: 'a', labels: { app: 'café 😀' } }, data: { k: 'ü' } },
      // What a response cannot write as stored: Go escapes these, or metadata names a resourceVersion.
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', annotations: { a: '<b>' } } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { resourceVersion: 'x' } } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: '\u2028' } },
      // Members JSON leaves out, and integers beyond 2^53.
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', generation: 2n ** 60n }, skipped: undefined },
    ];
    for (const obj of objects) {
      const value = codec.encode(obj as unknown as ApiObject);
      const text = Buffer.from(value).toString();
      const { resourceVersion: _rv, ...meta } = obj.metadata as Record<string, unknown>;
      assert.equal(text, Buffer.from(encodeStored(obj as unknown as ApiObject)).toString());
      assert.deepEqual(
        JSON.parse(text.replace(/(\d{17,})/g, '"$1"')),
        JSON.parse(JSON.stringify({ ...obj, metadata: meta }, (_k, v) => (typeof v === 'bigint' ? String(v) : v))),
        text,
      );
      const scanned = needsGoEscaping(value) ? undefined : findMetadataEnd(value);
      assert.deepEqual(codec.encodedMetadataEnd?.(value), scanned ?? null, text);
      assert.deepEqual(
        servedJsonOfStored(value, 9n, '', codec.encodedMetadataEnd?.(value)),
        servedJsonOfStored(value, 9n),
      );
    }
  });

  it('keep integers past 2^53 exact through the store', () => {
    const obj = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', resourceVersion: '9', generation: 9007199254740993n },
      data: { k: '9007199254740993' },
      spec: { sizes: [2n ** 63n - 1n, -(2n ** 63n), 1] },
    } as unknown as ApiObject;
    const value = encodeStored(obj);
    assert.equal(
      Buffer.from(value).toString(),
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","generation":9007199254740993},"data":{"k":"9007199254740993"},"spec":{"sizes":[9223372036854775807,-9223372036854775808,1]}}',
    );
    const decoded = decodeStored({ key: '/k', value, createRevision: 1n, modRevision: 12n });
    assert.deepStrictEqual(decoded, { ...obj, metadata: { ...obj.metadata, resourceVersion: '12' } });
  });

  it('are stored in the storage version and read back in the definition version', () => {
    const v1 = storedCodec({ storageVersion: v1ToV2 });
    const v2 = storedCodec({});
    const obj: ApiObject = {
      apiVersion: 'test.orch.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', resourceVersion: '3', annotations: { [COLOR]: 'red', keep: 'me' } },
      spec: { count: 2 },
    };
    const value = v1.encode(obj);
    assert.deepEqual(JSON.parse(Buffer.from(value).toString()), {
      apiVersion: 'test.orch.io/v2',
      kind: 'Widget',
      metadata: { name: 'w', annotations: { keep: 'me' } },
      spec: { replicas: 2, color: 'red' },
    });
    const kv = { key: '/w', value, createRevision: 4n, modRevision: 4n };
    assert.deepEqual(v2.decode(kv).spec, { replicas: 2, color: 'red' });
    const back = v1.decode(kv);
    assert.deepEqual(back, { ...obj, metadata: { ...obj.metadata, resourceVersion: '4' } });
    // A round trip through the served version writes the same bytes (no-op updates stay no-ops).
    assert.deepEqual(v1.encode(back), value);
  });

  it('of another version than the storage version are read as they are', () => {
    const v1 = storedCodec({ storageVersion: v1ToV2 });
    const stored = encodeStored({ apiVersion: 'test.orch.io/v1', kind: 'Widget', metadata: { name: 'w' } });
    assert.equal(
      v1.decode({ key: '/w', value: stored, createRevision: 1n, modRevision: 1n }).apiVersion,
      'test.orch.io/v1',
    );
  });
});
