import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonSyntaxError } from './errors.js';
import { decodeJsonStrict } from './json-strict.js';

// The cheap checks that decide whether the slower walk of the text must run: the key count
// (duplicates) and the value's large numbers (long integers, numbers beyond float64 range).

describe('decodeJsonStrict: what decides the walk of the text', () => {
  for (const detectDuplicates of [true, false]) {
    const decode = (text: string) => decodeJsonStrict(text, { detectDuplicates });

    it(`finds a long integer or an infinite number at any depth (detectDuplicates: ${detectDuplicates})`, () => {
      assert.deepStrictEqual(decode('[{"a":[{"b":9007199254740993}]}]').value, [{ a: [{ b: 9007199254740993n }] }]);
      assert.deepStrictEqual(decode('9007199254740993').value, 9007199254740993n);
      assert.throws(
        () => decode('{"a":{"b":[1,{"c":1e400}]}}'),
        (e) => e instanceof JsonSyntaxError && e.message.includes('cannot unmarshal number 1e400'),
      );
    });

    it(`keeps large numbers that are no long integers as JSON.parse reads them (detectDuplicates: ${detectDuplicates})`, () => {
      const text = '{"a":1e15,"b":-1.5e20,"c":1234567890123456,"d":1e-400,"e":100000000000000000000.5}';
      assert.deepStrictEqual(decode(text).value, JSON.parse(text));
    });
  }

  it('counts keys around colons and escaped quotes inside strings', () => {
    assert.deepEqual(decodeJsonStrict('{"a":"x: \\"y\\": z","b":{"c\\\\":":"}}').duplicates, []);
    assert.deepEqual(
      decodeJsonStrict('{"a" : "\\":", "a":1}').duplicates.map((d) => d.path),
      ['a'],
    );
    assert.deepEqual(
      decodeJsonStrict('{"k":{"a":1,\n "a" :2}}').duplicates.map((d) => d.path),
      ['k.a'],
    );
  });
});
