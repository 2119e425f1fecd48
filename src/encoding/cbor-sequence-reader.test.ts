import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeCbor, encodeCborWatchEvent } from './cbor.js';
import { CborSequenceReader } from './cbor-sequence-reader.js';
import { CborDecodeError } from './errors.js';

const events = [
  encodeCborWatchEvent('ADDED', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'é' } }),
  encodeCborWatchEvent('MODIFIED', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } }),
  encodeCborWatchEvent('BOOKMARK', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '9' } }),
];
const stream = Buffer.concat(events);
const expected = [
  { type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'é' } } },
  { type: 'MODIFIED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } } },
  { type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '9' } } },
];

describe('CborSequenceReader', () => {
  const cases: [string, number][] = [
    ['the whole stream at once', stream.length],
    ['one byte at a time', 1],
    ['7-byte chunks', 7],
    ['chunks across item boundaries', events[0].length + 3],
  ];
  for (const [name, size] of cases) {
    it(`decodes ${name}`, () => {
      const r = new CborSequenceReader();
      const got: unknown[] = [];
      for (let i = 0; i < stream.length; i += size) got.push(...r.push(stream.subarray(i, i + size)));
      r.finish();
      assert.deepEqual(got, expected);
      assert.equal(r.buffered, 0);
    });
  }

  it('keeps a cut-off item and reports it at the end', () => {
    const r = new CborSequenceReader();
    assert.deepEqual(r.push(stream.subarray(0, events[0].length + 5)), [expected[0]]);
    assert.equal(r.buffered, 5);
    assert.throws(() => r.finish(), CborDecodeError);
  });

  it('rejects an item kube does not accept, whatever follows', () => {
    const r = new CborSequenceReader();
    // A map with a duplicate key.
    const dup = Buffer.from([0xa2, 0x41, 0x61, 0x01, 0x41, 0x61, 0x02]);
    assert.throws(() => r.push(Buffer.concat([dup, encodeCbor({ a: 1 })])), CborDecodeError);
    // A break code where no item may start.
    assert.throws(() => new CborSequenceReader().push(Buffer.from([0xff])), CborDecodeError);
  });
});
