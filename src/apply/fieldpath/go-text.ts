import { goQuote } from '../../util/go-strconv.js';
import { compareGoStrings } from '../../util/go-strings.js';

/**
 * The Go text forms that leak into field paths: JSON as structured-merge-diff's jsoniter stream
 * (standard-library-compatible config) and Go's `encoding/json` write it, `%v` of a decoded value
 * (how a path element prints in conflict messages).
 */

const HEX = '0123456789abcdef';

function needsEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) return true;
    if (c >= 0x2028 && (c <= 0x2029 || (c >= 0xd800 && c <= 0xdfff))) return true;
  }
  return false;
}

/**
 * A JSON string literal with Go's escaping: `"` `\` `\n` `\r` `\t` short forms, other control
 * characters as `\u00XX`, `<` `>` `&` U+2028 U+2029 as `\uXXXX` (HTML-safe), lone surrogates (invalid
 * UTF-8 in Go) as `\ufffd`. `shortBF` also writes `\b` and `\f` as `encoding/json` (Go ≥ 1.22)
 * does; jsoniter writes `\u0008` and `\u000c`.
 */
export function goJsonString(s: string, shortBF = false): string {
  if (!needsEscape(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c === 0x22) rep = '\\"';
    else if (c === 0x5c) rep = '\\\\';
    else if (c === 0x0a) rep = '\\n';
    else if (c === 0x0d) rep = '\\r';
    else if (c === 0x09) rep = '\\t';
    else if (shortBF && c === 0x08) rep = '\\b';
    else if (shortBF && c === 0x0c) rep = '\\f';
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26) rep = `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
    else if (c === 0x2028 || c === 0x2029) rep = `\\u202${HEX[c & 15]}`;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      rep = '\\ufffd';
    } else if (c >= 0xdc00 && c <= 0xdfff) rep = '\\ufffd';
    if (rep === undefined) continue;
    out += s.slice(start, i) + rep;
    start = i + 1;
  }
  return `${out}${s.slice(start)}"`;
}

/** A JSON number as Go writes a decoded int64 or float64 (`-0` decodes to the integer 0). */
export function goJsonNumber(n: number): string {
  if (Object.is(n, -0)) return '0';
  return String(n);
}

/**
 * JSON text of a decoded value, with object keys in Go's byte order (jsoniter's and
 * `encoding/json`'s map encoding), no whitespace.
 */
export function goJsonValue(v: unknown, shortBF = false): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return goJsonString(v, shortBF);
    case 'number':
      return goJsonNumber(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) return `[${v.map((x) => goJsonValue(x, shortBF)).join(',')}]`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort(compareGoStrings);
  return `{${keys.map((k) => `${goJsonString(k, shortBF)}:${goJsonValue(obj[k], shortBF)}`).join(',')}}`;
}

/**
 * Go's `%v` of a float64 (`%g`, shortest digits): plain decimal unless the exponent is < -4 or
 * ≥ 21 for integers we print as int64, ≥ 6 otherwise, then `1.5e+06` with a two-digit exponent.
 */
function goFloatV(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return goJsonNumber(n);
  const [mantissa, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp >= -4 && exp < 6) return String(n);
  const abs = Math.abs(exp);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`;
}

/**
 * structured-merge-diff's `value.ToString`: strings Go-quoted (`%q`), numbers and booleans as
 * `%v`, lists `[a,b]`, maps `k=v` pairs (keys in byte order), null `null`.
 */
export function goValueString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return goQuote(v);
    case 'number':
      return goFloatV(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) return `[${v.map(goValueString).join(',')}]`;
  const obj = v as Record<string, unknown>;
  return Object.keys(obj)
    .sort(compareGoStrings)
    .map((k) => `${k}=${goValueString(obj[k])}`)
    .join('');
}
