/**
 * The schedule check of CronJobs: `cron.ParseStandard` of robfig/cron v3 (what kube-apiserver
 * v1.32 validates `spec.schedule` with), reporting its error texts. Accepted: five fields
 * (minute, hour, day of month, month, day of week) of `*`, `?`, numbers, names (`jan`, `mon`),
 * ranges `a-b`, steps `/n` and lists `a,b`; the descriptors `@yearly`, `@annually`, `@monthly`,
 * `@weekly`, `@daily`, `@midnight`, `@hourly` and `@every <duration>`; an optional
 * `TZ=<zone> ` or `CRON_TZ=<zone> ` prefix. Pure.
 */

import { parseGoDurationNanos } from '../../util/go-duration.js';
import { goQuote } from '../../util/go-strconv.js';
import { timeZoneError } from './time-zone.js';

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** Minute, hour, day of month, month, day of week. */
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

class CronError extends Error {}

const INT_MAX = 2n ** 63n - 1n;

/** Go's `strconv.Atoi` error text, or the value. */
function atoi(s: string): number {
  const m = /^[+-]?(\d+)$/.exec(s);
  if (!m) throw new CronError(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > INT_MAX || n < -INT_MAX - 1n) throw new CronError(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return Number(n);
}

function mustParseInt(expr: string): number {
  let n: number;
  try {
    n = atoi(expr);
  } catch (e) {
    throw new CronError(`failed to parse int from ${expr}: ${(e as Error).message}`);
  }
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names?: Readonly<Record<string, number>>): number {
  const named = names?.[expr.toLowerCase()];
  return named !== undefined ? named : mustParseInt(expr);
}

function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0], r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1], r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]);
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

/** Go's `%s` of a `[]string`: `[a b c]`. */
function goList(values: readonly string[]): string {
  return `[${values.join(' ')}]`;
}

function parse(spec: string): void {
  if (spec.length === 0) throw new CronError('empty spec string');
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const space = rest.indexOf(' ');
    const zone = rest.slice(rest.indexOf('=') + 1, space < 0 ? rest.length : space);
    const err = timeZoneError(zone);
    if (err) throw new CronError(`provided bad location ${zone}: ${err}`);
    rest = space < 0 ? '' : rest.slice(space).trim();
  }
  if (rest.startsWith('@')) {
    if (DESCRIPTORS.has(rest)) return;
    if (rest.startsWith('@every ')) {
      const d = parseGoDurationNanos(rest.slice('@every '.length));
      if (typeof d !== 'bigint') throw new CronError(`failed to parse duration ${rest}: ${d.error}`);
      return;
    }
    throw new CronError(`unrecognized descriptor: ${rest}`);
  }
  const fields = rest.split(/[\t\n\v\f\r \u0085\u00a0]+/).filter((f) => f !== '');
  if (fields.length !== FIELDS.length) {
    throw new CronError(`expected exactly ${FIELDS.length} fields, found ${fields.length}: ${goList(fields)}`);
  }
  fields.forEach((field, i) => {
    for (const expr of field.split(',').filter((e) => e !== '')) checkRange(expr, FIELDS[i]);
  });
}

/** The error text `cron.ParseStandard` gives for `schedule`, or undefined when it parses. */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    parse(schedule);
    return undefined;
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
}
