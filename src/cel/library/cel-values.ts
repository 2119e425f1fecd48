/**
 * What the libraries share: registration with the engine, CEL errors, and CEL's equality and
 * ordering of runtime values (int = bigint, double = number, uint = UnsignedInt, bytes =
 * Uint8Array, timestamp = Date, duration = Duration, list = array or Set, map = object or Map).
 */
import { type Environment, EvaluationError, Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { compareGoStrings } from '../../util/go-strings.js';
import { timestampNanos } from '../timestamp-nanos.js';

/** The range of CEL's int (Go's int64) and the top of its uint (uint64). */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const UINT64_MAX = 2n ** 64n - 1n;

/** A value of one of the libraries' own types (Quantity, URL, IP, ...). */
export interface CelObject {
  /** The CEL type name, as kube declares it (`kubernetes.Quantity`, `net.IP`). */
  readonly celType: string;
  equals(other: CelObject): boolean;
}

function isCelObject(v: unknown): v is CelObject {
  return typeof v === 'object' && v !== null && typeof (v as CelObject).celType === 'string';
}

/** A CEL evaluation error with kube's message (cel-go's `types.NewErr`). */
export function celError(message: string): EvaluationError {
  return new EvaluationError(message);
}

// biome-ignore lint/suspicious/noExplicitAny: handlers receive engine values of the declared types
type Handler = (...args: any[]) => unknown;

/**
 * Registers overloads, each `[signature, handler]`. Handlers are synchronous: telling the
 * engine so spares it the promise checks it makes around functions that may be async.
 */
export function registerFunctions(env: Environment, overloads: readonly (readonly [string, Handler])[]): void {
  for (const [signature, handler] of overloads) env.registerFunction(signature, handler, { async: false });
}

/**
 * Registers an opaque type: values of `ctor` are only reachable through functions, never
 * through fields (kube's object types expose no fields), and compare with `equals`.
 */
export function registerObjectType(env: Environment, name: string, ctor: new (...args: never[]) => CelObject): void {
  env.registerType(name, { ctor, fields: {} });
  env.registerOperator(`${name} == ${name}`, (a: CelObject, b: CelObject) => a.equals(b));
}

/** The elements of a CEL list (an array, or a Set the engine also treats as a list). */
export function listElements(list: Iterable<unknown>): readonly unknown[] {
  return Array.isArray(list) ? list : [...list];
}

function numericValue(v: unknown): bigint | number | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (v instanceof UnsignedInt) return v.valueOf();
  return undefined;
}

/** Exact comparison of two CEL numbers, across int, uint and double; undefined for NaN. */
function compareNumbers(a: bigint | number, b: bigint | number): -1 | 0 | 1 | undefined {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number') {
    const c = compareNumbers(b, a);
    return c === undefined ? undefined : ((-c || 0) as -1 | 0 | 1);
  }
  const d = b as number;
  if (Number.isNaN(d)) return undefined;
  if (d === Number.POSITIVE_INFINITY) return -1;
  if (d === Number.NEGATIVE_INFINITY) return 1;
  // Compare against the double's integer part exactly, then let its fraction break a tie.
  const whole = BigInt(Math.trunc(d));
  if (a !== whole) return a < whole ? -1 : 1;
  const frac = d - Math.trunc(d);
  return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): -1 | 0 | 1 {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function sign(n: number): -1 | 0 | 1 {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

/**
 * cel-go's `Compare` for the orderable types (numbers across int/uint/double, bool, string in
 * Go's byte order, bytes, timestamp, duration). Undefined when the two cannot be ordered (a NaN,
 * or different types), which kube's list functions treat as "not out of order".
 */
export function celCompare(a: unknown, b: unknown): -1 | 0 | 1 | undefined {
  const x = numericValue(a);
  const y = numericValue(b);
  if (x !== undefined && y !== undefined) return compareNumbers(x, y);
  if (typeof a === 'string' && typeof b === 'string') return sign(compareGoStrings(a, b));
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof Date && b instanceof Date) return sign(Number(timestampNanos(a) - timestampNanos(b)));
  if (a instanceof Duration && b instanceof Duration) {
    if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
    return sign(a.nanos - b.nanos);
  }
  return undefined;
}

function mapEntries(m: unknown): Map<unknown, unknown> | undefined {
  if (m instanceof Map) return m;
  if (typeof m === 'object' && m !== null && (m.constructor === Object || m.constructor === undefined)) {
    return new Map(Object.entries(m));
  }
  return undefined;
}

/** CEL's `==` on runtime values (numbers compare across types, as in kube's environments). */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const x = numericValue(a);
  const y = numericValue(b);
  if (x !== undefined || y !== undefined) return x !== undefined && y !== undefined && compareNumbers(x, y) === 0;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b) === 0;
  if (a instanceof Date && b instanceof Date) return timestampNanos(a) === timestampNanos(b);
  if (a instanceof Duration && b instanceof Duration) return a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof Optional && b instanceof Optional) {
    if (!a.hasValue() || !b.hasValue()) return a.hasValue() === b.hasValue();
    return celEquals(a.value(), b.value());
  }
  if (isCelObject(a) && isCelObject(b)) return a.celType === b.celType && a.equals(b);
  if ((Array.isArray(a) || a instanceof Set) && (Array.isArray(b) || b instanceof Set)) {
    const l = listElements(a);
    const r = listElements(b);
    return l.length === r.length && l.every((v, i) => celEquals(v, r[i]));
  }
  const l = mapEntries(a);
  const r = mapEntries(b);
  if (l === undefined || r === undefined || l.size !== r.size) return false;
  for (const [k, v] of l) {
    if (!r.has(k) || !celEquals(v, r.get(k))) return false;
  }
  return true;
}
