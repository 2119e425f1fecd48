/**
 * The few Go `strconv`/`fmt` formatting rules that leak into kube-apiserver's messages and
 * output: `strconv.Quote`, `strconv.ParseBool`, and `strconv.FormatFloat(f, 'g', -1, 64)`.
 * Pure functions.
 */

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;
const HEX = '0123456789abcdef';

/** Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function goIsPrint(codePoint: number): boolean {
  if (codePoint < 0x80) return codePoint >= 0x20 && codePoint < 0x7f;
  return PRINTABLE.test(String.fromCodePoint(codePoint));
}

/** One code point escaped as `strconv.Quote` escapes it inside `quote` (`"` or `'`). */
function quoteCodePoint(cp: number, quote: string): string {
  const ch = String.fromCodePoint(cp);
  if (ch === quote || ch === '\\') return `\\${ch}`;
  if (goIsPrint(cp)) return ch;
  switch (cp) {
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x0b:
      return '\\v';
  }
  if (cp < 0x20 || cp === 0x7f) return `\\x${HEX[cp >> 4]}${HEX[cp & 0xf]}`;
  // Lone surrogates cannot be UTF-8 encoded; Go sees U+FFFD (printable) in their place.
  if (cp >= 0xd800 && cp <= 0xdfff) return '\ufffd';
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** Go's `strconv.Quote(s)` (also what `%q` and `%#v` print for a string). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) out += quoteCodePoint(ch.codePointAt(0) as number, '"');
  return `${out}"`;
}

/**
 * How Go's JSON scanner quotes an offending byte in a syntax error: `'x'`, `'\''`, `'"'`,
 * `'\n'`, `'\x01'`. The scanner works on bytes, so a non-ASCII character is reported as its
 * first UTF-8 byte read as a Latin-1 code point (`é` → `'Ã'`).
 */
export function goQuoteJsonByte(ch: string): string {
  const cp = ch.codePointAt(0) as number;
  const byte = cp < 0x80 ? cp : Buffer.from(String.fromCodePoint(cp), 'utf8')[0];
  if (byte === 0x27) return `'\\''`;
  if (byte === 0x22) return `'"'`;
  return `'${quoteCodePoint(byte, '"')}'`;
}

const GO_BOOL: Readonly<Record<string, boolean>> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/** Go's `strconv.ParseBool`; `undefined` where Go returns an error. */
export function goParseBool(s: string): boolean | undefined {
  return GO_BOOL[s];
}

/**
 * Go's `strconv.FormatFloat(f, 'g', -1, 64)`: the shortest digits that round-trip, in `%e` form
 * (`1.5e+06`, `1e-05`, two exponent digits at least) when the exponent is below -4 or at least 6
 * (Go fixes the precision to 6 for the shortest form), else in `%f` form. Infinities and NaN as
 * Go prints them (`+Inf`, `-Inf`, `NaN`).
 */
export function goFormatFloatG(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, expText] = f.toExponential().split('e');
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const fracPart = digits.slice(exp + 1);
  return fracPart ? `${sign}${intPart}.${fracPart}` : `${sign}${intPart}`;
}

/** Go's `strconv.FormatFloat(f, 'g', -1, 32)`: the shortest digits that survive float32. */
export function goFormatFloat32G(f: number): string {
  if (!Number.isFinite(f)) return goFormatFloatG(f);
  const single = Math.fround(f);
  for (let p = 1; p <= 9; p++) {
    const candidate = Number(single.toPrecision(p));
    if (Math.fround(candidate) === single) return goFormatFloatG(candidate);
  }
  return goFormatFloatG(single);
}
