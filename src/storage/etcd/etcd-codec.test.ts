import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IKeyValue } from 'etcd3';
import { CorruptValueError } from '../errors.js';
import { frameValue, KeyCodec, prefixEnd, VALUE_MAGIC } from './etcd-codec.js';

function wireKv(key: string, value: Buffer): IKeyValue {
  return {
    key: Buffer.from(key),
    value,
    create_revision: '5',
    mod_revision: '7',
    version: '2',
    lease: '0',
  };
}

describe('etcd codec', () => {
  it('computes prefix range ends', () => {
    const cases: Array<[number[], number[]]> = [
      [
        [0x61, 0x2f],
        [0x61, 0x30],
      ],
      [[0x61, 0xff], [0x62]],
      [[0x61, 0xff, 0xff], [0x62]],
      [[0xff], [0x00]],
      [[], [0x00]],
    ];
    for (const [input, expected] of cases) {
      assert.deepEqual([...prefixEnd(Buffer.from(input))], expected, `prefixEnd(${input})`);
    }
  });

  it('frames values with the magic header and reads them back as plain Uint8Arrays', () => {
    const codec = new KeyCodec();
    const framed = frameValue(new Uint8Array([1, 2, 3]));
    assert.deepEqual([...framed], [...VALUE_MAGIC, 1, 2, 3]);
    const kv = codec.decodeKeyValue(wireKv('/registry/a', framed));
    assert.deepEqual(kv, {
      key: '/registry/a',
      value: new Uint8Array([1, 2, 3]),
      createRevision: 5n,
      modRevision: 7n,
    });
    assert.deepEqual(codec.decodeKeyValue(wireKv('/e', frameValue(new Uint8Array(0)))).value, new Uint8Array(0));
  });

  it('reports values without the header as corrupt items', () => {
    const codec = new KeyCodec();
    for (const raw of [Buffer.from('{"a":1}'), Buffer.from('orc'), Buffer.alloc(0), Buffer.from('orc\x01xx')]) {
      const kv = codec.decodeKeyValue(wireKv('/registry/x', raw));
      assert.ok(kv.corrupt instanceof CorruptValueError);
      assert.equal(kv.corrupt.key, '/registry/x');
      assert.equal(kv.value.length, 0);
      assert.equal(kv.modRevision, 7n);
    }
  });

  it('applies and strips the key namespace, also for multi-byte keys', () => {
    const codec = new KeyCodec('/tenant-ä');
    const wire = codec.encode('/registry/ü/x');
    assert.equal(wire.toString(), '/tenant-ä/registry/ü/x');
    assert.equal(codec.decode(wire), '/registry/ü/x');
    const range = codec.prefixRange('/registry/core/pods/');
    assert.equal(range.key.toString(), '/tenant-ä/registry/core/pods/');
    assert.equal(range.rangeEnd.toString(), '/tenant-ä/registry/core/pods0');
  });

  it('starts ranges strictly after startAfter, but never before the prefix', () => {
    const codec = new KeyCodec();
    const after = codec.prefixRange('/r/p/', '/r/p/b');
    assert.deepEqual([...after.key], [...Buffer.from('/r/p/b'), 0]);
    assert.equal(codec.prefixRange('/r/p/', '/a').key.toString(), '/r/p/');
  });
});
