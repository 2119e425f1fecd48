/**
 * Conformance-suite values (`cel.expr.Value`, `cel.expr.Type`) to and from the engine's values and
 * type names. Protobuf messages other than timestamps and durations have no counterpart here:
 * such values come back `undefined`, and the harness skips their tests.
 */

import { type Type, Type_PrimitiveType, Type_WellKnownType } from '@bufbuild/cel-spec/cel/expr/checked_pb.js';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';

/** Marks a value the engine cannot represent. */
export const UNSUPPORTED: unique symbol = Symbol('unsupported');

const PRIMITIVES: Readonly<Record<number, string>> = {
  [Type_PrimitiveType.BOOL]: 'bool',
  [Type_PrimitiveType.INT64]: 'int',
  [Type_PrimitiveType.UINT64]: 'uint',
  [Type_PrimitiveType.DOUBLE]: 'double',
  [Type_PrimitiveType.STRING]: 'string',
  [Type_PrimitiveType.BYTES]: 'bytes',
};

/** The engine's name for a declared type, or `undefined` for a protobuf message type. */
export function engineTypeName(t: Type | undefined): string | undefined {
  const k = t?.typeKind;
  switch (k?.case) {
    case 'primitive':
      return PRIMITIVES[k.value];
    case 'wrapper':
    case 'dyn':
    case 'typeParam':
    case 'abstractType':
      return 'dyn';
    case 'null':
      return 'null';
    case 'type':
      return 'type';
    case 'wellKnown':
      return k.value === Type_WellKnownType.TIMESTAMP
        ? 'google.protobuf.Timestamp'
        : k.value === Type_WellKnownType.DURATION
          ? 'google.protobuf.Duration'
          : 'dyn';
    case 'listType': {
      const e = engineTypeName(k.value.elemType);
      return e && `list<${e}>`;
    }
    case 'mapType': {
      const key = engineTypeName(k.value.keyType);
      const value = engineTypeName(k.value.valueType);
      return key && value && `map<${key}, ${value}>`;
    }
    case 'messageType':
      switch (k.value) {
        case 'google.protobuf.Struct':
          return 'map<string, dyn>';
        case 'google.protobuf.ListValue':
          return 'list<dyn>';
        case 'google.protobuf.Value':
        case 'google.protobuf.Any':
          return 'dyn';
        default:
          return undefined;
      }
    default:
      return undefined;
  }
}

/** `{seconds, nanos}` of a Timestamp or Duration message in protobuf binary form. */
function secondsAndNanos(bytes: Uint8Array): { seconds: bigint; nanos: number } {
  let seconds = 0n;
  let nanos = 0;
  let i = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = bytes[i++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (i < bytes.length) {
    const tag = Number(varint());
    const v = BigInt.asIntN(64, varint());
    if (tag >> 3 === 1) seconds = v;
    else if (tag >> 3 === 2) nanos = Number(BigInt.asIntN(32, v));
  }
  return { seconds, nanos };
}

/** The engine value of a conformance value, or {@link UNSUPPORTED}. */
export function engineValue(v: Value): unknown {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'stringValue':
    case 'doubleValue':
    case 'int64Value':
      return k.value;
    case 'uint64Value':
      return new UnsignedInt(k.value);
    case 'bytesValue':
      return new Uint8Array(k.value);
    case 'listValue': {
      const out = k.value.values.map(engineValue);
      return out.includes(UNSUPPORTED) ? UNSUPPORTED : out;
    }
    case 'mapValue': {
      const out = new Map<unknown, unknown>();
      for (const e of k.value.entries) {
        const key = e.key ? engineValue(e.key) : UNSUPPORTED;
        const value = e.value ? engineValue(e.value) : UNSUPPORTED;
        if (key === UNSUPPORTED || value === UNSUPPORTED) return UNSUPPORTED;
        out.set(key, value);
      }
      return out;
    }
    case 'objectValue': {
      const type = k.value.typeUrl.slice(k.value.typeUrl.lastIndexOf('/') + 1);
      const { seconds, nanos } = secondsAndNanos(k.value.value);
      if (type === 'google.protobuf.Timestamp') return new Date(Number(seconds) * 1000 + Math.trunc(nanos / 1e6));
      if (type === 'google.protobuf.Duration') return new Duration(seconds, nanos);
      return UNSUPPORTED;
    }
    default:
      return UNSUPPORTED;
  }
}

/** The name of a type value as cel-go spells it (the engine spells `null_type` `null`). */
function typeName(t: { name: string }): string {
  return t.name === 'null' ? 'null_type' : t.name;
}

/** Whether engine value `actual` equals `expected` (an engine value), types included: `1` is not `1.0`. */
export function sameValue(actual: unknown, expected: unknown): boolean {
  if (expected === null) return actual === null;
  if (typeof expected === 'number') {
    return typeof actual === 'number' && (actual === expected || (Number.isNaN(actual) && Number.isNaN(expected)));
  }
  if (typeof expected !== 'object') return actual === expected;
  if (expected instanceof UnsignedInt) return actual instanceof UnsignedInt && actual.valueOf() === expected.valueOf();
  if (expected instanceof Uint8Array) {
    return (
      actual instanceof Uint8Array && actual.length === expected.length && actual.every((b, i) => b === expected[i])
    );
  }
  if (expected instanceof Date) return actual instanceof Date && actual.getTime() === expected.getTime();
  if (expected instanceof Duration) {
    return actual instanceof Duration && actual.seconds === expected.seconds && actual.nanos === expected.nanos;
  }
  if (Array.isArray(expected)) {
    const list = actual instanceof Set ? [...actual] : actual;
    return Array.isArray(list) && list.length === expected.length && list.every((a, i) => sameValue(a, expected[i]));
  }
  if (expected instanceof Map) {
    const entries: [unknown, unknown][] =
      actual instanceof Map ? [...actual] : typeof actual === 'object' && actual !== null ? Object.entries(actual) : [];
    if (entries.length !== expected.size) return false;
    return [...expected].every(([ek, ev]) =>
      entries.some(
        ([ak, av]) => (sameValue(ak, ek) || (typeof ak === 'string' && ak === String(ek))) && sameValue(av, ev),
      ),
    );
  }
  return false;
}

/** Whether `actual` is the type value named `name` (`int`, `list`, `null_type`, ...). */
export function isTypeValue(actual: unknown, name: string): boolean {
  const t = actual as { constructor?: { name?: string }; name?: unknown } | null;
  return t?.constructor?.name === 'Type' && typeof t.name === 'string' && typeName(t as { name: string }) === name;
}
