import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SelectorParseError } from './errors.js';
import {
  escapeFieldValue,
  exactNameFromFieldSelector,
  fieldRequiresExactMatch,
  fieldSelectorFromSet,
  fieldSelectorString,
  matchesFields,
  parseFieldSelector,
  unescapeFieldValue,
} from './field-selector.js';

describe('parseFieldSelector', () => {
  // input → kube's String() (terms sorted by raw text, `==` shown as `=`, values re-escaped).
  const good: [string, string][] = [
    ['', ''],
    [',', ''],
    ['a=b', 'a=b'],
    ['a==b', 'a=b'],
    ['a!=b', 'a!=b'],
    ['b=1,a=2', 'a=2,b=1'],
    ['metadata.name=foo,metadata.namespace!=bar', 'metadata.name=foo,metadata.namespace!=bar'],
    ['a=', 'a='],
    ['=a', '=a'],
    ['a=b,,c=d', 'a=b,c=d'],
    ['k=\\,,k2=v2', 'k2=v2,k=\\,'],
    ['k=\\\\,k2=v2', 'k2=v2,k=\\\\'],
    ['k=\\=', 'k=\\='],
    ['a!=\\=b', 'a!=\\=b'],
    [' a = b ', ' a = b '],
  ];
  for (const [input, expected] of good) {
    it(`parses ${JSON.stringify(input)}`, () => {
      assert.equal(fieldSelectorString(parseFieldSelector(input)), expected);
    });
  }

  it('unescapes values and keeps operators', () => {
    assert.deepEqual(parseFieldSelector('x!=a\\,b,y==c\\\\').requirements, [
      { field: 'x', operator: '!=', value: 'a,b' },
      { field: 'y', operator: '=', value: 'c\\' },
    ]);
  });

  const bad: [string, string][] = [
    ['a', "invalid selector: 'a'; can't understand 'a'"],
    ['x=1,b', "invalid selector: 'x=1,b'; can't understand 'b'"],
    // Terms are sorted before they are read: 'a=\\' comes before 'b'.
    ['b,a=\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=b\\c', 'invalid field selector: invalid escape sequence: \\c'],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a==b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a!==b', 'invalid field selector: unescaped character in value: 61'],
  ];
  for (const [input, message] of bad) {
    it(`rejects ${JSON.stringify(input)}`, () => {
      assert.throws(
        () => parseFieldSelector(input),
        (err: unknown) => err instanceof SelectorParseError && err.selector === 'field' && err.message === message,
      );
    });
  }
});

describe('escapeFieldValue / unescapeFieldValue', () => {
  const pairs: [string, string][] = [
    ['', ''],
    ['a', 'a'],
    ['=', '\\='],
    [',', '\\,'],
    ['\\', '\\\\'],
    ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
  ];
  for (const [raw, escaped] of pairs) {
    it(`round-trips ${JSON.stringify(raw)}`, () => {
      assert.equal(escapeFieldValue(raw), escaped);
      assert.equal(unescapeFieldValue(escaped), raw);
    });
  }
  for (const invalid of ['\\', 'a\\b', ',', '=']) {
    it(`rejects ${JSON.stringify(invalid)}`, () => {
      assert.throws(() => unescapeFieldValue(invalid), SelectorParseError);
    });
  }
});

describe('matchesFields', () => {
  const fields = { 'metadata.name': 'foo', 'metadata.namespace': 'ns', type: '' };
  const cases: [string, boolean][] = [
    ['', true],
    ['metadata.name=foo', true],
    ['metadata.name==foo', true],
    ['metadata.name=bar', false],
    ['metadata.name!=bar', true],
    ['metadata.name!=foo', false],
    ['metadata.name=foo,metadata.namespace=ns', true],
    ['metadata.name=foo,metadata.namespace=other', false],
    ['type=', true],
    ['missing=', true],
    ['missing!=', false],
    ['missing=x', false],
  ];
  for (const [selector, expected] of cases) {
    it(`${JSON.stringify(selector)} → ${expected}`, () => {
      assert.equal(matchesFields(parseFieldSelector(selector), fields), expected);
    });
  }

  it('matches a selector built from a set', () => {
    assert.equal(matchesFields(fieldSelectorFromSet({ 'metadata.name': 'foo' }), fields), true);
    assert.equal(fieldSelectorFromSet({}).empty, true);
  });
});

describe('exactNameFromFieldSelector', () => {
  const cases: [string, string | undefined][] = [
    ['', undefined],
    ['metadata.name=foo', 'foo'],
    ['metadata.name==foo', 'foo'],
    ['metadata.name!=foo', undefined],
    ['metadata.namespace=foo', undefined],
    ['metadata.name=foo,metadata.namespace=bar', 'foo'],
    ['metadata.name!=a,metadata.name=b', 'b'],
    ['metadata.name=a\\,b', 'a,b'],
  ];
  for (const [selector, expected] of cases) {
    it(`${JSON.stringify(selector)} → ${expected}`, () => {
      assert.equal(exactNameFromFieldSelector(parseFieldSelector(selector)), expected);
    });
  }

  it('answers for any field', () => {
    assert.equal(fieldRequiresExactMatch(parseFieldSelector('type=Opaque'), 'type'), 'Opaque');
  });
});
