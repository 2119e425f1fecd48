import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalTimestamp,
  goTimeString,
  isTimestamp,
  microTimeFromDate,
  parseTimestamp,
  timeFromDate,
} from './time-format.js';

describe('parseTimestamp', () => {
  const valid = [
    '2024-02-29T23:59:59Z',
    '0001-01-01T00:00:00Z',
    '2006-01-02T15:04:05.000000Z',
    '2006-01-02T15:04:05.999999999+07:00',
    '2006-01-02T15:04:05-23:59',
  ];
  const invalid = [
    '',
    '2023-02-29T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T00:60:00Z',
    '2024-01-01T00:00:60Z',
    '2024-01-01 00:00:00Z',
    '2024-01-01T00:00:00',
    '2024-01-01T00:00:00.Z',
    '2024-01-01T00:00:00+24:00',
    '2024-1-01T00:00:00Z',
    '2024-01-01t00:00:00z',
  ];
  for (const v of valid) it(`accepts ${v}`, () => assert.ok(parseTimestamp(v)));
  for (const v of invalid) it(`rejects ${JSON.stringify(v)}`, () => assert.equal(parseTimestamp(v), undefined));
  it('isTimestamp says what parseTimestamp does', () => {
    const more = ['2024-04-31T00:00:00Z', '2024-13-01T00:00:00Z', '2024-00-10T00:00:00Z', '2024-01-01T00:00:00-00:60'];
    for (const v of [...valid, ...invalid, ...more]) assert.equal(isTimestamp(v), parseTimestamp(v) !== undefined, v);
  });
});

describe('canonical forms', () => {
  const cases: [string, 'second' | 'microsecond', string][] = [
    ['2006-01-02T15:04:05Z', 'microsecond', '2006-01-02T15:04:05.000000Z'],
    ['2006-01-02T15:04:05.1234567Z', 'microsecond', '2006-01-02T15:04:05.123456Z'],
    ['2006-01-02T15:04:05.9Z', 'second', '2006-01-02T15:04:05Z'],
    ['2006-01-02T01:00:00+02:00', 'second', '2006-01-01T23:00:00Z'],
    ['0001-01-01T00:00:00Z', 'second', '0001-01-01T00:00:00Z'],
    ['2024-12-31T23:30:00-01:00', 'microsecond', '2025-01-01T00:30:00.000000Z'],
  ];
  for (const [input, precision, want] of cases) {
    it(`${input} at ${precision}`, () => assert.equal(canonicalTimestamp(input, precision), want));
  }
  it('formats dates', () => {
    const d = new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 42));
    assert.equal(microTimeFromDate(d), '2024-05-06T07:08:09.042000Z');
    assert.equal(timeFromDate(d), '2024-05-06T07:08:09Z');
  });
  it('prints Go time strings', () => {
    assert.equal(goTimeString('2024-05-06T07:08:09Z'), '2024-05-06 07:08:09 +0000 UTC');
    assert.equal(goTimeString('2024-05-06T07:08:09.120000Z'), '2024-05-06 07:08:09.12 +0000 UTC');
    assert.equal(goTimeString(undefined), '0001-01-01 00:00:00 +0000 UTC');
  });
});
