/**
 * cel-go's `<string>.format(<list>)` (ext/formatting.go, v0.22) with kube's locale, en_US:
 * `%s` (any CEL value, lists and maps as CEL literals), `%d`, `%f` and `%e` (rounded half to even
 * on the exact binary value; `%f` groups thousands and `%e` writes `× 10ⁿⁿ`, as
 * golang.org/x/text prints them), `%b`, `%o`, `%x`, `%X`, and `%%`.
 */
import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { goFormatFloatG, goQuote } from '../../util/go-strconv.js';
import { compareGoStrings } from '../../util/go-strings.js';
import { type CelObject, listElements } from './cel-values.js';

/** A format failure; `message` is cel-go's text. */
export class FormatError extends Error {}

/** cel-go's type names, as its messages print them. */
function celTypeName(v: unknown): string {
  if (v === null) return 'null_type';
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
  }
  if (v instanceof UnsignedInt) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Date) return 'google.protobuf.Timestamp';
  if (v instanceof Duration) return 'google.protobuf.Duration';
  if (v instanceof Optional) return 'optional_type';
  if (Array.isArray(v) || v instanceof Set) return 'list';
  if (v instanceof Map || (typeof v === 'object' && (v.constructor === Object || v.constructor === undefined))) {
    return 'map';
  }
  if (isType(v)) return 'type';
  return (v as Partial<CelObject>).celType ?? 'unknown';
}

/** The engine's type values (`type(x)`) print as `Type<name>`. */
function isType(v: unknown): v is { name: string } {
  return (
    typeof v === 'object' &&
    v !== null &&
    String(v).startsWith('Type<') &&
    typeof (v as { name?: unknown }).name === 'string'
  );
}

const isMap = (v: unknown): boolean => celTypeName(v) === 'map';
const isList = (v: unknown): boolean => Array.isArray(v) || v instanceof Set;

function mapEntries(m: unknown): [unknown, unknown][] {
  return m instanceof Map ? [...m.entries()] : Object.entries(m as object);
}

/** The exact decimal value of a finite double: `digits × 10^-scale`, digits ≥ 0. */
function exactDecimal(x: number): { digits: bigint; scale: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  let e = exponent - 1075;
  if (exponent === 0) e = -1074;
  else mantissa |= 1n << 52n;
  if (e >= 0) return { digits: mantissa << BigInt(e), scale: 0 };
  // m / 2^k = m × 5^k / 10^k
  return { digits: mantissa * 5n ** BigInt(-e), scale: -e };
}

/** Drops `drop` trailing digits, rounding half to even. */
function roundDigits(digits: bigint, drop: number): bigint {
  if (drop <= 0) return digits * 10n ** BigInt(-drop);
  const divisor = 10n ** BigInt(drop);
  const q = digits / divisor;
  const r = (digits % divisor) * 2n;
  return r > divisor || (r === divisor && q % 2n === 1n) ? q + 1n : q;
}

/** `|x|` with `precision` decimals, as strconv's 'f' format (no sign). */
function fixedDigits(x: number, precision: number): [intPart: string, fraction: string] {
  const { digits, scale } = exactDecimal(x);
  const s = roundDigits(digits, scale - precision)
    .toString()
    .padStart(precision + 1, '0');
  return [s.slice(0, s.length - precision), s.slice(s.length - precision)];
}

const groupThousands = (s: string): string => s.replace(/\B(?=(\d{3})+$)/g, ',');

/** Go's `fmt.Sprintf("%.Nf", x)`: no grouping, `NaN`, `+Inf`, `-Inf`, a sign on -0. */
function goFixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const [i, f] = fixedDigits(x, precision);
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  return `${sign}${i}${precision > 0 ? `.${f}` : ''}`;
}

/** x/text's en_US `%.Nf`: grouped thousands, `∞`. */
function localeFixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN';
  const sign = x < 0 ? '-' : '';
  if (!Number.isFinite(x)) return `${sign}∞`;
  const [i, f] = fixedDigits(x, precision);
  return `${sign}${groupThousands(i)}${precision > 0 ? `.${f}` : ''}`;
}

