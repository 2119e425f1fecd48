import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeCbor,
  decodeCborSequence,
  encodeCbor,
  encodeCborWatchEvent,
  hasSelfDescribedCborPrefix,
} from './cbor.js';
import { CborDecodeError, CborEncodeError } from './errors.js';

// Expected bytes are what k8s.io/apimachinery's CBOR serializer (fxamacker/cbor with kube's
// options) writes for the same values.
const VECTORS: [unknown, string][] = [
  [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } },
    'd9d9f7a44464617461a141614131446b696e6449436f6e6669674d6170486d65746164617461a1446e616d6542636d4a61706956657273696f6e427631',
  ],
  [
    { n: [0, 23, 24, 255, 256, 65536, 4294967296, -1, -24, -25, 9007199254740991, -9007199254740991] },
    'd9d9f7a1416e8c0017181818ff1901001a000100001b0000000100000000203738181b001fffffffffffff3b001ffffffffffffe',
  ],
  [
    { f: [1.5, 0.1, -2.25, 65504, 100000.5, 1e300, 2 ** -24, (2 - 2 ** -23) * 2 ** 127] },
    'd9d9f7a1416688f93e00fb3fb999999999999af9c08019ffe0fa47c35040fb7e37e43c8800759cf90001fa7f7fffff',
  ],
  [
    { b: [true, false, null], s: '', u: 'é😀', keys: { bb: 1, a: 2, c: 3, aaa: 4 } },
    'd9d9f7a4416283f5f4f6417340417546c3a9f09f9880446b657973a4416102416303426262014361616104',
  ],
  [[], 'd9d9f780'],
  [{}, 'd9d9f7a0'],
  ['x', 'd9d9f74178'],
];

describe('encodeCbor', () => {
  for (const [value, hex] of VECTORS) {
    it(`encodes ${JSON.stringify(value).slice(0, 60)}`, () => {
      assert.equal(encodeCbor(value).toString('hex'), hex);
    });
  }
  it('leaves undefined members out and can omit the tag', () => {
    assert.equal(encodeCbor({ a: undefined, b: [undefined] }, { selfDescribed: false }).toString('hex'), 'a1416281f6');
  });
  it('rejects NaN and infinities', () => {
    assert.throws(() => encodeCbor({ a: Number.NaN }), CborEncodeError);
    assert.throws(() => encodeCbor([Number.POSITIVE_INFINITY]), CborEncodeError);
  });
});

describe('decodeCbor', () => {
  for (const [value, hex] of VECTORS) {
    it(`round-trips ${JSON.stringify(value).slice(0, 60)}`, () => {
      assert.deepEqual(decodeCbor(Buffer.from(hex, 'hex')), value);
    });
  }
  it('accepts text strings, indefinite lengths, tags and expected-later encodings', () => {
    const cases: [string, unknown][] = [
      ['a1616101', { a: 1 }],
      ['7f61616162ff', 'ab'],
      ['9f0102ff', [1, 2]],
      ['bf616101ff', { a: 1 }],
      ['d9d9f7d9d9f7a1616101', { a: 1 }],
      ['d6430102ff', 'AQL/'],
      ['5f41614162ff', 'ab'],
      ['c1fb41d0000000400000', '2004-01-10T13:37:05Z'],
      ['c1fb41d0000000600000', '2004-01-10T13:37:05.5Z'],
      ['a1f601', { '': 1 }],
      ['f90001', 2 ** -24],
    ];
    for (const [hex, value] of cases) assert.deepEqual(decodeCbor(Buffer.from(hex, 'hex')), value, hex);
  });

  // Messages are fxamacker/cbor's for the same bytes under kube's decoding options.
  const ERRORS: [string, string][] = [
    ['', 'EOF'],
    ['a1', 'unexpected EOF'],
    ['a16161', 'unexpected EOF'],
    ['a16161010203', 'cbor: 2 bytes of extraneous data starting at index 4'],
    ['a2616101616102', 'cbor: found duplicate map key "a" at map element index 1'],
    ['a2416101616102', 'cbor: found duplicate map key "a" at map element index 1'],
    ['a10101', 'cbor: cannot unmarshal positive integer into Go value of type string'],
    ['62c328', 'cbor: invalid UTF-8 string'],
    ['f97e00', 'cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN'],
    ['fa7f800000', 'cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity'],
    ['f7', 'cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized'],
    ['f810', 'cbor: invalid simple value 16 for type primitives'],
    ['c240', 'cbor: data item of cbor type tag is not accepted by protocol: bignum'],
    [
      '1bffffffffffffffff',
      "cbor: cannot unmarshal positive integer into Go value of type int64 (18446744073709551615 overflows Go's int64)",
    ],
    [
      '3bffffffffffffffff',
      "cbor: cannot unmarshal negative integer into Go value of type int64 (-18446744073709551616 overflows Go's int64)",
    ],
    ['ff', 'cbor: unexpected "break" code'],
    ['1c', 'cbor: invalid additional information 28 for type positive integer'],
    ['a1c16161f5', 'cbor: tag number 1 must be followed by integer or floating-point number, got UTF-8 text string'],
    ['bf616101f5ff', 'cbor: unexpected "break" code'],
    ['5f6161ff', 'cbor: wrong element type UTF-8 text string for indefinite-length byte string'],
    [`${'81'.repeat(65)}01`, 'cbor: exceeded max nested level 64'],
    [`99040${'1'}${'00'.repeat(1025)}`, 'cbor: exceeded max number of elements 1024 for CBOR array'],
  ];
  for (const [hex, message] of ERRORS) {
    it(`rejects ${hex.slice(0, 24)}${hex.length > 24 ? '…' : ''}`, () => {
      assert.throws(
        () => decodeCbor(Buffer.from(hex, 'hex')),
        (e) => e instanceof CborDecodeError && e.message === message,
      );
    });
  }
  it('nests up to 64 levels', () => {
    assert.doesNotThrow(() => decodeCbor(Buffer.from(`${'81'.repeat(64)}01`, 'hex')));
  });
  it('has configurable limits', () => {
    const big = encodeCbor(Array.from({ length: 2000 }, (_, i) => i));
    assert.equal((decodeCbor(big, { maxArrayElements: 5000 }) as number[]).length, 2000);
  });
});

describe('CBOR watch events', () => {
  it('frames each event as kube writes metav1.WatchEvent', () => {
    const object = { kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '5' } };
    const frame = encodeCborWatchEvent('ADDED', object);
    assert.ok(hasSelfDescribedCborPrefix(frame));
    // "type" sorts before "object" (shorter key first); the object keeps its own tag.
    assert.equal(
      frame.toString('hex'),
      `d9d9f7a24474797065454144444544466f626a656374${encodeCbor(object).toString('hex')}`,
    );
    assert.deepEqual(decodeCbor(frame), { type: 'ADDED', object });
  });
  it('accepts an already encoded object and concatenates into a sequence', () => {
    const encoded = encodeCbor({ metadata: { resourceVersion: '7' } });
    const stream = Buffer.concat([
      encodeCborWatchEvent('MODIFIED', encoded),
      encodeCborWatchEvent('BOOKMARK', { metadata: { resourceVersion: '8' } }),
    ]);
    assert.deepEqual(decodeCborSequence(stream), [
      { type: 'MODIFIED', object: { metadata: { resourceVersion: '7' } } },
      { type: 'BOOKMARK', object: { metadata: { resourceVersion: '8' } } },
    ]);
  });
});
