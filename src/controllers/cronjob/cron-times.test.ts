import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CronTimes, cronTimes } from './cron-times.js';
import { rfc3339In } from './cronjob-sync.js';

function times(schedule: string, zone?: string): CronTimes {
  const t = cronTimes(schedule, zone);
  if ('error' in t) throw new Error(t.error);
  return t;
}

describe('cron schedule times', () => {
  const cases: [string, string | undefined, string, string][] = [
    ['*/1 * * * *', undefined, '2024-03-01T10:00:00Z', '2024-03-01T10:01:00Z'],
    ['*/1 * * * *', undefined, '2024-03-01T10:00:59.500Z', '2024-03-01T10:01:00Z'],
    ['*/15 * * * *', undefined, '2024-03-01T10:07:00Z', '2024-03-01T10:15:00Z'],
    ['0 9 * * mon-fri', undefined, '2024-03-01T10:00:00Z', '2024-03-04T09:00:00Z'],
    ['30 2 1 * *', undefined, '2024-01-31T00:00:00Z', '2024-02-01T02:30:00Z'],
    // Day of month OR day of week when neither starts with *.
    ['0 0 13 * 5', undefined, '2024-09-01T00:00:00Z', '2024-09-06T00:00:00Z'],
    // AND when one starts with * (no step).
    ['0 0 * * 5', undefined, '2024-09-01T00:00:00Z', '2024-09-06T00:00:00Z'],
    ['@hourly', undefined, '2024-03-01T10:30:00Z', '2024-03-01T11:00:00Z'],
    ['@yearly', undefined, '2024-03-01T10:30:00Z', '2025-01-01T00:00:00Z'],
    ['@every 90s', undefined, '2024-03-01T10:00:00.700Z', '2024-03-01T10:01:30Z'],
    ['0 9 * * *', 'Europe/Berlin', '2024-03-01T10:00:00Z', '2024-03-02T08:00:00Z'],
    ['0 9 * * *', 'Europe/Berlin', '2024-07-01T10:00:00Z', '2024-07-02T07:00:00Z'],
    ['TZ=America/New_York 0 9 * * *', undefined, '2024-01-10T00:00:00Z', '2024-01-10T14:00:00Z'],
    // 02:30 does not exist in Berlin on 2024-03-31: it fires at 03:30 CEST.
    ['30 2 * * *', 'Europe/Berlin', '2024-03-30T12:00:00Z', '2024-03-31T01:30:00Z'],
    // 02:30 happens twice on 2024-10-27: once, the first time.
    ['30 2 * * *', 'Europe/Berlin', '2024-10-26T12:00:00Z', '2024-10-27T00:30:00Z'],
    ['30 2 * * *', 'Europe/Berlin', '2024-10-27T00:30:00Z', '2024-10-28T01:30:00Z'],
    ['0 0 30 2 *', undefined, '2024-01-01T00:00:00Z', ''],
  ];
  for (const [schedule, zone, after, want] of cases) {
    it(`${schedule}${zone ? ` in ${zone}` : ''} after ${after}`, () => {
      const next = times(schedule, zone).next(new Date(after));
      assert.equal(next?.toISOString().replace('.000Z', 'Z') ?? '', want);
    });
  }
  it('reports parse errors', () => {
    assert.deepEqual(cronTimes('* * *'), { error: 'expected exactly 5 fields, found 3: [* * *]' });
  });
});

describe('scheduled timestamp annotation', () => {
  it('is RFC 3339 in the CronJob time zone, Z in UTC', () => {
    const t = Date.parse('2024-07-01T10:01:00Z');
    assert.equal(rfc3339In(t, undefined), '2024-07-01T10:01:00Z');
    assert.equal(rfc3339In(t, 'UTC'), '2024-07-01T10:01:00Z');
    assert.equal(rfc3339In(t, 'Europe/Berlin'), '2024-07-01T12:01:00+02:00');
    assert.equal(rfc3339In(t, 'America/New_York'), '2024-07-01T06:01:00-04:00');
    assert.equal(rfc3339In(t, 'Asia/Kolkata'), '2024-07-01T15:31:00+05:30');
  });
});
