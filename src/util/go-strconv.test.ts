import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goFormatFloat32G, goFormatFloatG, goParseBool, goQuote, goQuoteJsonByte } from './go-strconv.js';

describe('Go formatting', () => {
  it('quotes like strconv.Quote', () => {
    assert.equal(goQuote('a"b\\c\n\t\u0001\u007fé😀\u00a0'), '"a\\"b\\\\c\\n\\t\\x01\\x7fé😀\\u00a0"');
  });
  it("quotes the JSON scanner's offending byte", () => {
    assert.equal(goQuoteJsonByte("'"), "'\\''");
    assert.equal(goQuoteJsonByte('"'), `'"'`);
    assert.equal(goQuoteJsonByte('\n'), "'\\n'");
    assert.equal(goQuoteJsonByte('é'), "'Ã'");
  });
  it('parses bools like strconv.ParseBool', () => {
    assert.deepEqual(['1', 't', 'TRUE', 'True', '0', 'F', 'false', 'yes', ''].map(goParseBool), [
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      undefined,
      undefined,
    ]);
  });
  it("formats floats like %g's shortest form", () => {
    const cases: [number, string][] = [
      [0, '0'],
      [1.5, '1.5'],
      [100000, '100000'],
      [1234567, '1.234567e+06'],
      [123456789.5, '1.234567895e+08'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1e21, '1e+21'],
      [-2.5e-7, '-2.5e-07'],
      [Number.POSITIVE_INFINITY, '+Inf'],
      [Number.NaN, 'NaN'],
    ];
    for (const [f, text] of cases) assert.equal(goFormatFloatG(f), text, String(f));
    assert.equal(goFormatFloat32G(1.1), '1.1');
    assert.equal(goFormatFloat32G(1e10), '1e+10');
  });
});
