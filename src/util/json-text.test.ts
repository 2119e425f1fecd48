import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonNumberValue, parseJson, stringifyJson } from './json-text.js';

describe('parseJson', () => {
  const cases: Array<{ name: string; text: string; expected: unknown }> = [
    { name: 'small numbers stay numbers', text: '{"a":1,"b":-2.5,"c":1e3}', expected: { a: 1, b: -2.5, c: 1000 } },
    { name: 'the largest safe integer is a number', text: '[9007199254740991]', expected: [9007199254740991] },
    { name: '2^53 is a bigint', text: '[9007199254740992]', expected: [9007199254740992n] },
    { name: '2^53 + 1 keeps its value', text: '{"g":9007199254740993}', expected: { g: 9007199254740993n } },
    { name: 'negative', text: '[-9007199254740993]', expected: [-9007199254740993n] },
    {
      name: 'int64 bounds',
      text: '[9223372036854775807,-9223372036854775808]',
      expected: [2n ** 63n - 1n, -(2n ** 63n)],
    },
    { name: 'beyond int64 stays exact', text: '[12345678901234567890123]', expected: [12345678901234567890123n] },
    { name: 'exponent forms stay floats', text: '[1e20,1.0e20]', expected: [1e20, 1e20] },
    { name: 'fractions stay floats', text: '[12345678901234567.5]', expected: [Number('12345678901234567.5')] },
    {
      name: 'everything else as JSON.parse makes it',
      text: ' { "s" : "9007199254740993", "n":null, "t":true, "f":false, "e":{}, "l":[ ], "x":[{"k":[1,"a\\"b"]}], "big": 18014398509481985 } ',
      expected: {
        s: '9007199254740993',
        n: null,
        t: true,
        f: false,
        e: {},
        l: [],
        x: [{ k: [1, 'a"b'] }],
        big: 18014398509481985n,
      },
    },
    {
      name: 'a duplicate key keeps its last value',
      text: '{"a":1,"b":2,"a":18014398509481985}',
      expected: { a: 18014398509481985n, b: 2 },
    },
    { name: 'a top-level bigint', text: '18014398509481985', expected: 18014398509481985n },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepStrictEqual(parseJson(c.text), c.expected);
    });
  }

  it('makes __proto__ an own property, as JSON.parse does', () => {
    const v = parseJson('{"__proto__":{"x":1},"n":18014398509481985}') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepStrictEqual(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, { x: 1 });
  });

  it('keeps key order, integer-like keys included, as JSON.parse does', () => {
    const text = '{"b":1,"2":2,"a":18014398509481985,"1":3}';
    assert.deepStrictEqual(Object.keys(parseJson(text) as object), Object.keys(JSON.parse(text)));
  });

  it('throws what JSON.parse throws', () => {
    assert.throws(() => parseJson('{"a":'), SyntaxError);
  });

  it('handles deep nesting without recursion', () => {
    const depth = 5000;
    const v = parseJson(`${'['.repeat(depth)}18014398509481985${']'.repeat(depth)}`);
    let x: unknown = v;
    for (let i = 0; i < depth; i++) x = (x as unknown[])[0];
    assert.equal(x, 18014398509481985n);
  });
});

describe('jsonNumberValue', () => {
  for (const [literal, expected] of [
    ['0', 0],
    ['-0', -0],
    ['123', 123],
    ['9007199254740993', 9007199254740993n],
    ['9007199254740993.0', 9007199254740992],
    ['9.007199254740993e15', 2 ** 53],
    ['1E300', 1e300],
  ] as const) {
    it(`${literal}`, () => assert.deepStrictEqual(jsonNumberValue(literal), expected));
  }
});

describe('stringifyJson', () => {
  it('matches JSON.stringify without bigints', () => {
    const v = { a: [1, 'x', null, undefined, { b: true }], c: undefined, d: {}, e: [] };
    assert.equal(stringifyJson(v), JSON.stringify(v));
    assert.equal(stringifyJson(v, 2), JSON.stringify(v, null, 2));
    assert.equal(stringifyJson(undefined), undefined);
  });

  it('writes bigints as integers, compact and indented', () => {
    const v = {
      g: 9007199254740993n,
      l: [-(2n ** 63n), 1, undefined, () => 1],
      u: undefined,
      s: '<&>',
      t: new Date(0),
      e: {},
      n: [],
    };
    assert.equal(
      stringifyJson(v),
      '{"g":9007199254740993,"l":[-9223372036854775808,1,null,null],"s":"<&>","t":"1970-01-01T00:00:00.000Z","e":{},"n":[]}',
    );
    const withoutBig = { ...v, g: 1, l: [-1, 1, undefined, () => 1] };
    const expectedPretty = JSON.stringify(withoutBig, null, 2)
      .replace('"g": 1', '"g": 9007199254740993')
      .replace('-1,', '-9223372036854775808,');
    assert.equal(stringifyJson(v, 2), expectedPretty);
    assert.equal(stringifyJson(12345678901234567890123n), '12345678901234567890123');
  });

  it('round-trips through parseJson', () => {
    const v = { a: { b: [9007199254740993n, 1.5, 'x'] } };
    assert.deepStrictEqual(parseJson(stringifyJson(v) as string), v);
  });

  it('rethrows other errors', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => stringifyJson(cyclic), /circular/);
  });
});
