import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CronTimes, cronTimes } from './cron-times.js';
import { mostRecentScheduleTime, nextScheduleDelayMs } from './schedule-times.js';

function times(schedule: string): CronTimes {
  const t = cronTimes(schedule);
  if ('error' in t) throw new Error(t.error);
  return t;
}
const at = (iso: string) => Date.parse(iso);

describe('CronJob schedule arithmetic', () => {
  const everyMinute = times('* * * * *');
  const cases: {
    name: string;
    input: { creationMs: number; lastScheduleMs?: number; startingDeadlineSeconds?: number };
    now: string;
    want: { mostRecent?: string; missed: string };
  }[] = [
    {
      name: 'nothing due yet',
      input: { creationMs: at('2024-01-01T10:00:30Z') },
      now: '2024-01-01T10:00:50Z',
      want: { missed: 'none' },
    },
    {
      name: 'one firing due',
      input: { creationMs: at('2024-01-01T10:00:30Z') },
      now: '2024-01-01T10:01:10Z',
      want: { mostRecent: '2024-01-01T10:01:00Z', missed: 'few' },
    },
    {
      name: 'several missed: the latest one',
      input: { creationMs: at('2024-01-01T10:00:30Z'), lastScheduleMs: at('2024-01-01T10:01:00Z') },
      now: '2024-01-01T10:05:10Z',
      want: { mostRecent: '2024-01-01T10:05:00Z', missed: 'few' },
    },
    {
      name: 'more than 100 missed',
      input: { creationMs: at('2024-01-01T10:00:30Z') },
      now: '2024-01-01T12:00:10Z',
      want: { mostRecent: '2024-01-01T12:00:00Z', missed: 'many' },
    },
    {
      name: 'the starting deadline bounds how far back firings count',
      input: { creationMs: at('2024-01-01T10:00:30Z'), startingDeadlineSeconds: 200 },
      now: '2024-01-01T12:00:10Z',
      want: { mostRecent: '2024-01-01T12:00:00Z', missed: 'few' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = mostRecentScheduleTime(c.input, at(c.now), everyMinute, true);
      assert.equal(
        r.mostRecentMs === undefined ? undefined : new Date(r.mostRecentMs).toISOString().replace('.000', ''),
        c.want.mostRecent,
      );
      assert.equal(r.missed, c.want.missed);
    });
  }
  it('requeues 100 ms after the next firing', () => {
    const input = { creationMs: at('2024-01-01T10:00:30Z'), lastScheduleMs: at('2024-01-01T10:01:00Z') };
    assert.equal(nextScheduleDelayMs(input, at('2024-01-01T10:01:20Z'), everyMinute), 40_100);
  });
  it('reports schedules that never advance', () => {
    const stuck: CronTimes = { next: (d) => new Date(d.getTime() + 100) };
    const r = mostRecentScheduleTime({ creationMs: 0 }, 10_000, stuck, true);
    assert.equal(r.error, 'time difference between two schedules is less than 1 second');
  });
});
