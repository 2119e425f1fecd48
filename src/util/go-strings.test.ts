import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareGoStrings } from './go-strings.js';

const sign = (n: number): number => Math.sign(n);
/** The reference: Go compares the UTF-8 bytes. */
const utf8Order = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

describe('compareGoStrings', () => {
  const cases: [a: string, b: string, expected: -1 | 0 | 1][] = [
    ['', '', 0],
    ['', 'a', -1],
    ['a', '', 1],
    ['abc', 'abd', -1],
    ['ab', 'abc', -1],
    ['B', 'a', -1],
    ['z', 'é', -1],
    ['é', 'ü', -1],
    ['日本', '日', 1],
    // U+E000..U+FFFF sort before astral characters in UTF-8, after them in UTF-16 code units.
    ['\ue000', '\u{10000}', -1],
    ['\uffff', '\u{1f600}', -1],
    ['\ufb01', '😀', -1],
    ['x\uffffy', 'x😀', -1],
    ['😀', '😁', -1],
    ['\u{1f600}a', '\u{1f600}', 1],
    ['\ud7ff', '\ue000', -1],
    // A lone surrogate is U+FFFD to Go.
    ['\ud800', '\ufffd', 0],
    ['a\udc00b', 'a\ufffdb', 0],
    ['\ud800', '\u{10000}', -1],
    ['\ud83d', '\ufffc', 1],
  ];
  for (const [a, b, expected] of cases) {
    it(`${JSON.stringify(a)} vs ${JSON.stringify(b)} → ${expected}`, () => {
      assert.equal(sign(compareGoStrings(a, b)), expected);
      assert.equal(sign(compareGoStrings(b, a)), -expected || 0);
    });
  }

  it('agrees with UTF-8 byte order where JavaScript string order does not', () => {
    const words = ['a', 'z', 'é', '\ue000', '\uffff', '\u{10000}', '😀', '日本', 'ab', 'a😀', 'a\uffff'];
    const sorted = [...words].sort(compareGoStrings);
    assert.deepEqual(sorted, [...words].sort(utf8Order));
    assert.notDeepEqual(sorted, [...words].sort());
  });

  it('agrees with UTF-8 byte order on random well-formed strings', () => {
    const alphabet = ['a', 'b', 'é', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{10ffff}', '😀'];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const word = (): string => Array.from({ length: next(4) }, () => alphabet[next(alphabet.length)]).join('');
    for (let k = 0; k < 2000; k++) {
      const a = word();
      const b = word();
      assert.equal(sign(compareGoStrings(a, b)), sign(utf8Order(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }
  });
});
