/**
 * When a CronJob schedule fires: robfig/cron v3's `Schedule.Next` of a `cron.ParseStandard`
 * spec (what kube-controller-manager v1.32 uses), for specs that pass
 * {@link cronScheduleError}. Five fields matched as robfig matches them (day of month and day
 * of week are ANDed when either starts with `*` or `?` without a step, else ORed); descriptors;
 * `@every <duration>`; an optional `TZ=` / `CRON_TZ=` prefix or a `timeZone` evaluates the
 * fields in that zone's wall clock (through Intl; a wall time skipped by a DST change fires
 * as the wall clock after the gap reads it (02:30 becomes 03:30), a repeated one fires once, at its first occurrence).
 */
import { cronScheduleError } from '../../apis/batch/cron-schedule.js';
import { parseGoDurationNanos } from '../../util/go-duration.js';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const BOUNDS: readonly { min: number; max: number; names?: readonly string[]; base?: number }[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, base: 1 },
  { min: 0, max: 6, names: DAYS, base: 0 },
];
const DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A parsed schedule: `next(t)` is the first firing strictly after `t` (undefined: none within five years). */
export interface CronTimes {
  next(after: Date): Date | undefined;
}

interface Field {
  readonly values: ReadonlySet<number>;
  /** Started with `*` or `?` without a step (robfig's star bit). */
  readonly star: boolean;
}

function parseField(text: string, i: number): Field {
  const b = BOUNDS[i];
  const values = new Set<number>();
  let star = false;
  const value = (s: string) => {
    const named = b.names?.indexOf(s.toLowerCase()) ?? -1;
    return named >= 0 ? named + (b.base ?? 0) : Number(s);
  };
  for (const expr of text.split(',').filter((e) => e !== '')) {
    const [range, stepText] = expr.split('/');
    const bounds = range.split('-');
    let start: number;
    let end: number;
    let isStar = false;
    if (bounds[0] === '*' || bounds[0] === '?') {
      start = b.min;
      end = b.max;
      isStar = true;
    } else {
      start = value(bounds[0]);
      end = bounds.length === 2 ? value(bounds[1]) : start;
    }
    const step = stepText === undefined ? 1 : Number(stepText);
    if (stepText !== undefined && bounds.length === 1 && !isStar) end = b.max;
    if (isStar && step === 1) star = true;
    for (let v = start; v <= end; v += step) values.add(v);
  }
  return { values, star };
}

/** Wall-clock offset of a zone (ms to add to an instant), through Intl. */
function zoneOffset(zone: string): (instantMs: number) => number {
  if (zone === '' || zone === 'UTC') return () => 0;
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (instantMs) => {
    const parts: Record<string, number> = {};
    for (const p of fmt.formatToParts(new Date(instantMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
    const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
    return wall - (instantMs - (((instantMs % 1000) + 1000) % 1000));
  };
}

class FieldSchedule implements CronTimes {
  private readonly offset: (instantMs: number) => number;
  constructor(
    private readonly f: readonly Field[],
    zone: string,
  ) {
    this.offset = zoneOffset(zone);
  }

  private dayMatches(wall: Date): boolean {
    const dom = this.f[2].values.has(wall.getUTCDate());
    const dow = this.f[4].values.has(wall.getUTCDay());
    return this.f[2].star || this.f[4].star ? dom && dow : dom || dow;
  }

  next(after: Date): Date | undefined {
    const t = after.getTime();
    const wallAfter = t + this.offset(t);
    // The first minute boundary strictly after `after`, in wall time.
    let w = Math.floor(wallAfter / MINUTE) * MINUTE + MINUTE;
    const limit = new Date(w).getUTCFullYear() + 5;
    for (;;) {
      const d = new Date(w);
      if (d.getUTCFullYear() > limit) return undefined;
      if (!this.f[3].values.has(d.getUTCMonth() + 1)) {
        w = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
        continue;
      }
      if (!this.dayMatches(d)) {
        w = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + DAY;
        continue;
      }
      if (!this.f[1].values.has(d.getUTCHours())) {
        w = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
        continue;
      }
      if (!this.f[0].values.has(d.getUTCMinutes())) {
        w += MINUTE;
        continue;
      }
      const instant = this.toInstant(w);
      if (instant > t) return new Date(instant);
      w += MINUTE;
    }
  }

  /** The instant a wall time names; skipped wall times map past the gap. */
  private toInstant(wall: number): number {
    // The zone's offsets a day either side cover a transition on this day.
    const candidates = [wall - this.offset(wall - DAY), wall - this.offset(wall + DAY)];
    const valid = candidates.filter((c) => c + this.offset(c) === wall);
    const [a, b] = candidates;
    // Repeated wall time: its first occurrence; skipped one (a DST gap): the later reading.
    return valid.length > 0 ? Math.min(...valid) : Math.max(a, b);
  }
}

class EverySchedule implements CronTimes {
  constructor(private readonly ms: number) {}
  next(after: Date): Date {
    // robfig: the delay rounded to whole seconds (at least one), from `after` truncated to the second.
    const t = Math.floor(after.getTime() / 1000) * 1000;
    return new Date(t + this.ms);
  }
}

/**
 * The times of `schedule` in `timeZone` (undefined: UTC, or the schedule's own `TZ=` prefix),
 * or `{ error }` with robfig's parse error.
 */
export function cronTimes(schedule: string, timeZone?: string): CronTimes | { error: string } {
  const err = cronScheduleError(schedule);
  if (err !== undefined) return { error: err };
  let rest = schedule;
  let zone = timeZone ?? '';
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const space = rest.indexOf(' ');
    zone = rest.slice(rest.indexOf('=') + 1, space);
    rest = rest.slice(space).trim();
  }
  if (rest.startsWith('@every ')) {
    const nanos = parseGoDurationNanos(rest.slice('@every '.length));
    const ms = typeof nanos === 'bigint' ? Number(nanos / 1_000_000n) : 0;
    return new EverySchedule(Math.max(1000, Math.round(ms / 1000) * 1000));
  }
  const fields = (DESCRIPTORS[rest] ?? rest).split(/\s+/).filter((f) => f !== '');
  return new FieldSchedule(
    fields.map((f, i) => parseField(f, i)),
    zone,
  );
}
