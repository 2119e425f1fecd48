import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cronScheduleError } from './cron-schedule.js';
import { timeZoneError, validateTimeZone } from './time-zone.js';

describe('cron schedules', () => {
  const table: [string, string | undefined][] = [
    ['*/5 * * * *', undefined],
    ['0 0 1 jan,JUL mon-fri', undefined],
    ['15 2-4/1 ? * SUN', undefined],
    ['@hourly', undefined],
    ['@every 1h30m', undefined],
    ['TZ=UTC 0 * * * *', undefined],
    ['', 'empty spec string'],
    ['foo', 'expected exactly 5 fields, found 1: [foo]'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-2 * * * *', 'beginning of range (5) beyond end of range (2): 5-2'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['TZ=Mars/Base 0 * * * *', 'provided bad location Mars/Base: unknown time zone Mars/Base'],
  ];
  for (const [schedule, want] of table) {
    it(`${JSON.stringify(schedule)} ${want ? 'fails' : 'parses'}`, () =>
      assert.equal(cronScheduleError(schedule), want));
  }
});

describe('time zones', () => {
  it('are known to the database, with their exact case', () => {
    assert.equal(timeZoneError('America/New_York'), undefined);
    assert.equal(timeZoneError('Etc/GMT+5'), undefined);
    assert.equal(timeZoneError('america/new_york'), 'unknown time zone america/new_york');
    assert.equal(timeZoneError('Mars/Olympus'), 'unknown time zone Mars/Olympus');
  });

  it('are validated with kube messages', () => {
    const msgs = (tz: unknown) => validateTimeZone(tz, 'spec.timeZone').map((e) => e.message);
    assert.deepEqual(msgs(undefined), []);
    assert.deepEqual(msgs(''), ['Invalid value: "": timeZone must be nil or non-empty string']);
    assert.deepEqual(msgs('Local'), [
      'Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ]);
    assert.deepEqual(msgs('../etc/passwd'), ['Invalid value: "../etc/passwd": unknown time zone ../etc/passwd']);
    assert.deepEqual(msgs('Europe/Nowhere'), ['Invalid value: "Europe/Nowhere": unknown time zone Europe/Nowhere']);
    assert.deepEqual(msgs('Europe/Berlin'), []);
  });
});
