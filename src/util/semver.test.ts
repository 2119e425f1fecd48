import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareSemVer, formatSemVer, parseSemVer, parseSemVerTolerant } from './semver.js';

describe('semver (blang/semver v4)', () => {
  const strict: [string, string | undefined][] = [
    ['1.32.0', '1.32.0'],
    ['1.32.0-alpha.1+build.5', '1.32.0-alpha.1+build.5'],
    ['0.0.0', '0.0.0'],
    ['1.32', undefined],
    ['v1.32.0', undefined],
    ['01.2.3', undefined],
    ['1.2.3-01', undefined],
    ['1.2.3-', undefined],
    ['1.2.3+', undefined],
    ['1.2.x', undefined],
    ['', undefined],
  ];
  for (const [s, want] of strict) {
    it(`Parse(${JSON.stringify(s)})`, () => {
      const v = parseSemVer(s);
      assert.equal(v ? formatSemVer(v) : undefined, want);
    });
  }

  const tolerant: [string, string | undefined][] = [
    ['v1.32', '1.32.0'],
    [' 1 ', '1.0.0'],
    ['1.02.003', '1.2.3'],
    ['1.3-beta', undefined],
    ['v1.31.2-rc.0', '1.31.2-rc.0'],
  ];
  for (const [s, want] of tolerant) {
    it(`ParseTolerant(${JSON.stringify(s)})`, () => {
      const v = parseSemVerTolerant(s);
      assert.equal(v ? formatSemVer(v) : undefined, want);
    });
  }

  it('orders by numbers, then pre-releases below releases, numeric identifiers below alphanumeric ones', () => {
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0',
      '1.2.0',
      '1.10.0',
    ];
    for (let i = 0; i + 1 < ordered.length; i++) {
      const a = parseSemVer(ordered[i])!;
      const b = parseSemVer(ordered[i + 1])!;
      assert.equal(compareSemVer(a, b), -1, `${ordered[i]} < ${ordered[i + 1]}`);
      assert.equal(compareSemVer(b, a), 1);
    }
    assert.equal(compareSemVer(parseSemVer('1.0.0+a')!, parseSemVer('1.0.0+b')!), 0);
  });
});
