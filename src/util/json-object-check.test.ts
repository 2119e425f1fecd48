import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isJsonObjectWithMetadata } from './json-object-check.js';

const check = (text: string) => isJsonObjectWithMetadata(Buffer.from(text, 'utf8'));

/** What the fast check must agree with whenever it says yes. */
function parsesToObjectWithMetadata(text: string): boolean {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const m = (v as { metadata?: unknown }).metadata;
  return typeof m === 'object' && m !== null;
}

describe('isJsonObjectWithMetadata', () => {
  const cases: [string, string, boolean][] = [
    ['a stored object', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}}', true],
    ['whitespace everywhere', ' \t\r\n{ "metadata" : { } , "a" : [ 1 , 2 ] }\n ', true],
    ['metadata as an array', '{"metadata":[]}', true],
    ['every kind of value', '{"metadata":{},"v":[true,false,null,-0,1.5e+3,2E-2,"s",{},[]]}', true],
    ['escapes in strings', '{"metadata":{"a":"q\\"b\\\\s\\/b\\bf\\fn\\nr\\rt\\t\\u00e9\\ud800"}}', true],
    ['non-ASCII text', '{"metadata":{"a":"ünïcødé ✓ 😀"}}', true],
    ['escaped names below the top level', '{"metadata":{"n\\u0061me":"a"}}', true],
    ['the last metadata an object', '{"metadata":1,"metadata":{}}', true],
    ['the last metadata a number', '{"metadata":{},"metadata":1}', false],
    ['metadata null', '{"metadata":null}', false],
    ['metadata a string', '{"metadata":"{}"}', false],
    ['no metadata', '{"kind":"x"}', false],
    ['metadata nested only', '{"spec":{"metadata":{}}}', false],
    ['an escape spelling metadata (left to the full check)', '{"metad\\u0061ta":{}}', false],
    ['an array at the top', '[{"metadata":{}}]', false],
    ['trailing comma in an object', '{"metadata":{},}', false],
    ['trailing comma in an array', '{"metadata":[1,]}', false],
    ['missing comma', '{"metadata":{} "a":1}', false],
    ['missing colon', '{"metadata" {}}', false],
    ['unquoted name', '{metadata:{}}', false],
    ['single quotes', "{'metadata':{}}", false],
    ['leading zero', '{"metadata":{},"a":01}', false],
    ['plus sign', '{"metadata":{},"a":+1}', false],
    ['bare dot', '{"metadata":{},"a":1.}', false],
    ['bare exponent', '{"metadata":{},"a":1e}', false],
    ['NaN', '{"metadata":{},"a":NaN}', false],
    ['truncated literal', '{"metadata":{},"a":tru}', false],
    ['literal with a tail', '{"metadata":{},"a":nulls}', false],
    ['raw control byte in a string', '{"metadata":{"a":"x\ny"}}', false],
    ['bad escape', '{"metadata":{"a":"\\x"}}', false],
    ['short unicode escape', '{"metadata":{"a":"\\u12"}}', false],
    ['unterminated string', '{"metadata":{"a":"x}}', false],
    ['unclosed object', '{"metadata":{}', false],
    ['extra closing', '{"metadata":{}}}', false],
    ['two values', '{"metadata":{}} {}', false],
    ['mismatched brackets', '{"metadata":[}]}', false],
    ['a byte-order mark (left to the caller)', '\ufeff{"metadata":{}}', false],
    ['empty', '', false],
  ];
  for (const [name, text, expected] of cases) {
    it(`${name}: ${expected}`, () => {
      assert.equal(check(text), expected);
      if (expected) assert.equal(parsesToObjectWithMetadata(text), true);
    });
  }

  it('starts after a given offset', () => {
    const bytes = Buffer.from('\ufeff{"metadata":{}}', 'utf8');
    assert.equal(isJsonObjectWithMetadata(bytes, 3), true);
  });

  it('leaves nesting deeper than its limit to the full check', () => {
    const deep = `{"metadata":${'['.repeat(600)}${']'.repeat(600)}}`;
    assert.equal(parsesToObjectWithMetadata(deep), true);
    assert.equal(check(deep), false);
    const fine = `{"metadata":${'['.repeat(100)}${']'.repeat(100)}}`;
    assert.equal(check(fine), true);
  });

  it('never says yes where JSON.parse disagrees (random edits of stored objects)', () => {
    let seed = 20_261_126;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = [
      '{',
      '}',
      '[',
      ']',
      '"',
      '\\',
      ':',
      ',',
      ' ',
      '\n',
      '0',
      '1',
      '-',
      '.',
      'e',
      'u',
      'a',
      't',
      'n',
      'é',
    ];
    const seeds = [
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"x":"y"}},"data":{"k":"v\\n"}}',
      '{"metadata":{"generation":9007199254740993,"f":[1.5,-2e3,true,null]},"spec":{"a":[{"b":"\\u00e9"}]}}',
    ];
    let agreedYes = 0;
    for (let round = 0; round < 20_000; round++) {
      const chars = [...seeds[round % seeds.length]];
      const edits = 1 + Math.floor(random() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * (chars.length + 1));
        const op = random();
        const ch = alphabet[Math.floor(random() * alphabet.length)];
        if (op < 0.4) chars.splice(at, 1);
        else if (op < 0.7) chars.splice(at, 0, ch);
        else chars.splice(at, 1, ch);
      }
      const text = chars.join('');
      if (check(text)) {
        assert.equal(parsesToObjectWithMetadata(text), true, text);
        agreedYes++;
      }
    }
    // The edits leave many texts valid: the check accepts those instead of deferring them all.
    assert.ok(agreedYes > 1000, `accepted ${agreedYes}`);
  });

  it('tells where the last top-level metadata object opens and closes', () => {
    const cases: [string, number, number][] = [
      ['{"metadata":{"name":"a"}}', 12, 23],
      ['{"kind":"X","metadata":{}}', 23, 24],
      ['{"spec":{"metadata":{"x":1}},"metadata":{"n":[{"}":"{"}]}}', 40, 56],
      ['{"metadata":{"a":1},"metadata":{"b":2}}', 31, 37],
      ['{"metadata":{"a":1},"metadata":[]}', -1, -1],
    ];
    for (const [text, open, close] of cases) {
      const found = { open: -2, close: -1 };
      assert.equal(isJsonObjectWithMetadata(Buffer.from(text), 0, found), true, text);
      assert.equal(found.open, open, text);
      if (open >= 0) {
        assert.equal(found.close, close, text);
        assert.equal(
          JSON.stringify(JSON.parse(text).metadata),
          JSON.stringify(JSON.parse(text.slice(open, close + 1))),
        );
      }
    }
  });
});
