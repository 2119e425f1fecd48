import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { humanDuration, shortHumanDuration, timestampMillis, translateTimestampSince } from './human-duration.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

describe('humanDuration', () => {
  const cases: [number, string][] = [
    [S, '1s'],
    [70 * S, '70s'],
    [190 * S, '3m10s'],
    [70 * M, '70m'],
    [47 * H, '47h'],
    [49 * H, '2d1h'],
    [(8 * 24 + 2) * H, '8d'],
    [367 * D, '367d'],
    [2 * Y + 25 * H, '2y1d'],
    [8 * Y + 2 * H, '8y'],
    [-2 * S, '<invalid>'],
    [-2 * S + 1, '0s'],
    [-1.5 * S, '0s'],
    [0, '0s'],
    [S - 1, '0s'],
    [2 * M - 1, '119s'],
    [2 * M, '2m'],
    [2 * M + S, '2m1s'],
    [10 * M - 1, '9m59s'],
    [10 * M, '10m'],
    [10 * M + S, '10m'],
    [3 * H - 1, '179m'],
    [3 * H, '3h'],
    [3 * H + M, '3h1m'],
    [3 * H + 20 * M, '3h20m'],
    [8 * H - 1, '7h59m'],
    [8 * H, '8h'],
    [8 * H + 59 * M, '8h'],
    [2 * D - 1, '47h'],
    [2 * D, '2d'],
    [2 * D + H, '2d1h'],
    [8 * D - 1, '7d23h'],
    [8 * D, '8d'],
    [8 * D + 23 * H, '8d'],
    [2 * Y - 1, '729d'],
    [2 * Y, '2y'],
    [2 * Y + 23 * H + 59 * M, '2y'],
    [2 * Y + D - 1, '2y'],
    [2 * Y + D, '2y1d'],
    [3 * Y, '3y'],
    [7 * Y, '7y'],
    [8 * Y - 1, '7y364d'],
    [8 * Y, '8y'],
    [8 * Y + 364 * D, '8y'],
    [9 * Y, '9y'],
  ];
  for (const [ms, want] of cases) {
    it(`${ms}ms → ${want}`, () => assert.equal(humanDuration(ms), want));
  }
});

describe('shortHumanDuration', () => {
  const cases: [number, string][] = [
    [-2 * S, '<invalid>'],
    [-2 * S + 1, '0s'],
    [0, '0s'],
    [S - 1, '0s'],
    [S, '1s'],
    [2 * S - 1, '1s'],
    [M - 1, '59s'],
    [M, '1m'],
    [2 * M - 1, '1m'],
    [H - 1, '59m'],
    [H, '1h'],
    [2 * H - 1, '1h'],
    [D - 1, '23h'],
    [D, '1d'],
    [2 * D - 1, '1d'],
    [Y - 1, '364d'],
    [Y, '1y'],
    [2 * Y - 1, '1y'],
    [2 * Y, '2y'],
  ];
  for (const [ms, want] of cases) {
    it(`${ms}ms → ${want}`, () => assert.equal(shortHumanDuration(ms), want));
  }
});

describe('translateTimestampSince', () => {
  const now = new Date('2024-05-01T12:00:00Z');
  const cases: [unknown, string][] = [
    ['2024-05-01T11:55:00Z', '5m'],
    ['2024-05-01T08:40:00Z', '3h20m'],
    ['2024-05-01T11:59:59.500000Z', '0s'],
    ['2024-05-01T11:58:00.000001Z', '119s'],
    ['2024-05-01T13:00:00Z', '<invalid>'],
    ['2024-05-01T12:00:01Z', '0s'],
    ['2024-05-01T13:55:00+02:00', '5m'],
    [undefined, '<unknown>'],
    [null, '<unknown>'],
    ['', '<unknown>'],
    ['not a time', '<unknown>'],
    ['0001-01-01T00:00:00Z', '<unknown>'],
  ];
  for (const [value, want] of cases) {
    it(`${JSON.stringify(value)} → ${want}`, () => assert.equal(translateTimestampSince(value, now), want));
  }

  it('keeps microseconds', () => {
    assert.equal(timestampMillis('1970-01-01T00:00:01.000250Z'), 1000.25);
  });
});
