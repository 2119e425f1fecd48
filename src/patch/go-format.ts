import { canonicalJson, isPlainObject } from '../apis/schema/json-value.js';

/**
 * Decoded JSON values as Go's `encoding/json` (with kube's int-preserving decoder) holds them in
 * an `interface{}`, so that messages and comparisons come out as kube's do. Whole numbers below
 * 2^63 are `int64`, other numbers `float64`; a `bigint` (an integer beyond 2^53) is an `int64`
 * when it fits, else the `float64` kube would have made of it.
 */
export type GoKind = 'map' | 'slice' | 'string' | 'int64' | 'float64' | 'bool' | 'nil';

const INT64_LIMIT = 2 ** 63;

/** The dynamic Go type of a decoded JSON value. */
export function goKind(value: unknown): GoKind {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return 'slice';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < INT64_LIMIT ? 'int64' : 'float64';
  if (typeof value === 'bigint') return BigInt.asIntN(64, value) === value ? 'int64' : 'float64';
  return 'map';
}

/** `reflect.TypeOf(value)` as `%s` prints it (`%!s(<nil>)` for nil). */
export function goTypeName(value: unknown): string {
  switch (goKind(value)) {
    case 'map':
      return 'map[string]interface {}';
    case 'slice':
      return '[]interface {}';
    case 'nil':
      return '%!s(<nil>)';
    default:
      return goKind(value);
  }
}

/**
 * A key under which two values collide exactly when Go's `==` on `interface{}` holds: same
 * dynamic type and same value. Go panics comparing maps or slices; those compare by content here.
 */
export function goKey(value: unknown): string {
  const kind = goKind(value);
  if (kind === 'map' || kind === 'slice') return `${kind}:${canonicalJson(value)}`;
  return `${kind}:${String(kind === 'float64' ? Number(value) : value)}`;
}

/** `fmt.Sprintf("%v", value)`: maps as `map[k:v ...]` with sorted keys, slices as `[a b]`. */
export function goValue(value: unknown): string {
  return format(value, 'v');
}

/** `fmt.Sprintf("%s", value)`: like `%v`, but non-strings print as `%!s(type=value)`. */
export function goString(value: unknown): string {
  return format(value, 's');
}

function format(value: unknown, verb: 'v' | 's'): string {
  const kind = goKind(value);
  switch (kind) {
    case 'nil':
      return verb === 'v' ? '<nil>' : '%!s(<nil>)';
    case 'string':
      return value as string;
    case 'slice':
      return `[${(value as unknown[]).map((v) => format(v, verb)).join(' ')}]`;
    case 'map': {
      const obj = isPlainObject(value) ? value : {};
      const entries = Object.keys(obj)
        .sort()
        .map((k) => `${k}:${format(obj[k], verb)}`);
      return `map[${entries.join(' ')}]`;
    }
    default: {
      const text =
        kind === 'bool'
          ? String(value)
          : kind === 'int64'
            ? int64Text(value as number | bigint)
            : goFloat(Number(value));
      return verb === 'v' ? text : `%!s(${kind}=${text})`;
    }
  }
}

function int64Text(n: number | bigint): string {
  return BigInt(n).toString();
}

/** `strconv.FormatFloat(f, 'g', -1, 64)`: shortest digits, exponent form outside [1e-4, 1e6). */
function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  const [mantissa, exponentText] = f.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(f);
}
