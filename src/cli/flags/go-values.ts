/**
 * Value syntaxes of kube's command lines (Go's strconv, time and encoding/csv as pflag uses them),
 * with Go's error texts, since those end up verbatim in `invalid argument ...` messages.
 * Each parser returns the value or `{ error }`.
 */

import { formatGoDurationNanos, parseGoDurationNanos } from '../../util/go-duration.js';
import { goParseBool, goQuote } from '../../util/go-strconv.js';

export type Parsed<T> = T | { readonly error: string };

export function isParseError<T>(v: Parsed<T>): v is { readonly error: string } {
  return typeof v === 'object' && v !== null && 'error' in v && !Array.isArray(v);
}

/** `strconv.ParseBool`. */
export function parseGoBool(s: string): Parsed<boolean> {
  return goParseBool(s) ?? { error: `strconv.ParseBool: parsing ${goQuote(s)}: invalid syntax` };
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * `strconv.ParseInt(s, 0, 64)`, the way pflag reads int flags: optional sign, then decimal, `0x`
 * hex, `0o` or leading-`0` octal, or `0b` binary, with `_` allowed between digits.
 */
export function parseGoInt(s: string): Parsed<number> {
  const syntax = { error: `strconv.ParseInt: parsing ${goQuote(s)}: invalid syntax` };
  let body = s;
  let sign = 1n;
  if (body.startsWith('+') || body.startsWith('-')) {
    if (body[0] === '-') sign = -1n;
    body = body.slice(1);
  }
  let radix = 10;
  let digits = body;
  const prefix = body.slice(0, 2).toLowerCase();
  if (prefix === '0x' || prefix === '0o' || prefix === '0b') {
    radix = prefix === '0x' ? 16 : prefix === '0o' ? 8 : 2;
    digits = body.slice(2);
    if (digits.startsWith('_')) digits = digits.slice(1);
  } else if (body.length > 1 && body[0] === '0') {
    radix = 8;
    digits = body.slice(1);
    if (digits.startsWith('_')) digits = digits.slice(1);
  }
  const digitClass = radix === 16 ? '[0-9a-fA-F]' : radix === 8 ? '[0-7]' : radix === 2 ? '[01]' : '[0-9]';
  if (!new RegExp(`^${digitClass}(_?${digitClass})*$`).test(digits)) return syntax;
  let n = 0n;
  for (const ch of digits.replaceAll('_', '')) n = n * BigInt(radix) + BigInt(Number.parseInt(ch, radix));
  n *= sign;
  if (n < INT64_MIN || n > INT64_MAX) return { error: `strconv.ParseInt: parsing ${goQuote(s)}: value out of range` };
  return Number(n);
}

/**
 * `time.ParseDuration`, in milliseconds (fractional below 1ms): a signed sequence of decimal numbers
 * with optional fraction and a unit each (`300ms`, `-1.5h`, `2h45m`); `0` needs no unit.
 */
export function parseGoDuration(s: string): Parsed<number> {
  const nanos = parseGoDurationNanos(s);
  return typeof nanos === 'bigint' ? Number(nanos) / 1e6 : nanos;
}

/** Go's `Duration.String()` for a value in milliseconds: `0s`, `500ms`, `1.5µs`, `5m0s`, `1h30m0s`. */
export function formatGoDuration(ms: number): string {
  return formatGoDurationNanos(BigInt(Math.round(ms * 1e6)));
}

/**
 * One CSV record as Go's `encoding/csv` reads it (pflag's list flags): comma-separated fields,
 * a field starting with `"` is quoted and `""` inside stands for `"`. An empty input is an empty list.
 */
export function parseCsvRecord(s: string): Parsed<string[]> {
  if (s === '') return [];
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (s[i] === '"') {
      i++;
      for (;;) {
        if (i >= s.length)
          return { error: `parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field` };
        if (s[i] === '"') {
          if (s[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += s[i++];
      }
      if (i < s.length && s[i] !== ',') {
        return { error: `parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field` };
      }
    } else {
      const end = s.indexOf(',', i);
      field = end < 0 ? s.slice(i) : s.slice(i, end);
      const quote = field.indexOf('"');
      if (quote >= 0) return { error: `parse error on line 1, column ${i + quote + 1}: bare " in non-quoted-field` };
      i = end < 0 ? s.length : end;
    }
    fields.push(field);
    if (i >= s.length) return fields;
    i++; // the comma
    if (i === s.length) {
      fields.push('');
      return fields;
    }
  }
}
