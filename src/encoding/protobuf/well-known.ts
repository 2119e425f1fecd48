import { parseJson, stringifyJson } from '../../util/json-text.js';
import { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';
import { ValueKind } from './message-table.js';
import { formatEpochTime, parseEpochTime } from './timestamps.js';
import type { ProtoReader } from './wire-reader.js';
import { type ProtoWriter, WIRE_LEN, WIRE_VARINT } from './wire-writer.js';

/**
 * apimachinery's special messages, whose JSON form is not an object of their fields: Time and
 * MicroTime (`{int64 seconds = 1; int32 nanos = 2}`), IntOrString, Quantity, RawExtension and
 * FieldsV1. The writers emit the message content (the caller frames it); the readers get the
 * content's end and return the JSON value, or `undefined` where Go's JSON would print `null`.
 */

const MICROS_PER_SECOND = 1_000_000;
/** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the years Go's RFC 3339 JSON can print. */
const MIN_SECONDS = -62167219200;
const MAX_SECONDS = 253402300799;

/**
 * Skips a field other than the message's fields 1..`known`; those arriving with a wire type the
 * reader did not match are errors, as in Go's generated code.
 */
function other(r: ProtoReader, end: number, tag: number, known: number): void {
  const field = tag >>> 3;
  if (field >= 1 && field <= known) {
    throw new ProtobufDecodeError('wire-type', `wrong wire type ${tag & 7} for field ${field}`);
  }
  r.skip(tag & 7, end, field);
}

function writeTimestamp(w: ProtoWriter, value: unknown, micro: boolean): void {
  const t = typeof value === 'string' ? parseEpochTime(value) : undefined;
  if (!t) {
    throw new ProtobufEncodeError(`expected an RFC 3339 timestamp, got ${stringifyJson(value)}`);
  }
  // Go writes both fields always; Time drops the fraction (its JSON has whole seconds only),
  // MicroTime truncates it to microseconds.
  w.tag(1, WIRE_VARINT);
  w.svarint(t.seconds);
  w.tag(2, WIRE_VARINT);
  w.svarint(micro ? t.nanos - (t.nanos % 1000) : 0);
}

function readTimestamp(r: ProtoReader, end: number, micro: boolean): string | undefined {
  // An empty message is Go's zero time, which JSON prints as null.
  if (r.pos === end) return undefined;
  let seconds = 0;
  let nanos = 0;
  while (r.pos < end) {
    const tag = r.uint32(end);
    if (tag === 8) seconds = Number(r.int64(end));
    else if (tag === 16) nanos = r.int32(end);
    else other(r, end, tag, 2);
  }
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) {
    throw new ProtobufDecodeError('malformed', `timestamp ${seconds}s is outside years 0 to 9999`);
  }
  if (!micro) return formatEpochTime(seconds);
  // Go's time.Unix normalizes nanos outside [0, 1e9); MicroTime then truncates to microseconds.
  let micros = Math.trunc(nanos / 1000);
  seconds += Math.floor(micros / MICROS_PER_SECOND);
  micros = ((micros % MICROS_PER_SECOND) + MICROS_PER_SECOND) % MICROS_PER_SECOND;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) {
    throw new ProtobufDecodeError('malformed', `timestamp ${seconds}s is outside years 0 to 9999`);
  }
  return formatEpochTime(seconds, micros);
}

function writeIntOrString(w: ProtoWriter, value: unknown): void {
  // Go writes all three fields, the unused one as its zero value.
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
      throw new ProtobufEncodeError(`int-or-string: ${value} is not an int32`);
    }
    w.tag(1, WIRE_VARINT);
    w.uvarint(0);
    w.tag(2, WIRE_VARINT);
    w.svarint(value);
    w.tag(3, WIRE_LEN);
    w.string('');
    return;
  }
  if (typeof value !== 'string') throw new ProtobufEncodeError(`int-or-string: got ${stringifyJson(value)}`);
  w.tag(1, WIRE_VARINT);
  w.uvarint(1);
  w.tag(2, WIRE_VARINT);
  w.uvarint(0);
  w.tag(3, WIRE_LEN);
  w.string(value);
}

