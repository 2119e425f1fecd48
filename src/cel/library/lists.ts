import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import type { CelLibrary } from '../cel-library.js';
import {
  celCompare,
  celEquals,
  celError,
  INT64_MAX,
  INT64_MIN,
  listElements,
  registerFunctions,
  UINT64_MAX,
} from './cel-values.js';

const DURATION = 'google.protobuf.Duration';
const TIMESTAMP = 'google.protobuf.Timestamp';

/** The element types kube declares `isSorted`, `min` and `max` for. */
const COMPARABLE_TYPES = ['int', 'uint', 'double', 'bool', DURATION, TIMESTAMP, 'string', 'bytes'];

const NANOS_PER_SECOND = 1_000_000_000n;

function isSorted(list: Iterable<unknown>): boolean {
  let prev: unknown;
  let first = true;
  for (const next of list) {
    // An unorderable pair (a NaN) does not count as out of order, as in kube.
    if (!first && celCompare(prev, next) === 1) return false;
    prev = next;
    first = false;
  }
  return true;
}

/** `min` keeps the first of equal elements; so does `max`. An empty list is an error. */
function extreme(op: 'min' | 'max', list: Iterable<unknown>): unknown {
  const replaceWhen = op === 'min' ? 1 : -1;
  let result: unknown;
  let first = true;
  for (const next of list) {
    if (first || celCompare(result, next) === replaceWhen) result = next;
    first = false;
  }
  if (first) throw celError(`${op} called on empty list`);
  return result;
}

function sumInts(list: Iterable<bigint>): bigint {
  let acc = 0n;
  for (const v of list) {
    acc += v;
    if (acc < INT64_MIN || acc > INT64_MAX) throw celError('integer overflow');
  }
  return acc;
}

function sumUints(list: Iterable<UnsignedInt>): UnsignedInt {
  let acc = 0n;
  for (const v of list) {
    acc += v.valueOf();
    if (acc > UINT64_MAX) throw celError('unsigned integer overflow');
  }
  return new UnsignedInt(acc);
}

function sumDoubles(list: Iterable<number>): number {
  let acc = 0;
  for (const v of list) acc += v;
  return acc;
}

/** Durations add in nanoseconds and overflow past Go's int64 `time.Duration`, as in cel-go. */
function sumDurations(list: Iterable<Duration>): Duration {
  let nanos = 0n;
  for (const d of list) {
    nanos += d.seconds * NANOS_PER_SECOND + BigInt(d.nanos);
    if (nanos < INT64_MIN || nanos > INT64_MAX) throw celError('integer overflow');
  }
  // Seconds and nanos carry the same sign, as the engine's own durations do.
  return new Duration(nanos / NANOS_PER_SECOND, Number(nanos % NANOS_PER_SECOND));
}

function indexOf(list: Iterable<unknown>, item: unknown): bigint {
  const elements = listElements(list);
  for (let i = 0; i < elements.length; i++) if (celEquals(elements[i], item)) return BigInt(i);
  return -1n;
}

function lastIndexOf(list: Iterable<unknown>, item: unknown): bigint {
  const elements = listElements(list);
  for (let i = elements.length - 1; i >= 0; i--) if (celEquals(elements[i], item)) return BigInt(i);
  return -1n;
}

/**
 * kube's `kubernetes.lists` library (k8s.io/apiserver/pkg/cel/library/lists.go, v1.32):
 * `isSorted`, `min`, `max` on lists of comparable elements, `sum` on ints, uints, doubles and
 * durations (`[].sum()` is the int 0), `indexOf` and `lastIndexOf` on any list. Errors: `min
 * called on empty list`, `max called on empty list`, `integer overflow`, `unsigned integer
 * overflow`. (cel-go's `ext.Lists` — `slice`, `flatten`, `distinct`, `sort`… — is not part of
 * kube-apiserver v1.32's environment.)
 */
export const listsLibrary: CelLibrary = {
  name: 'kubernetes.lists',
  register(env) {
    for (const t of COMPARABLE_TYPES) {
      registerFunctions(env, [
        [`list<${t}>.isSorted(): bool`, isSorted],
        [`list<${t}>.min(): ${t}`, (l: Iterable<unknown>) => extreme('min', l)],
        [`list<${t}>.max(): ${t}`, (l: Iterable<unknown>) => extreme('max', l)],
      ]);
    }
    registerFunctions(env, [
      // The int overload comes first: it is the one an empty list literal resolves to.
      ['list<int>.sum(): int', sumInts],
      ['list<uint>.sum(): uint', sumUints],
      ['list<double>.sum(): double', sumDoubles],
      [`list<${DURATION}>.sum(): ${DURATION}`, sumDurations],
      ['list<A>.indexOf(A): int', indexOf],
      ['list<A>.lastIndexOf(A): int', lastIndexOf],
    ]);
  },
};
