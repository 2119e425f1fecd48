import { annotate, ProtobufEncodeError } from './errors.js';
import { type FieldInfo, FieldShape, type MessageTable, ValueKind } from './message-table.js';
import { writeSpecial } from './well-known.js';
import { type ProtoWriter, WIRE_LEN } from './wire-writer.js';

/**
 * Schema-driven message encoding: JSON-shaped objects to protobuf, fields in ascending number
 * order and map entries sorted by key (both as Go writes them). `null` and absent properties are
 * not written; zero scalars are not written unless the field has explicit presence (a Go
 * pointer), because a Go reader treats a missing non-pointer field as its zero value anyway.
 */

const MAP_KEY_TAG = 10;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_LIMIT = 2 ** 63;

type JsonRecord = Record<string, unknown>;

function isRecord(v: unknown): v is JsonRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  if (typeof v === 'bigint') return `bigint ${v}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

function mismatch(expected: string, v: unknown): ProtobufEncodeError {
  return new ProtobufEncodeError(`expected ${expected}, got ${describe(v)}`);
}

function isZero(kind: ValueKind, v: unknown): boolean {
  switch (kind) {
    case ValueKind.String:
    case ValueKind.Bytes:
      return v === '';
    case ValueKind.Bool:
      return v === false;
    case ValueKind.Int32:
    case ValueKind.Int64:
    case ValueKind.Double:
    case ValueKind.Float:
      return v === 0;
    default:
      // Messages are written whenever present: Go always writes its non-pointer structs.
      return false;
  }
}

/** A `null` Time in a list or map: Go's zero time, an empty message. */
const ZERO_TIME = Symbol('zero time');

/** Writes one value of `field.kind` (its tag already written). */
function writeValue(w: ProtoWriter, field: FieldInfo, v: unknown): void {
  if (v === ZERO_TIME) {
    w.uvarint(0);
    return;
  }
  switch (field.kind) {
    case ValueKind.String:
      if (typeof v !== 'string') throw mismatch('a string', v);
      w.string(v);
      return;
    case ValueKind.Bytes:
      if (typeof v !== 'string') throw mismatch('a base64 string', v);
      w.bytes(Buffer.from(v, 'base64'));
      return;
    case ValueKind.Bool:
      if (typeof v !== 'boolean') throw mismatch('a boolean', v);
      w.uvarint(v ? 1 : 0);
      return;
    case ValueKind.Int32:
      if (typeof v !== 'number' || !Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX) {
        throw mismatch('an int32', v);
      }
      w.svarint(v);
      return;
    case ValueKind.Int64:
      if (typeof v === 'bigint' && v >= -(2n ** 63n) && v < 2n ** 63n) {
        w.bigVarint(v);
        return;
      }
      if (typeof v !== 'number' || !Number.isInteger(v) || v < -INT64_LIMIT || v >= INT64_LIMIT) {
        throw mismatch('an int64', v);
      }
      w.svarint(v);
      return;
    case ValueKind.Double:
      if (typeof v !== 'number') throw mismatch('a number', v);
      w.double(v);
      return;
    case ValueKind.Float:
      if (typeof v !== 'number') throw mismatch('a number', v);
      w.float(v);
      return;
    case ValueKind.Message: {
      if (!isRecord(v)) throw mismatch('an object', v);
      const mark = w.fork();
      encodeMessage(w, field.message!, v);
      w.join(mark);
      return;
    }
    default: {
      const mark = w.fork();
      writeSpecial(w, field.kind, v);
      w.join(mark);
    }
  }
}

/** The value a `null` list element or map value stands for (Go decodes JSON null as zero). */
function zeroOf(kind: ValueKind): unknown {
  switch (kind) {
    case ValueKind.String:
    case ValueKind.Bytes:
      return '';
    case ValueKind.Bool:
      return false;
    case ValueKind.Message:
      return {};
    case ValueKind.Quantity:
      return '0';
    case ValueKind.StringList:
      return [];
    case ValueKind.Time:
    case ValueKind.MicroTime:
      return ZERO_TIME;
    case ValueKind.IntOrString:
    case ValueKind.Int32:
    case ValueKind.Int64:
    case ValueKind.Double:
    case ValueKind.Float:
      return 0;
    default:
      return null;
  }
}

function writeRepeated(w: ProtoWriter, field: FieldInfo, list: unknown): void {
  if (!Array.isArray(list)) throw mismatch('an array', list);
  // Elements are never packed: proto2, as apimachinery's generated code writes them.
  for (let i = 0; i < list.length; i++) {
    let v = list[i];
    if (v === null || v === undefined) {
      v = zeroOf(field.kind);
      if (v === null) continue;
    }
    try {
      w.uvarint(field.tag);
      writeValue(w, field, v);
    } catch (err) {
      throw annotate(err, `[${i}]`);
    }
  }
}

function writeMap(w: ProtoWriter, field: FieldInfo, map: unknown): void {
  if (!isRecord(map)) throw mismatch('an object', map);
  const keys = Object.keys(map);
  if (keys.length > 1) keys.sort();
  const valueTag = 16 + field.wireType;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    let v = map[key];
    if (v === null || v === undefined) {
      v = zeroOf(field.kind);
      if (v === null) continue;
    }
    try {
      w.uvarint(field.number * 8 + WIRE_LEN);
      const mark = w.fork();
      w.uvarint(MAP_KEY_TAG);
      w.string(key);
      w.uvarint(valueTag);
      writeValue(w, field, v);
      w.join(mark);
    } catch (err) {
      throw annotate(err, `[${key}]`);
    }
  }
}

/**
 * Writes the fields of `obj` described by `table` (the message content, without a length
 * prefix). Properties without a protobuf field number are not written. Throws
 * `ProtobufEncodeError` (with the field path) for values the schema's types cannot hold.
 */
export function encodeMessage(w: ProtoWriter, table: MessageTable, obj: JsonRecord): void {
  const fields = table.encodeOrder;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    // An inlined struct's fields are the object's own; Go always writes the embedded message.
    const v = field.inline ? obj : obj[field.name];
    if (v === undefined || v === null) continue;
    try {
      if (field.shape === FieldShape.Single) {
        // Go writes every non-pointer field; a zero of an omitempty field is left out (it reads back
        // as absent), a zero of a field Go always prints (`attached: false`) is written.
        if (!field.keepZero && isZero(field.kind, v)) continue;
        w.uvarint(field.tag);
        writeValue(w, field, v);
      } else if (field.shape === FieldShape.Repeated) {
        writeRepeated(w, field, v);
      } else {
        writeMap(w, field, v);
      }
    } catch (err) {
      throw annotate(err, field.name);
    }
  }
}
