import { formatGoDurationNanos, parseGoDurationNanos } from '../../util/go-duration.js';

/**
 * The Go type of a configuration member, as the strict decoder checks it: scalars, a
 * `meta/v1.Duration` (a Go duration text), a list, or a struct (`goType` names it in errors).
 */
export type Shape =
  | { readonly kind: 'string' | 'bool' | 'int32' | 'float32' | 'float64' | 'duration' }
  | { readonly kind: 'list'; readonly goType: string; readonly of: Shape }
  | { readonly kind: 'struct'; readonly goType: string; readonly fields: Readonly<Record<string, Shape>> };

export const STRING: Shape = { kind: 'string' };
export const BOOL: Shape = { kind: 'bool' };
export const INT32: Shape = { kind: 'int32' };
export const FLOAT32: Shape = { kind: 'float32' };
export const FLOAT64: Shape = { kind: 'float64' };
export const DURATION: Shape = { kind: 'duration' };

export function struct(goType: string, fields: Record<string, Shape>): Shape {
  return { kind: 'struct', goType, fields };
}

export function list(goType: string, of: Shape): Shape {
  return { kind: 'list', goType, of };
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** The largest finite float32. */
const FLOAT32_MAX = 3.4028234663852886e38;

/** Go's description of a JSON value in an `UnmarshalTypeError` (`string`, `number 1.5`, `array`, ...). */
function goValueKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return `number ${String(v)}`;
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'string' ? 'string' : 'object';
}

function goTypeOf(shape: Shape): string {
  return shape.kind === 'list' || shape.kind === 'struct' ? shape.goType : shape.kind;
}

/**
 * Every problem Go's strict decoding of `value` into `shape` reports, each naming its field path:
 * `json: cannot unmarshal string into Go struct field <Root>.<path> of type int32` (int32 and
 * float32 out of range likewise), `<path>: time: invalid duration "x"`, `unknown field "<path>"`.
 * `null` is the zero value (defaults then apply). Unlike Go, which stops at the first type error,
 * all are listed.
 */
export function checkShape(value: unknown, shape: Shape, root: string): string[] {
  const problems: string[] = [];
  const walk = (v: unknown, s: Shape, path: string): void => {
    if (v === null || v === undefined) return;
    const wrong = () =>
      problems.push(
        `json: cannot unmarshal ${goValueKind(v)} into Go struct field ${root}.${path} of type ${goTypeOf(s)}`,
      );
    switch (s.kind) {
      case 'string':
        if (typeof v !== 'string') wrong();
        return;
      case 'bool':
        if (typeof v !== 'boolean') wrong();
        return;
      case 'int32':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX) wrong();
        return;
      case 'float32':
        if (typeof v !== 'number' || Math.abs(v) > FLOAT32_MAX) wrong();
        return;
      case 'float64':
        if (typeof v !== 'number') wrong();
        return;
      case 'duration': {
        if (typeof v !== 'string') {
          problems.push(`${path}: json: cannot unmarshal ${goValueKind(v).split(' ')[0]} into Go value of type string`);
          return;
        }
        const parsed = parseGoDurationNanos(v);
        if (typeof parsed !== 'bigint') problems.push(`${path}: ${parsed.error}`);
        return;
      }
      case 'list':
        if (!Array.isArray(v)) {
          wrong();
          return;
        }
        v.forEach((item, i) => {
          walk(item, s.of, `${path}[${i}]`);
        });
        return;
      case 'struct': {
        if (typeof v !== 'object' || Array.isArray(v)) {
          wrong();
          return;
        }
        for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
          const fieldPath = path ? `${path}.${k}` : k;
          const field = Object.hasOwn(s.fields, k) ? s.fields[k] : undefined;
          if (field === undefined) problems.push(`unknown field ${JSON.stringify(fieldPath)}`);
          else walk(item, field, fieldPath);
        }
      }
    }
  };
  walk(value, shape, '');
  return problems;
}

/** The Go zero value of `shape` (durations as `0s`). */
export function zeroOf(shape: Shape): unknown {
  switch (shape.kind) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'duration':
      return '0s';
    case 'list':
      return [];
    case 'struct':
      return Object.fromEntries(Object.entries(shape.fields).map(([k, f]) => [k, zeroOf(f)]));
    default:
      return 0;
  }
}

/**
 * `value` (already checked against `shape`) completed from `defaults`: a member absent or `null`
 * takes the default, a present one is kept (even a zero), durations are normalized to Go's
 * `String()` form. List items are completed from their zero value. Members not in `shape`
 * (there are none after checking) are dropped.
 */
export function withDefaults(value: unknown, defaults: unknown, shape: Shape): unknown {
  if (value === null || value === undefined) return normalize(defaults, shape);
  switch (shape.kind) {
    case 'duration':
      return formatGoDurationNanos(parseGoDurationNanos(value as string) as bigint);
    case 'list':
      return (value as unknown[]).map((item) => withDefaults(item, zeroOf(shape.of), shape.of));
    case 'struct': {
      const v = value as Record<string, unknown>;
      const d = (defaults ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, f] of Object.entries(shape.fields)) {
        const given = Object.hasOwn(v, k) ? v[k] : undefined;
        out[k] = withDefaults(given, Object.hasOwn(d, k) ? d[k] : zeroOf(f), f);
      }
      return out;
    }
    default:
      return value;
  }
}

function normalize(value: unknown, shape: Shape): unknown {
  return value === undefined ? zeroOf(shape) : withDefaults(value, zeroOf(shape), shape);
}
