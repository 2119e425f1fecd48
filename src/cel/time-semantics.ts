import { type Environment, EvaluationError } from '@marcbachmann/cel-js';
import { Duration, type UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import type { EngineHandler } from './engine-internals.js';
import type { EnginePatch } from './engine-patches.js';
import { subMillisecondNanos, TIMESTAMP_NANOS_PATCHES } from './timestamp-nanos.js';

/**
 * Timestamps, durations and conversions as cel-go has them where the engine differs or lacks:
 *
 * - timestamp arithmetic out of the range 0001-01-01 .. 9999-12-31 fails (`timestamp overflow`),
 *   as does duration arithmetic beyond Go's 64-bit nanoseconds (`integer overflow`), and a
 *   duration literal beyond it (`duration overflow`);
 * - the time zone argument of the timestamp accessors may be a fixed offset (`+11:00`, `-02:30`,
 *   `02:00`), besides an IANA name;
 * - `int(timestamp)` (Unix seconds), `string(timestamp)` (RFC 3339, fraction without trailing
 *   zeros), `string(duration)` (seconds, e.g. `1.5s`), the identities `timestamp(timestamp)` and
 *   `duration(duration)`, `int(uint)` (an error above the int range) and `string(bytes)` failing
 *   on invalid UTF-8.
 *
 * Timestamps stay the engine's millisecond `Date`s, with their nanoseconds below the millisecond
 * alongside (timestamp-nanos.ts, which also has the timestamp arithmetic).
 */

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';
const NANOS = 1_000_000_000n;
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

function totalNanos(d: Duration): bigint {
  return d.seconds * NANOS + BigInt(d.nanos);
}

function durationChecked(d: unknown, message = 'integer overflow'): unknown {
  if (d instanceof Duration) {
    const n = totalNanos(d);
    if (n > MAX_INT64 || n < MIN_INT64) throw new EvaluationError(message);
  }
  return d;
}

const operator = (op: string, signature: string, check: (v: unknown) => unknown): EnginePatch => ({
  table: 'operator',
  operator: op,
  signature,
  wrap:
    (engine) =>
    (...args) =>
      check(engine(...args)),
});

/** A fixed offset in minutes (`+11:00`, `-02:30`, `02:00`), or `undefined` for a zone name. */
export function fixedOffsetMinutes(zone: string): number | undefined {
  const m = /^([+-]?)(\d{2}):(\d{2})$/.exec(zone);
  if (!m) return undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

/** The accessors with a time zone argument, and what each reads from the shifted UTC date. */
const ACCESSORS: readonly (readonly [name: string, read: (d: Date) => number])[] = [
  ['getDate', (d) => d.getUTCDate()],
  ['getDayOfMonth', (d) => d.getUTCDate() - 1],
  ['getDayOfWeek', (d) => d.getUTCDay()],
  ['getDayOfYear', (d) => Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000)],
  ['getFullYear', (d) => d.getUTCFullYear()],
  ['getHours', (d) => d.getUTCHours()],
  ['getMinutes', (d) => d.getUTCMinutes()],
  ['getMonth', (d) => d.getUTCMonth()],
  ['getSeconds', (d) => d.getUTCSeconds()],
  ['getMilliseconds', (d) => d.getUTCMilliseconds()],
];

const zoneAccessor = ([name, read]: (typeof ACCESSORS)[number]): EnginePatch => ({
  table: 'function',
  name,
  receiver: true,
  arity: 1,
  signature: `${TS}.${name}(string): int`,
  wrap: (engine: EngineHandler) =>
    function (this: unknown, d, zone, ...rest) {
      const offset = typeof zone === 'string' ? fixedOffsetMinutes(zone) : undefined;
      if (offset === undefined || !(d instanceof Date)) return engine.call(this, d, zone, ...rest);
      return BigInt(read(new Date(d.getTime() + offset * 60_000)));
    },
});

export const TIME_PATCHES: readonly EnginePatch[] = [
  ...TIMESTAMP_NANOS_PATCHES,
  operator('+', `${DUR} + ${DUR}: ${DUR}`, durationChecked),
  operator('-', `${DUR} - ${DUR}: ${DUR}`, durationChecked),
  {
    table: 'function',
    name: 'duration',
    receiver: false,
    arity: 1,
    signature: `duration(string): ${DUR}`,
    wrap: (engine) =>
      function (this: unknown, ...args) {
        return durationChecked(engine.apply(this, args), 'duration overflow');
      },
  },
  {
    table: 'function',
    name: 'string',
    receiver: false,
    arity: 1,
    signature: 'string(bytes): string',
    wrap: () => (b) => {
      try {
        return UTF8.decode(b as Uint8Array);
      } catch {
        throw new EvaluationError('invalid UTF-8 in bytes, cannot convert to string');
      }
    },
  },
  ...ACCESSORS.map(zoneAccessor),
];

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Go's RFC 3339 with nanoseconds: the fraction without trailing zeros, `Z` for UTC. */
export function formatTimestamp(d: Date): string {
  const iso = d.toISOString(); // 2009-02-13T23:31:30.000Z, or ±YYYYYY for years past 9999
  const [whole, millis = '000'] = iso.slice(0, -1).split('.');
  const fraction = millis + String(subMillisecondNanos(d)).padStart(6, '0');
  const trimmed = fraction.replace(/0+$/, '');
  return `${whole}${trimmed ? `.${trimmed}` : ''}Z`;
}

/** cel-go's duration string: seconds with the fraction's trailing zeros dropped (`1.5s`, `-0.000000001s`). */
export function formatDuration(d: Duration): string {
  const n = totalNanos(d);
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const seconds = abs / NANOS;
  const fraction = (abs % NANOS).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${seconds}${fraction ? `.${fraction}` : ''}s`;
}

/** Registers the conversions the engine lacks. */
export function registerTimeConversions(env: Environment): void {
  env.registerFunction(`int(${TS}): int`, (d: Date) => BigInt(Math.floor(d.getTime() / 1000)));
  env.registerFunction(`string(${TS}): string`, formatTimestamp);
  env.registerFunction(`string(${DUR}): string`, formatDuration);
  env.registerFunction(`timestamp(${TS}): ${TS}`, (d: Date) => d);
  env.registerFunction(`duration(${DUR}): ${DUR}`, (d: Duration) => d);
  env.registerFunction('int(uint): int', (u: UnsignedInt) => {
    const v = u.valueOf();
    if (v > MAX_INT64) throw new EvaluationError('integer overflow');
    return v;
  });
}
