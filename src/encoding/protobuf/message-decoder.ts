import { annotate, ProtobufDecodeError } from './errors.js';
import { type FieldInfo, FieldShape, type MessageTable, ValueKind } from './message-table.js';
import { readSpecial } from './well-known.js';
import type { ProtoReader } from './wire-reader.js';
import { WIRE_LEN } from './wire-writer.js';

/**
 * Schema-driven message decoding: protobuf to JSON-shaped objects whose keys follow the schema's
 * property order (Go's struct order, so JSON output looks like kube's). Unknown fields are
 * skipped. Zero scalars of fields without explicit presence are dropped, as Go's `omitempty`
 * drops them from JSON; fields Go always prints keep them. A message field that occurs twice is
 * merged, repeated fields append and maps add entries, as protobuf specifies.
 */

type JsonRecord = Record<string, unknown>;

function wrongWireType(field: FieldInfo, wireType: number): ProtobufDecodeError {
  return new ProtobufDecodeError(
    'wire-type',
    `wrong wire type ${wireType} for field ${field.number} (expected ${field.wireType})`,
  );
}

function isZeroScalar(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

/**
 * Scalars whose zero value Go's `omitempty` leaves out. An int-or-string (a Go struct) is kept
 * even when it holds 0: `maxSurge: 0` is a value, not an absence.
 */
function isScalarKind(kind: ValueKind): boolean {
  return (
    kind === ValueKind.String ||
    kind === ValueKind.Bytes ||
    kind === ValueKind.Bool ||
    kind === ValueKind.Int32 ||
    kind === ValueKind.Int64 ||
    kind === ValueKind.Double ||
    kind === ValueKind.Float
  );
}

function isPackable(kind: ValueKind): boolean {
  return (
    kind === ValueKind.Bool ||
    kind === ValueKind.Int32 ||
    kind === ValueKind.Int64 ||
    kind === ValueKind.Double ||
    kind === ValueKind.Float
  );
}

/** Sets an own property, also for the key `__proto__` (a valid ConfigMap key). */
function setEntry(obj: JsonRecord, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** Reads one value of `field.kind`, its tag (with a matching wire type) already read. */
function readValue(r: ProtoReader, end: number, field: FieldInfo, previous: unknown): unknown {
  switch (field.kind) {
    case ValueKind.String:
      return r.string(end);
    case ValueKind.Bytes:
      return r.base64(end);
    case ValueKind.Bool:
      return r.bool(end);
    case ValueKind.Int32:
      return r.int32(end);
    case ValueKind.Int64:
      return r.int64(end);
    case ValueKind.Double:
      return r.double(end);
    case ValueKind.Float:
      return r.float(end);
    case ValueKind.Message: {
      const valueEnd = r.delimited(end);
      return decodeMessage(r, valueEnd, field.message!, previous as JsonRecord | undefined);
    }
    default: {
      const valueEnd = r.delimited(end);
      const v = readSpecial(r, valueEnd, field.kind);
      r.pos = valueEnd;
      return v;
    }
  }
}

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
    default:
      return kind === ValueKind.Time || kind === ValueKind.MicroTime ? null : 0;
  }
}

function readRepeated(r: ProtoReader, end: number, field: FieldInfo, wireType: number, list: unknown[]): void {
  if (wireType === field.wireType) {
    try {
      list.push(readValue(r, end, field, undefined));
    } catch (err) {
      throw annotate(err, `[${list.length}]`);
    }
    return;
  }
  if (wireType !== WIRE_LEN || !isPackable(field.kind)) throw wrongWireType(field, wireType);
  // Packed encoding (proto3 writers): many scalars in one length-delimited value.
  const packedEnd = r.delimited(end);
  while (r.pos < packedEnd) {
    try {
      list.push(readValue(r, packedEnd, field, undefined));
    } catch (err) {
      throw annotate(err, `[${list.length}]`);
    }
  }
}

function readMapEntry(r: ProtoReader, end: number, field: FieldInfo, map: JsonRecord): void {
  const entryEnd = r.delimited(end);
  let key = '';
  let value: unknown;
  try {
    while (r.pos < entryEnd) {
      const tag = r.uint32(entryEnd);
      if (tag === 10) key = r.string(entryEnd);
      else if (tag >>> 3 === 2) {
        if ((tag & 7) !== field.wireType) throw wrongWireType(field, tag & 7);
        value = readValue(r, entryEnd, field, value);
      } else if (tag >>> 3 === 1) {
        throw new ProtobufDecodeError('wire-type', `wrong wire type ${tag & 7} for map key`);
      } else {
        r.skip(tag & 7, entryEnd, tag >>> 3);
      }
    }
  } catch (err) {
    throw annotate(err, `[${key}]`);
  }
  setEntry(map, key, value === undefined ? zeroOf(field.kind) : value);
}

/**
 * Decodes the message content between `r.pos` and `end` into a new object (or, when `previous`
 * is given, into a merge of it and the new fields). The fields are added to `out` when given
 * (after the keys it already has), else to a new object. Throws `ProtobufDecodeError` naming
 * the field path for truncated input, wrong wire types and other malformed data.
 */
export function decodeMessage(
  r: ProtoReader,
  end: number,
  table: MessageTable,
  previous?: JsonRecord,
  out: JsonRecord = {},
): JsonRecord {
  const fields = table.fields;
  const index = table.indexByNumber;
  const values: unknown[] = new Array(fields.length);
  if (previous) {
    for (let i = 0; i < fields.length; i++) values[i] = fields[i].inline ? previous : previous[fields[i].name];
  }
  let field: FieldInfo | undefined;
  try {
    while (r.pos < end) {
      const tag = r.uint32(end);
      const number = tag >>> 3;
      const wireType = tag & 7;
      const i = number < index.length ? index[number] : -1;
      if (i < 0) {
        if (number === 0) throw new ProtobufDecodeError('malformed', 'field number 0');
        r.skip(wireType, end, number);
        continue;
      }
      field = fields[i];
      if (field.shape === FieldShape.Single) {
        if (wireType !== field.wireType) throw wrongWireType(field, wireType);
        const v = readValue(r, end, field, values[i]);
        values[i] = v === undefined || (!field.keepZero && isScalarKind(field.kind) && isZeroScalar(v)) ? undefined : v;
      } else if (field.shape === FieldShape.Repeated) {
        let list = values[i] as unknown[] | undefined;
        if (list === undefined) values[i] = list = [];
        readRepeated(r, end, field, wireType, list);
      } else {
        if (wireType !== WIRE_LEN) throw wrongWireType(field, wireType);
        let map = values[i] as JsonRecord | undefined;
        if (map === undefined) values[i] = map = {};
        readMapEntry(r, end, field, map);
      }
      field = undefined;
    }
  } catch (err) {
    throw field ? annotate(err, field.name) : err;
  }
  for (let i = 0; i < fields.length; i++) {
    const v = values[i];
    if (v === undefined) continue;
    if (!fields[i].inline) out[fields[i].name] = v;
    // An inlined struct's fields belong to this object (JSON flattens them).
    else for (const [key, inner] of Object.entries(v as JsonRecord)) out[key] = inner;
  }
  return out;
}
