/**
 * The two timestamp encodings of the API: `Time` (RFC 3339 in UTC, whole seconds) and
 * `MicroTime` (RFC 3339 in UTC with exactly six fractional digits,
 * `2006-01-02T15:04:05.000000Z07:00`). Input is accepted in any RFC 3339 form, as Go's
 * `time.Parse(time.RFC3339, …)` accepts it; output is always the canonical UTC form.
 */

/** A parsed RFC 3339 timestamp: whole seconds since the epoch (UTC) plus the fractional digits. */
export interface ParsedTimestamp {
  readonly epochSeconds: number;
  /** Fractional-second digits as written (0 to 9 of them), e.g. `"5"` for `.5`. */
  readonly fraction: string;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** Parses an RFC 3339 timestamp with Go's range rules; `undefined` when it is not one. */
export function parseTimestamp(value: string): ParsedTimestamp | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetSeconds = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetSeconds = (m[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const d = new Date(Date.UTC(2000, 0, 1, hour, minute, second));
  // setUTCFullYear keeps years below 100 literal (Date.UTC would map them to 19xx).
  d.setUTCFullYear(year, month - 1, day);
  return { epochSeconds: d.getTime() / 1000 - offsetSeconds, fraction: m[7] ?? '' };
}

/**
 * Whether `value` is an RFC 3339 timestamp by Go's range rules: exactly when
 * {@link parseTimestamp} parses it, without making the parsed value (validation asks only this).
 */
export function isTimestamp(value: string): boolean {
  const m = RFC3339.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return false;
  return m[8] === 'Z' || (Number(m[10]) <= 23 && Number(m[11]) <= 59);
}

function isoSeconds(p: ParsedTimestamp): string {
  return new Date(p.epochSeconds * 1000).toISOString().slice(0, 19);
}

/** `Time` form: `2006-01-02T15:04:05Z` (fraction dropped, as Go's `metav1.Time` marshals). */
export function formatTime(p: ParsedTimestamp): string {
  return `${isoSeconds(p)}Z`;
}

/** `MicroTime` form: `2006-01-02T15:04:05.000000Z` (fraction truncated or padded to 6 digits). */
export function formatMicroTime(p: ParsedTimestamp): string {
  return `${isoSeconds(p)}.${(p.fraction + '000000').slice(0, 6)}Z`;
}

/** Canonical form of `value` at the given precision, or `undefined` when it does not parse. */
export function canonicalTimestamp(value: string, precision: 'second' | 'microsecond'): string | undefined {
  const p = parseTimestamp(value);
  if (!p) return undefined;
  return precision === 'second' ? formatTime(p) : formatMicroTime(p);
}

/** The current time as a `MicroTime` string. */
export function microTimeFromDate(date: Date): string {
  const ms = date.getTime();
  return formatMicroTime({ epochSeconds: Math.floor(ms / 1000), fraction: String(ms % 1000).padStart(3, '0') });
}

/** The current time as a `Time` string. */
export function timeFromDate(date: Date): string {
  return formatTime({ epochSeconds: Math.floor(date.getTime() / 1000), fraction: '' });
}

/**
 * How Go prints a `time.Time` value (`2006-01-02 15:04:05.999999999 -0700 MST`), which is how
 * kube-apiserver shows timestamps inside `Invalid value: …` messages. Unset (or unparsable)
 * values print as Go's zero time.
 */
export function goTimeString(value: string | undefined | null): string {
  const p = typeof value === 'string' ? parseTimestamp(value) : undefined;
  if (!p) return '0001-01-01 00:00:00 +0000 UTC';
  const iso = isoSeconds(p);
  const frac = p.fraction.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11)}${frac ? `.${frac}` : ''} +0000 UTC`;
}
