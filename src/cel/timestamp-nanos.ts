import { EvaluationError } from '@marcbachmann/cel-js';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import type { EnginePatch } from './engine-patches.js';

/**
 * Timestamps with nanosecond precision, as cel-go keeps them. The engine's timestamps are
 * millisecond `Date`s; the nanoseconds below the millisecond ride along on the `Date` under a
 * symbol (absent means 0), set where a timestamp is made from a string with more than three
 * fraction digits or by arithmetic with a duration, and read by the arithmetic, the comparisons,
 * `string()` and CEL equality. Every other use of the `Date` sees its milliseconds, as before.
 *
 * - `timestamp('...T23:59:59.999999999Z')` keeps all nine digits;
 * - `timestamp ± duration`, `duration + timestamp` (a timestamp, where the engine typed it a
 *   duration) and `timestamp - timestamp` are exact, and fail out of the range
 *   0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999999Z (`timestamp overflow`);
 * - `==`, `!=`, `<`, `<=`, `>`, `>=` of timestamps compare the nanoseconds.
 */

const SUB_MILLISECOND: unique symbol = Symbol('orch.cel.subMillisecondNanos');

type NanoDate = Date & { [SUB_MILLISECOND]?: number };

const NANOS_PER_MS = 1_000_000n;
const NANOS_PER_S = 1_000_000_000n;
const MIN_NANOS = -62135596800000n * NANOS_PER_MS;
const MAX_NANOS = 253402300799999n * NANOS_PER_MS + 999_999n;
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

/** Nanoseconds since the Unix epoch of a timestamp. */
export function timestampNanos(d: Date): bigint {
  return BigInt(d.getTime()) * NANOS_PER_MS + BigInt((d as NanoDate)[SUB_MILLISECOND] ?? 0);
}

/** The nanoseconds below the millisecond of a timestamp (0 .. 999999). */
export function subMillisecondNanos(d: Date): number {
  return (d as NanoDate)[SUB_MILLISECOND] ?? 0;
}

/** The timestamp `nanos` nanoseconds after the Unix epoch; `timestamp overflow` out of CEL's range. */
export function timestampFromNanos(nanos: bigint): Date {
  if (nanos < MIN_NANOS || nanos > MAX_NANOS) throw new EvaluationError('timestamp overflow');
  let ms = nanos / NANOS_PER_MS;
  let sub = nanos % NANOS_PER_MS;
  if (sub < 0n) {
    sub += NANOS_PER_MS;
    ms -= 1n;
  }
  const d: NanoDate = new Date(Number(ms));
  if (sub !== 0n) d[SUB_MILLISECOND] = Number(sub);
  return d;
}

function durationNanos(d: Duration): bigint {
  return d.seconds * NANOS_PER_S + BigInt(d.nanos);
}

/** A duration of `nanos` (seconds and nanoseconds of one sign); `integer overflow` beyond int64 nanoseconds. */
export function durationFromNanos(nanos: bigint): Duration {
  if (nanos > MAX_INT64 || nanos < MIN_INT64) throw new EvaluationError('integer overflow');
  return new Duration(nanos / NANOS_PER_S, Number(nanos % NANOS_PER_S));
}

/**
 * The sub-millisecond nanoseconds of an RFC 3339 timestamp string (`.123456789` → 456789), or 0;
 * applied to `d`, the engine's parse of the same string.
 */
function withFraction(d: unknown, text: unknown): unknown {
  if (!(d instanceof Date) || typeof text !== 'string') return d;
  const m = /T\d{2}:\d{2}:\d{2}\.(\d+)/.exec(text);
  if (!m || m[1].length <= 3) return d;
  const sub = Number(m[1].slice(3, 9).padEnd(6, '0'));
  if (sub !== 0) (d as NanoDate)[SUB_MILLISECOND] = sub;
  return d;
}

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';

const replaceOperator = (
  operator: string,
  signature: string,
  handler: (a: unknown, b: unknown) => unknown,
): Extract<EnginePatch, { table: 'operator' }> => ({ table: 'operator', operator, signature, wrap: () => handler });

const compare = (a: unknown, b: unknown): number => {
  const x = timestampNanos(a as Date);
  const y = timestampNanos(b as Date);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The patches (timestamp arithmetic, comparisons and parsing); time-semantics.ts formats. */
export const TIMESTAMP_NANOS_PATCHES: readonly EnginePatch[] = [
  replaceOperator('+', `${TS} + ${DUR}: ${TS}`, (t, d) =>
    timestampFromNanos(timestampNanos(t as Date) + durationNanos(d as Duration)),
  ),
  {
    ...replaceOperator('+', `${DUR} + ${TS}: ${DUR}`, (d, t) =>
      timestampFromNanos(timestampNanos(t as Date) + durationNanos(d as Duration)),
    ),
    returnTypeOf: `${TS} + ${DUR}: ${TS}`,
  },
  replaceOperator('-', `${TS} - ${DUR}: ${TS}`, (t, d) =>
    timestampFromNanos(timestampNanos(t as Date) - durationNanos(d as Duration)),
  ),
  replaceOperator('-', `${TS} - ${TS}: ${DUR}`, (a, b) =>
    durationFromNanos(timestampNanos(a as Date) - timestampNanos(b as Date)),
  ),
  replaceOperator('==', `${TS} == ${TS}: bool`, (a, b) => compare(a, b) === 0),
  replaceOperator('!=', `${TS} != ${TS}: bool`, (a, b) => compare(a, b) !== 0),
  replaceOperator('<', `${TS} < ${TS}: bool`, (a, b) => compare(a, b) < 0),
  replaceOperator('<=', `${TS} <= ${TS}: bool`, (a, b) => compare(a, b) <= 0),
  replaceOperator('>', `${TS} > ${TS}: bool`, (a, b) => compare(a, b) > 0),
  replaceOperator('>=', `${TS} >= ${TS}: bool`, (a, b) => compare(a, b) >= 0),
  {
    table: 'function',
    name: 'timestamp',
    receiver: false,
    arity: 1,
    signature: `timestamp(string): ${TS}`,
    wrap: (engine) =>
      function (this: unknown, text, ...rest) {
        return withFraction(engine.call(this, text, ...rest), text);
      },
  },
];
