import { goQuote } from './go-strconv.js';

/** Nanoseconds per unit accepted by Go's `time.ParseDuration`. */
const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Go's `time.ParseDuration`, in nanoseconds: a signed sequence of decimal numbers with optional
 * fraction and a unit each (`300ms`, `-1.5h`, `2h45m`); `0` needs no unit; the result fits an
 * int64. Failures carry Go's messages.
 */
export function parseGoDurationNanos(s: string): bigint | { error: string } {
  const invalid = { error: `time: invalid duration ${goQuote(s)}` };
  let rest = s;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return invalid;
  let total = 0n;
  while (rest !== '') {
    const [matched, whole, frac] = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    if (whole === '' && (frac === undefined || frac === '')) return invalid;
    rest = rest.slice(matched.length);
    const unitMatch = /^[^0-9.]*/.exec(rest)![0];
    if (unitMatch === '') return { error: `time: missing unit in duration ${goQuote(s)}` };
    const unit = UNIT_NS[unitMatch];
    if (unit === undefined) return { error: `time: unknown unit ${goQuote(unitMatch)} in duration ${goQuote(s)}` };
    rest = rest.slice(unitMatch.length);
    total += BigInt(whole || '0') * unit;
    if (frac) total += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    // int64 holds one more negative nanosecond than positive.
    if (total > INT64_MAX + (negative ? 1n : 0n)) return invalid;
  }
  return negative ? -total : total;
}

function fraction(v: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const whole = v / scale;
  const frac = (v % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/** Go's `Duration.String()` of a duration in nanoseconds: `0s`, `500ms`, `1.5µs`, `5m0s`, `1h30m0s`. */
export function formatGoDurationNanos(nanos: bigint): string {
  let ns = nanos;
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  if (ns < 0n) ns = -ns;
  if (ns < 1_000n) return `${sign}${ns}ns`;
  if (ns < 1_000_000n) return `${sign}${fraction(ns, 3)}µs`;
  if (ns < 1_000_000_000n) return `${sign}${fraction(ns, 6)}ms`;
  let out = `${fraction(ns % 60_000_000_000n, 9)}s`;
  const minutes = ns / 60_000_000_000n;
  if (minutes > 0n) {
    out = `${minutes % 60n}m${out}`;
    const hours = minutes / 60n;
    if (hours > 0n) out = `${hours}h${out}`;
  }
  return sign + out;
}
