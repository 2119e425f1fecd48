import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatEpochTime, parseEpochTime } from './timestamps.js';

/** The reference: `Date` for years it handles literally. */
function viaDate(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
}

describe('timestamps', () => {
  it('formats and parses like Date across leap years, centuries and negative epochs', () => {
    const samples = [0, -1, 59, 86399, 86400, 951782400 /* 2000-02-29 */, -2203891200 /* 1900-02-28 */, 253402300799];
    for (let s = -62135596800; s < 253402300799; s += 7919 * 86400 + 3671) samples.push(s);
    for (const seconds of samples) {
      const text = formatEpochTime(seconds);
      assert.equal(text, viaDate(seconds));
      assert.deepEqual(parseEpochTime(text), { seconds, nanos: 0 });
    }
  });

  it('keeps microseconds and reads up to nine fraction digits', () => {
    assert.equal(formatEpochTime(1, 2), '1970-01-01T00:00:01.000002Z');
    assert.deepEqual(parseEpochTime('1970-01-01T00:00:01.000002Z'), { seconds: 1, nanos: 2000 });
    assert.deepEqual(parseEpochTime('1970-01-01T00:00:01.5Z'), { seconds: 1, nanos: 500_000_000 });
    assert.deepEqual(parseEpochTime('1970-01-01T00:00:01.123456789Z'), { seconds: 1, nanos: 123456789 });
  });

  it('accepts offsets through the general parser and rejects what Go rejects', () => {
    assert.deepEqual(parseEpochTime('1970-01-01T02:00:00+02:00'), { seconds: 0, nanos: 0 });
    assert.deepEqual(parseEpochTime('1969-12-31T23:00:00.25-01:00'), { seconds: 0, nanos: 250_000_000 });
    for (const bad of [
      '2023-02-29T00:00:00Z',
      '2024-13-01T00:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01 00:00:00Z',
      '2024-01-01T00:00:00.Z',
      'x',
    ]) {
      assert.equal(parseEpochTime(bad), undefined, bad);
    }
    assert.deepEqual(parseEpochTime('2024-02-29T00:00:00Z'), { seconds: 1709164800, nanos: 0 });
  });
});
