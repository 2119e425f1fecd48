import { Duration } from '@marcbachmann/cel-js/evaluator';
import { isBase64 } from '../apis/schema/formats.js';
import { jsonTypeName } from '../apis/schema/json-value.js';
import { parseTimestamp } from '../apis/schema/time-format.js';
import { parseDuration } from './durations.js';
import { CelEvaluationError } from './errors.js';

/**
 * How values of one schema type enter CEL: the engine type name, the conversion of a JSON value
 * (never `null` or `undefined`), and the equality of two JSON values as CEL compares them.
 */
export interface CelTypeBinding {
  readonly celType: string;
  convert(value: unknown): unknown;
  equal(a: unknown, b: unknown): boolean;
}

/** The error for a JSON value that does not hold the declared type (kube's `invalid data`). */
export function invalidData(expected: string, value: unknown): CelEvaluationError {
  return new CelEvaluationError(`invalid data, expected ${expected}, got ${jsonTypeName(value)}`, 'invalid_data');
}

function intValue(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  throw invalidData('int', v);
}

function sameNumber(a: unknown, b: unknown): boolean {
  if (typeof a === typeof b) return a === b;
  return typeof a === 'bigint' || typeof b === 'bigint' ? BigInt(a as number) === BigInt(b as number) : false;
}

function expect<T>(type: string, name: string): (v: unknown) => T {
  return (v) => {
    if (typeof v !== type) throw invalidData(name, v);
    return v as T;
  };
}

/** A binding whose equality compares converted values by a key (dates by instant, ...). */
function byKey(celType: string, convert: (v: unknown) => unknown, key: (c: never) => unknown): CelTypeBinding {
  return {
    celType,
    convert,
    equal: (a, b) => {
      if (a === b) return true;
      try {
        return key(convert(a) as never) === key(convert(b) as never);
      } catch {
        return false;
      }
    },
  };
}

const BOOL: CelTypeBinding = { celType: 'bool', convert: expect('boolean', 'bool'), equal: (a, b) => a === b };
const INT: CelTypeBinding = { celType: 'int', convert: intValue, equal: sameNumber };
const DOUBLE: CelTypeBinding = {
  celType: 'double',
  convert: (v) => {
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') return Number(v);
    throw invalidData('float', v);
  },
  equal: (a, b) => Number(a) === Number(b),
};
const STRING: CelTypeBinding = { celType: 'string', convert: expect('string', 'string'), equal: (a, b) => a === b };

const BYTES = byKey(
  'bytes',
  (v) => {
    if (typeof v !== 'string' || !isBase64(v)) throw invalidData('base64 bytes', v);
    return new Uint8Array(Buffer.from(v.replace(/[\r\n]/g, ''), 'base64'));
  },
  (b: Uint8Array) => Buffer.from(b).toString('hex'),
);

const TIMESTAMP = byKey(
  'google.protobuf.Timestamp',
  (v) => {
    const t = typeof v === 'string' ? parseTimestamp(v) : undefined;
    if (!t) throw new CelEvaluationError(`Invalid date-time formatted string ${String(v)}`, 'invalid_data');
    // The engine's timestamps are JavaScript dates: millisecond precision.
    return new Date(t.epochSeconds * 1000 + Math.floor(Number(`0.${t.fraction || '0'}`) * 1000));
  },
  (d: Date) => d.getTime(),
);

const DATE = byKey(
  'google.protobuf.Timestamp',
  (v) => {
    const m = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(v) : null;
    const t = m ? parseTimestamp(`${v}T00:00:00Z`) : undefined;
    if (!t) throw new CelEvaluationError(`Invalid date formatted string ${String(v)}`, 'invalid_data');
    return new Date(t.epochSeconds * 1000);
  },
  (d: Date) => d.getTime(),
);

const DURATION = byKey(
  'google.protobuf.Duration',
  (v) => {
    const d = typeof v === 'string' ? parseDuration(v) : undefined;
    if (!d) throw new CelEvaluationError(`Invalid duration ${String(v)}`, 'invalid_data');
    return new Duration(d.seconds, d.nanos);
  },
  (d: Duration) => `${d.seconds}:${d.nanos}`,
);

/** `x-orch-int-or-string`: dynamic, an `int` or a `string`. */
export const INT_OR_STRING: CelTypeBinding = {
  celType: 'dyn',
  convert: (v) => {
    if (typeof v === 'string') return v;
    if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return intValue(v);
    throw new CelEvaluationError(
      'invalid data, expected XIntOrString value to be either a string or integer',
      'invalid_data',
    );
  },
  equal: (a, b) => (typeof a === 'string' || typeof b === 'string' ? a === b : sameNumber(a, b)),
};

/** The binding of a scalar schema type (`boolean`, `number`, `integer`, `string` and its formats). */
export function scalarBinding(type: string | undefined, format: string | undefined): CelTypeBinding | undefined {
  switch (type) {
    case 'boolean':
      return BOOL;
    case 'number':
      return DOUBLE;
    case 'integer':
      return INT;
    case 'string':
      switch (format) {
        case 'byte':
          return BYTES;
        case 'date':
          return DATE;
        case 'date-time':
          return TIMESTAMP;
        case 'duration':
          return DURATION;
        default:
          return STRING;
      }
    default:
      return undefined;
  }
}

/**
 * A key under which equal scalar CEL values meet in a `Map` (strings, numbers and `bigint`s are
 * their own keys; dates, durations and bytes are keyed by value).
 */
export function scalarKey(v: unknown): unknown {
  if (v instanceof Date) return `t:${v.getTime()}`;
  if (v instanceof Duration) return `d:${v.seconds}:${v.nanos}`;
  if (v instanceof Uint8Array) return `b:${Buffer.from(v).toString('hex')}`;
  return v;
}
