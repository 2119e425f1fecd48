import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import { decodeStored, encodeStored } from './stored-object.js';

describe('stored objects', () => {
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
});
