import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonSyntaxError } from './errors.js';
import { encodeJson, encodeJsonList } from './json-encode.js';
import { decodeJsonStrict, locateJsonPaths } from './json-strict.js';
import { findJsonSyntaxError } from './json-syntax.js';

// Expected messages produced by Go's encoding/json on the same inputs.
const SYNTAX: [string, string][] = [
  ['', 'unexpected end of JSON input'],
  ['   ', 'unexpected end of JSON input'],
  ['{', 'unexpected end of JSON input'],
  ['{"a"', 'unexpected end of JSON input'],
  ['{"a":', 'unexpected end of JSON input'],
  ['{"a":1', 'unexpected end of JSON input'],
  ['{"a" 1}', "invalid character '1' after object key"],
  ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
  ['{,}', "invalid character ',' looking for beginning of object key string"],
  ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
  ['[1,]', "invalid character ']' looking for beginning of value"],
  ['[1 2]', "invalid character '2' after array element"],
  ['-', "invalid character ' ' in numeric literal"],
  ['-x', "invalid character 'x' in numeric literal"],
  ['01', "invalid character '1' after top-level value"],
  ['1.', "invalid character ' ' after decimal point in numeric literal"],
  ['1.e5', "invalid character 'e' after decimal point in numeric literal"],
  ['1e', "invalid character ' ' in exponent of numeric literal"],
  ['1e+', "invalid character ' ' in exponent of numeric literal"],
  ['tru', "invalid character ' ' in literal true (expecting 'e')"],
  ['nul', "invalid character ' ' in literal null (expecting 'l')"],
  ['fals', "invalid character ' ' in literal false (expecting 'e')"],
  ['trux', "invalid character 'x' in literal true (expecting 'e')"],
  ['"abc', 'unexpected end of JSON input'],
  ['"a\\x"', "invalid character 'x' in string escape code"],
  ['"a\\u12"', `invalid character '"' in \\u hexadecimal character escape`],
  ['"a\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
  ['"a\u0001"', "invalid character '\\x01' in string literal"],
  ['x', "invalid character 'x' looking for beginning of value"],
  ['{}x', "invalid character 'x' after top-level value"],
  ['[] ]', "invalid character ']' after top-level value"],
  ['é', "invalid character 'Ã' looking for beginning of value"],
  ['\ufeff{}', "invalid character 'ï' looking for beginning of value"],
  ['1e400', 'json: cannot unmarshal number 1e400 into Go value of type float64'],
  ['[1, -1e999]', 'json: cannot unmarshal number -1e999 into Go value of type float64'],
];

describe('decodeJsonStrict errors', () => {
  for (const [text, message] of SYNTAX) {
    it(`${JSON.stringify(text)} → ${message}`, () => {
      assert.throws(
        () => decodeJsonStrict(text),
        (e) => e instanceof JsonSyntaxError && e.message === message,
      );
    });
  }
  it('accepts a huge number inside a string, and valid JSON in general', () => {
    assert.deepEqual(decodeJsonStrict('{"a":"1e400"}\n').value, { a: '1e400' });
    assert.equal(findJsonSyntaxError('{"a":[1,2.5e-3,{"b":null}],"c":"\\u00e9\\n"}'), undefined);
  });
  it('reports where the scanner stopped', () => {
    assert.throws(
      () => decodeJsonStrict('{"a" 1}'),
      (e) => e instanceof JsonSyntaxError && e.offset === 5,
    );
  });
  it('refuses nesting deeper than Go (10000)', () => {
    assert.throws(
      () => decodeJsonStrict(`${'['.repeat(10_001)}${']'.repeat(10_001)}`),
      (e) => e instanceof JsonSyntaxError && e.message === "invalid character '[' exceeded max depth",
    );
    assert.doesNotThrow(() => decodeJsonStrict(`${'['.repeat(10_000)}${']'.repeat(10_000)}`));
  });
});

describe('decodeJsonStrict duplicates', () => {
  // Paths as sigs.k8s.io/json prints them (checked against it).
  const cases: [string, string[]][] = [
    ['{"a":1,"b":2}', []],
    ['{"a":1,"a":2}', ['a']],
    ['{"a":1,"a":2,"a":3}', ['a']],
    ['{"metadata":{"name":"x","labels":{"a":"1","a":"2"},"name":"y"}}', ['metadata.labels.a', 'metadata.name']],
    ['{"spec":{"items":[{"name":"a"},{"name":"b","name":"c"}]}}', ['spec.items[1].name']],
    ['[{"a":1,"a":1}]', ['[0].a']],
    ['{"x":[[{"k":1,"k":2}]]}', ['x[0][0].k']],
    ['{"":{"a":1,"a":1}}', ['.a']],
    ['{"a\\u0062":1,"ab":2}', ['ab']],
    ['{"a":{"b":1},"a":{"b":1,"b":2}}', ['a', 'a.b']],
    ['{"s":"}{\\"a\\":1,\\"a\\":2","s2":"\\\\"}', []],
    // Keys counted across objects, whitespace before the colon, strings holding `":`.
    ['{ "a" :1, "b":{"a":1}, "c":[{"a":"\\":"},{"a":2}] }', []],
    ['{ "a" :1, "b":{"a":1}, "c":[{"a":"\\":"},{"a":2 , "a" : 3}] }', ['c[1].a']],
    ['{"__proto__":1,"__proto__":2}', ['__proto__']],
  ];
  for (const [text, paths] of cases) {
    it(`${text}`, () => {
      const r = decodeJsonStrict(text);
      assert.deepEqual(
        r.duplicates.map((d) => d.path),
        paths,
      );
      assert.deepEqual(r.value, JSON.parse(text));
    });
  }
  it('gives the offset of the repeated key', () => {
    assert.deepEqual(decodeJsonStrict('{"a":1, "a":2}').duplicates, [{ path: 'a', offset: 8 }]);
  });
  it('caps the list at 100', () => {
    const text = `[${Array.from({ length: 150 }, () => '{"a":1,"a":2}').join(',')}]`;
    const r = decodeJsonStrict(text);
    assert.equal(r.duplicates.length, 100);
    assert.equal(r.duplicates[99].path, '[99].a');
  });
  it('skips the scan for fieldValidation=Ignore', () => {
    assert.deepEqual(decodeJsonStrict('{"a":1,"a":2}', { detectDuplicates: false }), {
      value: { a: 2 },
      duplicates: [],
    });
  });
});

describe('locateJsonPaths', () => {
  it('finds first occurrences of nested paths', () => {
    const text = '{"spec":{"x":1,"items":[{"y":2},{"y":3}]},"x":4}';
    const found = locateJsonPaths(text, ['spec.items[1].y', 'x', 'missing']);
    assert.equal(found.get('spec.items[1].y'), text.indexOf('"y":3'));
    assert.equal(found.get('x'), text.lastIndexOf('"x"'));
    assert.equal(found.has('missing'), false);
  });
});

describe('encodeJson', () => {
  it('escapes like Go and ends compact output with a newline', () => {
    assert.equal(
      encodeJson({ a: '<b>&\u2028\u2029', n: [1.5, 1e21, 1e-7], u: undefined }),
      '{"a":"\\u003cb\\u003e\\u0026\\u2028\\u2029","n":[1.5,1e+21,1e-7]}\n',
    );
  });
  it('indents pretty output by two spaces without a newline', () => {
    assert.equal(
      encodeJson({ a: [1, {}], b: [] }, { pretty: true }),
      '{\n  "a": [\n    1,\n    {}\n  ],\n  "b": []\n}',
    );
  });
  it('replaces lone surrogates as Go replaces invalid UTF-8', () => {
    assert.equal(
      encodeJson({ s: 'x\ud800y', t: '\\ud800', ok: '😀' }),
      '{"s":"x\\ufffdy","t":"\\\\ud800","ok":"😀"}\n',
    );
  });
});

describe('encodeJsonList', () => {
  const head = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' } };
  const items = [
    { metadata: { name: 'a' }, data: { html: '<b>&</b>', sep: '\u2028\u2029', accent: 'é', astral: '😀' } },
    { metadata: { name: 'b' }, data: { lone: '\ud800', skipped: undefined } },
    { metadata: { name: 'c' } },
  ];

  it('writes the same bytes as encoding the whole list at once', () => {
    for (const list of [items, items.slice(0, 1), []]) {
      const whole = Buffer.from(encodeJson({ ...head, items: list }));
      assert.deepEqual(encodeJsonList(head, list), whole);
    }
    assert.deepEqual(encodeJsonList({}, items), Buffer.from(encodeJson({ items })));
  });

  it('takes item bytes from the caller when given', () => {
    const seen: unknown[] = [];
    const out = encodeJsonList(head, items, (item) => {
      seen.push(item);
      return Buffer.from(JSON.stringify({ n: seen.length }));
    });
    assert.deepEqual(seen, items);
    assert.deepEqual(JSON.parse(out.toString()).items, [{ n: 1 }, { n: 2 }, { n: 3 }]);
  });
});