function readIntOrString(r: ProtoReader, end: number): number | string {
  let type = 0;
  let intVal = 0;
  let strVal = '';
  while (r.pos < end) {
    const tag = r.uint32(end);
    if (tag === 8) type = Number(r.int64(end));
    else if (tag === 16) intVal = r.int32(end);
    else if (tag === 26) strVal = r.string(end);
    else other(r, end, tag, 3);
  }
  return type === 1 ? strVal : intVal;
}

/** Writes `value` as JSON into field 1 (`bytes raw`). */
function writeJsonBytes(w: ProtoWriter, value: unknown, what: string): void {
  let json: string | undefined;
  try {
    json = stringifyJson(value);
  } catch (cause) {
    throw new ProtobufEncodeError(`${what}: value cannot be serialized as JSON`, { cause });
  }
  if (json === undefined) throw new ProtobufEncodeError(`${what}: value cannot be serialized as JSON`);
  w.tag(1, WIRE_LEN);
  w.string(json);
}

function readJsonBytes(r: ProtoReader, end: number, what: string): unknown {
  let raw: Uint8Array | undefined;
  while (r.pos < end) {
    const tag = r.uint32(end);
    if (tag === 10) raw = r.bytes(end);
    else other(r, end, tag, 1);
  }
  if (!raw || raw.length === 0) return undefined;
  try {
    return parseJson(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
  } catch (cause) {
    throw new ProtobufDecodeError('malformed', `${what} does not hold JSON`, { cause });
  }
}

/** Writes the content of a special message. `kind` must be one of the special kinds. */
export function writeSpecial(w: ProtoWriter, kind: ValueKind, value: unknown): void {
  switch (kind) {
    case ValueKind.Time:
      writeTimestamp(w, value, false);
      return;
    case ValueKind.MicroTime:
      writeTimestamp(w, value, true);
      return;
    case ValueKind.IntOrString:
      writeIntOrString(w, value);
      return;
    case ValueKind.Quantity:
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') {
        throw new ProtobufEncodeError(`quantity: got ${stringifyJson(value)}`);
      }
      w.tag(1, WIRE_LEN);
      w.string(String(value));
      return;
    case ValueKind.RawExtension:
      writeJsonBytes(w, value, 'RawExtension');
      return;
    case ValueKind.FieldsV1:
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new ProtobufEncodeError(`fieldsV1: expected an object, got ${stringifyJson(value)}`);
      }
      writeJsonBytes(w, value, 'FieldsV1');
      return;
    case ValueKind.StringList:
      if (!Array.isArray(value))
        throw new ProtobufEncodeError(`expected a list of strings, got ${stringifyJson(value)}`);
      for (const item of value) {
        if (typeof item !== 'string') {
          throw new ProtobufEncodeError(`expected a list of strings, got ${stringifyJson(value)}`);
        }
        w.tag(1, WIRE_LEN);
        w.string(item);
      }
      return;
    default:
      throw new Error(`not a special kind: ${kind}`);
  }
}

/** Reads the content of a special message that ends at `end`. */
export function readSpecial(r: ProtoReader, end: number, kind: ValueKind): unknown {
  switch (kind) {
    case ValueKind.Time:
      return readTimestamp(r, end, false);
    case ValueKind.MicroTime:
      return readTimestamp(r, end, true);
    case ValueKind.IntOrString:
      return readIntOrString(r, end);
    case ValueKind.Quantity: {
      let s = '';
      while (r.pos < end) {
        const tag = r.uint32(end);
        if (tag === 10) s = r.string(end);
        else other(r, end, tag, 1);
      }
      return s;
    }
    case ValueKind.RawExtension:
      return readJsonBytes(r, end, 'RawExtension');
    case ValueKind.FieldsV1: {
      const v = readJsonBytes(r, end, 'FieldsV1');
      if (v !== undefined && (v === null || typeof v !== 'object' || Array.isArray(v))) {
        throw new ProtobufDecodeError('malformed', 'FieldsV1 does not hold a JSON object');
      }
      return v ?? undefined;
    }
    case ValueKind.StringList: {
      const items: string[] = [];
      while (r.pos < end) {
        const tag = r.uint32(end);
        if (tag === 10) items.push(r.string(end));
        else other(r, end, tag, 1);
      }
      return items;
    }
    default:
      throw new Error(`not a special kind: ${kind}`);
  }
}