const SUPERSCRIPT = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/** x/text's en_US `%.Ne`: `d.ddd × 10ⁿⁿ` (narrow no-break spaces, two exponent digits at least). */
function localeScientific(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN';
  const sign = x < 0 ? '-' : '';
  if (!Number.isFinite(x)) return `${sign}∞`;
  const { digits, scale } = exactDecimal(x);
  let mantissa = '0';
  let exponent = 0;
  if (digits !== 0n) {
    const length = digits.toString().length;
    const rounded = roundDigits(digits, length - (precision + 1)).toString();
    // Rounding up may carry into one more digit (9.99 → 10.0).
    mantissa = rounded.slice(0, precision + 1);
    exponent = length - 1 - scale + (rounded.length - (precision + 1));
  }
  mantissa = mantissa.padEnd(precision + 1, '0');
  const frac = precision > 0 ? `.${mantissa.slice(1)}` : '';
  const expDigits = Math.abs(exponent).toString().padStart(2, '0');
  const exp = (exponent < 0 ? '⁻' : '') + [...expDigits].map((d) => SUPERSCRIPT[Number(d)]).join('');
  return `${sign}${mantissa[0]}${frac}\u202f×\u202f10${exp}`;
}

/** Go's `strconv.FormatFloat(x, 'f', -1, 64)`: the shortest round-trip digits, no exponent. */
function shortestFixed(x: number): string {
  const [m, e] = x.toExponential().split('e');
  const negative = m.startsWith('-');
  const digits = m.replace('-', '').replace('.', '');
  const exp = Number(e);
  let out: string;
  if (exp < 0) out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  else if (digits.length <= exp + 1) out = digits.padEnd(exp + 1, '0');
  else out = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  return (negative ? '-' : '') + out;
}

/** RFC 3339 with nanoseconds, trailing zeros trimmed (Go's `time.RFC3339Nano`), in UTC. */
function timestampString(d: Date): string {
  const [main, fraction] = d.toISOString().slice(0, -1).split('.');
  const trimmed = (fraction ?? '').replace(/0+$/, '');
  return trimmed === '' ? `${main}Z` : `${main}.${trimmed}Z`;
}

