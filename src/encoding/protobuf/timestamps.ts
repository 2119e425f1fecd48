import { parseTimestamp } from '../../apis/schema/time-format.js';

/**
 * Timestamp conversions for the Time and MicroTime messages without `Date` or regular
 * expressions on the common path: objects carry canonical UTC strings
 * (`2006-01-02T15:04:05Z`, `2006-01-02T15:04:05.000000Z`), which are parsed and printed by hand
 * with civil-date arithmetic. Any other RFC 3339 form goes through the shared parser.
 */

/** Seconds since the epoch and the fraction in nanoseconds. */
export interface EpochTime {
  seconds: number;
  nanos: number;
}

const ZERO = 48;

/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The number written by `count` ASCII digits at `at`, or -1 if one is not a digit. */
function digits(s: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = s.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Parses the canonical UTC forms; `undefined` for anything else (including invalid dates). */
function parseCanonical(s: string): EpochTime | undefined {
  const n = s.length;
  if (n < 20 || s.charCodeAt(n - 1) !== 90 /* Z */) return undefined;
  if (s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':') return undefined;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23) return undefined;
  if (minute < 0 || minute > 59 || second < 0 || second > 59 || day > daysInMonth(year, month)) return undefined;
  let nanos = 0;
  if (n > 20) {
    const fraction = n - 21;
    if (s[19] !== '.' || fraction < 1 || fraction > 9) return undefined;
    const f = digits(s, 20, fraction);
    if (f < 0) return undefined;
    nanos = f * 10 ** (9 - fraction);
  }
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  return { seconds, nanos };
}

/** Parses any RFC 3339 timestamp Go's `time.Parse(time.RFC3339, …)` accepts; `undefined` otherwise. */
export function parseEpochTime(value: string): EpochTime | undefined {
  const fast = parseCanonical(value);
  if (fast) return fast;
  const p = parseTimestamp(value);
  if (!p) return undefined;
  return { seconds: p.epochSeconds, nanos: p.fraction ? Number((p.fraction + '00000000').slice(0, 9)) : 0 };
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * `2006-01-02T15:04:05Z`, with `.dddddd` (microseconds) before the `Z` when `micros` is given.
 * `seconds` must lie within years 1 to 9999.
 */
export function formatEpochTime(seconds: number, micros?: number): string {
  const days = Math.floor(seconds / 86400);
  let rest = seconds - days * 86400;
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  const second = rest - minute * 60;
  // Civil date from days since the epoch (proleptic Gregorian).
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const date = `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}`;
  return micros === undefined ? `${date}Z` : `${date}.${String(micros).padStart(6, '0')}Z`;
}
