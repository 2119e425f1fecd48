import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configMapSchema } from '../apis/core/core-v1-schemas.js';
import { decodeCbor, encodeCbor } from './cbor.js';
import { encodeJson, encodeJsonCompact, encodeJsonList } from './json-encode.js';
import { decodeJsonStrict } from './json-strict.js';
import { decodeObject, encodeObject } from './protobuf/index.js';
import { decodeYamlStrict } from './yaml-decode.js';
import { encodeYaml } from './yaml-encode.js';

/** Integers beyond 2^53 are `bigint`s: every codec reads and writes them exactly. */

const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

describe('big integers: JSON', () => {
  for (const detectDuplicates of [true, false]) {
    it(`decodes integers past 2^53 exactly (detectDuplicates: ${detectDuplicates})`, () => {
      const text = `{"a":9007199254740993,"b":[-9007199254740993,${MAX_INT64},${MIN_INT64}],"c":1,"d":"12345678901234567890","e":1e30,"f":12345678901234567.5}`;
      const { value } = decodeJsonStrict(text, { detectDuplicates });
      assert.deepStrictEqual(value, {
        a: 9007199254740993n,
        b: [-9007199254740993n, MAX_INT64, MIN_INT64],
        c: 1,
        d: '12345678901234567890',
        e: 1e30,
        f: Number('12345678901234567.5'),
      });
    });
  }

  it('keeps small numbers as numbers, long digit runs in strings aside', () => {
    const { value } = decodeJsonStrict('{"s":"99999999999999999999","n":9007199254740991,"m":-9007199254740991}');
    assert.deepStrictEqual(value, { s: '99999999999999999999', n: 9007199254740991, m: -9007199254740991 });
  });

  it('reports duplicates and decodes exactly in one pass', () => {
    const r = decodeJsonStrict('{"a":9007199254740993,"a":9007199254740995}');
    assert.deepStrictEqual(r.value, { a: 9007199254740995n });
    assert.deepEqual(
      r.duplicates.map((d) => d.path),
      ['a'],
    );
  });

  it('encodes them as integers, compact, pretty and in lists', () => {
    const obj = { metadata: { generation: 9007199254740993n }, v: [MIN_INT64] };
    assert.equal(encodeJson(obj), '{"metadata":{"generation":9007199254740993},"v":[-9223372036854775808]}\n');
    assert.equal(encodeJsonCompact(obj), '{"metadata":{"generation":9007199254740993},"v":[-9223372036854775808]}');
    assert.equal(
      encodeJson(obj, { pretty: true }),
      '{\n  "metadata": {\n    "generation": 9007199254740993\n  },\n  "v": [\n    -9223372036854775808\n  ]\n}',
    );
    assert.equal(
      encodeJsonList({ kind: 'L', n: MAX_INT64 }, [obj]).toString(),
      '{"kind":"L","n":9223372036854775807,"items":[{"metadata":{"generation":9007199254740993},"v":[-9223372036854775808]}]}\n',
    );
  });
});

describe('big integers: YAML', () => {
  it('decodes integers past 2^53 exactly, in any base go-yaml reads', () => {
    const { value } = decodeYamlStrict(
      'a: 9007199254740993\nb: -9223372036854775808\nc: 0x20000000000001\nd: 18446744073709551615\ne: 9007199254740991\nf: !!float 9007199254740993\n',
    );
    assert.deepStrictEqual(value, {
      a: 9007199254740993n,
      b: MIN_INT64,
      c: 9007199254740993n,
      d: 2n ** 64n - 1n,
      e: 9007199254740991,
      f: 9007199254740992,
    });
  });

  it('encodes them as plain integers (a float64 past uint64 as kube prints it)', () => {
    assert.equal(
      encodeYaml({ a: 9007199254740993n, b: MIN_INT64, c: 2n ** 64n - 1n, d: 2n ** 70n }),
      'a: 9007199254740993\nb: -9223372036854775808\nc: 18446744073709551615\nd: 1.1805916207174113e+21\n',
    );
  });
});

describe('big integers: CBOR', () => {
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  const cases: Array<[string, bigint, string]> = [
    ['2^53 + 1', 9007199254740993n, '1b0020000000000001'],
    ['-(2^53 + 1)', -9007199254740993n, '3b0020000000000000'],
    ['max int64', MAX_INT64, '1b7fffffffffffffff'],
    ['min int64', MIN_INT64, '3b7fffffffffffffff'],
  ];
  for (const [name, value, bytes] of cases) {
    it(`${name} as a major type 0/1 integer, and back`, () => {
      const encoded = encodeCbor(value, { selfDescribed: false });
      assert.equal(hex(encoded), bytes);
      assert.equal(decodeCbor(encoded), value);
    });
  }

  it('keeps them exact inside objects, and writes a value past int64 as the float kube holds', () => {
    const obj = { n: 9007199254740993n, l: [MIN_INT64] };
    assert.deepStrictEqual(decodeCbor(encodeCbor(obj)), obj);
    assert.equal(hex(encodeCbor(2n ** 64n, { selfDescribed: false })), 'fa5f800000');
  });

  it('reads negative int64s around -2^53 exactly', () => {
    assert.equal(decodeCbor(Buffer.from('3b001ffffffffffffe', 'hex')), -9007199254740991);
    assert.equal(decodeCbor(Buffer.from('3b001fffffffffffff', 'hex')), -9007199254740992n);
    assert.equal(decodeCbor(Buffer.from('3b0020000000000000', 'hex')), -9007199254740993n);
  });
});

describe('big integers: Protobuf', () => {
  it('round-trips an int64 field past 2^53 exactly', () => {
    for (const generation of [9007199254740993n, MAX_INT64, MIN_INT64, -9007199254740993n]) {
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', generation } };
      const decoded = decodeObject(configMapSchema, encodeObject(configMapSchema, cm));
      assert.deepStrictEqual(decoded.metadata, { name: 'x', generation });
    }
  });

  it('refuses a bigint past int64 in an int64 field', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', generation: 2n ** 63n } };
    assert.throws(() => encodeObject(configMapSchema, cm), /int64/);
  });
});