/** cel-go's duration to string: seconds as the shortest decimal, then `s`. */
function durationString(d: Duration): string {
  const nanos = d.seconds * 1_000_000_000n + BigInt(d.nanos);
  const seconds = Number(nanos / 1_000_000_000n) + Number(nanos % 1_000_000_000n) / 1e9;
  return `${shortestFixed(seconds)}s`;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const STRING_CLAUSE_TYPES = 'strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps';

/** `%s`: what `string(x)` gives, and lists and maps written as CEL literals. */
function formatString(v: unknown): string {
  if (isList(v)) return formatList(v as Iterable<unknown>);
  if (isMap(v)) return formatMap(v);
  switch (celTypeName(v)) {
    case 'int':
    case 'uint':
    case 'bool':
    case 'string':
      return String(v);
    case 'double':
      return goFormatFloatG(v as number);
    case 'bytes':
      try {
        return utf8.decode(v as Uint8Array);
      } catch {
        throw new FormatError(
          'could not convert argument "invalid UTF-8 in bytes, cannot convert to string" to string',
        );
      }
    case 'google.protobuf.Timestamp':
      return timestampString(v as Date);
    case 'google.protobuf.Duration':
      return durationString(v as Duration);
    case 'type':
      return (v as { name: string }).name;
    case 'null_type':
      return 'null';
  }
  throw new FormatError(`string clause can only be used on ${STRING_CLAUSE_TYPES}, was given ${celTypeName(v)}`);
}

function formatDecimal(v: unknown): string {
  if (typeof v === 'bigint' || v instanceof UnsignedInt) return String(v);
  throw new FormatError(`decimal clause can only be used on integers, was given ${celTypeName(v)}`);
}

/** A list member or map value inside `%s`: doubles with six decimals, strings quoted. */
function formatMember(v: unknown): string {
  const type = celTypeName(v);
  switch (type) {
    case 'int':
    case 'uint':
      return formatDecimal(v);
    case 'string':
      return goQuote(v as string);
    case 'bytes':
      return `b${goQuote(formatString(v))}`;
    case 'bool':
    case 'null_type':
    case 'type':
      return formatString(v);
    case 'google.protobuf.Timestamp':
      return `timestamp(${goQuote(timestampString(v as Date))})`;
    case 'google.protobuf.Duration':
      return `duration(${goQuote(durationString(v as Duration))})`;
    case 'list':
      return formatList(v as Iterable<unknown>);
    case 'map':
      return formatMap(v);
    case 'double': {
      const s = goFixed(v as number, 6);
      return Number.isFinite(v) ? s : goQuote(s);
    }
  }
  throw new FormatError(`no formatting function for ${type}`);
}

function formatList(list: Iterable<unknown>): string {
  return `[${listElements(list).map(formatMember).join(', ')}]`;
}

/** Entries as `key:value`, sorted by the written key (Go string order). */
function formatMap(m: unknown): string {
  const pairs = mapEntries(m).map(([k, v]) => {
    let key: string;
    if (typeof k === 'string') key = goQuote(k);
    else if (typeof k === 'boolean') key = String(k);
    else if (typeof k === 'bigint' || k instanceof UnsignedInt) key = String(k);
    else throw new FormatError(`no formatting function for map key of type ${celTypeName(k)}`);
    return [key, formatMember(v)] as const;
  });
  pairs.sort((a, b) => compareGoStrings(a[0], b[0]));
  return `{${pairs.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

/** `%f` and `%e` also take the strings "NaN", "Infinity" and "-Infinity". */
function floatArg(v: unknown, clause: 'fixed-point' | 'scientific'): number {
  if (typeof v === 'number') return v;
  if (v === 'NaN') return Number.NaN;
  if (v === 'Infinity') return Number.POSITIVE_INFINITY;
  if (v === '-Infinity') return Number.NEGATIVE_INFINITY;
  throw new FormatError(`${clause} clause can only be used on doubles, was given ${celTypeName(v)}`);
}

function formatBinary(v: unknown): string {
  if (typeof v === 'bigint' || v instanceof UnsignedInt) return v.valueOf().toString(2);
  if (typeof v === 'boolean') return v ? '1' : '0';
  throw new FormatError(`only integers and bools can be formatted as binary, was given ${celTypeName(v)}`);
}

function formatHex(v: unknown, upper: boolean): string {
  let s: string;
  if (typeof v === 'string') s = Buffer.from(v, 'utf8').toString('hex');
  else if (v instanceof Uint8Array) s = Buffer.from(v).toString('hex');
  else if (typeof v === 'bigint' || v instanceof UnsignedInt) s = v.valueOf().toString(16);
  else
    throw new FormatError(
      `only integers, byte buffers, and strings can be formatted as hex, was given ${celTypeName(v)}`,
    );
  return upper ? s.toUpperCase() : s;
}

function formatOctal(v: unknown): string {
  if (typeof v === 'bigint' || v instanceof UnsignedInt) return v.valueOf().toString(8);
  throw new FormatError(`octal clause can only be used on integers, was given ${celTypeName(v)}`);
}

/** The clause after `%` at `s[0]`: [characters read, formatter]. */
function parseClause(s: string): [number, (v: unknown) => string] {
  let i = 0;
  let precision: number | undefined;
  if (s[0] === '.') {
    i = 1;
    while (i < s.length && s[i] >= '0' && s[i] <= '9') i++;
    if (i >= s.length)
      throw new FormatError('error while parsing precision: could not find end of precision specifier');
    if (i === 1) {
      throw new FormatError(
        'error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax',
      );
    }
    const digits = s.slice(1, i);
    if (BigInt(digits) > 2n ** 63n - 1n) {
      throw new FormatError(
        `error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing ${goQuote(digits)}: value out of range`,
      );
    }
    precision = Number(digits);
  }
  const verb = s[i];
  const read = i + 1;
  switch (verb) {
    case 's':
      return [read, formatString];
    case 'd':
      return [read, formatDecimal];
    case 'f':
      return [read, (v) => localeFixed(floatArg(v, 'fixed-point'), precision ?? 6)];
    case 'e':
      return [read, (v) => localeScientific(floatArg(v, 'scientific'), precision ?? 6)];
    case 'b':
      return [read, formatBinary];
    case 'x':
    case 'X':
      return [read, (v) => formatHex(v, verb === 'X')];
    case 'o':
      return [read, formatOctal];
  }
  // Go reads the clause byte by byte: a multi-byte character shows as its first byte.
  const byte = Buffer.from(verb, 'utf8')[0];
  throw new FormatError(`unrecognized formatting clause "${String.fromCharCode(byte)}"`);
}

/** cel-go's parseFormatString at run time, with its messages. */
export function formatCelString(format: string, args: Iterable<unknown>): string {
  const list = listElements(args);
  let out = '';
  let argIndex = 0;
  for (let i = 0; i < format.length; ) {
    if (format[i] !== '%') {
      out += format[i++];
      continue;
    }
    if (format[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (argIndex >= list.length) throw new FormatError(`index ${argIndex} out of range`);
    if (i + 1 >= format.length) throw new FormatError('unexpected end of string');
    let read: number;
    let formatter: (v: unknown) => string;
    try {
      [read, formatter] = parseClause(format.slice(i + 1));
    } catch (err) {
      if (err instanceof FormatError) throw new FormatError(`could not parse formatting clause: ${err.message}`);
      throw err;
    }
    try {
      out += formatter(list[argIndex]);
    } catch (err) {
      if (err instanceof FormatError) throw new FormatError(`error during formatting: ${err.message}`);
      throw err;
    }
    i += 1 + read;
    argIndex++;
  }
  return out;
}
