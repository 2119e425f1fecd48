import { parse as parseYaml } from 'yaml';
import { encodeYaml } from '../yaml-encode.js';
import { ProtobufDecodeError } from './errors.js';
import type { ProtoReader } from './wire-reader.js';
import { type ProtoWriter, WIRE_FIXED64, WIRE_LEN, WIRE_VARINT } from './wire-writer.js';

/**
 * Protobuf messages described by field tables and read from / written to their JSON form, for
 * documents whose messages mirror JSON members (gnostic's OpenAPI models): scalars follow
 * proto3 (zero values are not written), `Any` carries the value's YAML text, `Named…` entry
 * lists stand for JSON objects, and `oneof`s pick their alternative from the value.
 */

export type Json = unknown;
type JsonMap = Record<string, Json>;

/** How one message is written and read. */
export interface MessageCodec {
  encode(w: ProtoWriter, v: Json): void;
  decode(r: ProtoReader, end: number): Json;
}
/** A codec resolved on use, so messages may refer to each other (and themselves). */
export type Lazy = () => MessageCodec;

/** A field's type: a proto3 scalar, `Any`, or a message (`many` for repeated). */
export type FieldType = 'string' | 'bool' | 'double' | 'int64' | 'any' | { readonly msg: Lazy };
export interface Field {
  readonly key: string;
  readonly num: number;
  readonly type: FieldType;
  readonly many?: boolean;
}

export const isMap = (v: Json): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

function writeValue(w: ProtoWriter, num: number, type: FieldType, v: Json, always: boolean): void {
  switch (type) {
    case 'string':
      if (typeof v === 'string' && (always || v !== '')) {
        w.tag(num, WIRE_LEN);
        w.string(v);
      }
      return;
    case 'bool':
      if (typeof v === 'boolean' && (always || v)) {
        w.tag(num, WIRE_VARINT);
        w.uvarint(v ? 1 : 0);
      }
      return;
    case 'double':
      if (typeof v === 'number' && (always || v !== 0)) {
        w.tag(num, WIRE_FIXED64);
        w.double(v);
      }
      return;
    case 'int64':
      if (typeof v === 'number' && Number.isInteger(v) && (always || v !== 0)) {
        w.tag(num, WIRE_VARINT);
        w.svarint(v);
      }
      return;
    default: {
      const codec = type === 'any' ? ANY : type.msg();
      w.tag(num, WIRE_LEN);
      const mark = w.fork();
      codec.encode(w, v);
      w.join(mark);
    }
  }
}

function readValue(r: ProtoReader, end: number, type: FieldType, wire: number, num: number): Json {
  const expected = type === 'bool' || type === 'int64' ? WIRE_VARINT : type === 'double' ? WIRE_FIXED64 : WIRE_LEN;
  if (wire !== expected) throw new ProtobufDecodeError('malformed', `field ${num}: unexpected wire type ${wire}`);
  switch (type) {
    case 'string':
      return r.string(end);
    case 'bool':
      return r.bool(end);
    case 'double':
      return r.double(end);
    case 'int64':
      return r.int64(end);
    default: {
      const valueEnd = r.delimited(end);
      const v = (type === 'any' ? ANY : type.msg()).decode(r, valueEnd);
      r.pos = valueEnd;
      return v;
    }
  }
}

/** Reads every field of a message up to `end`, handing each to `on`; unknown fields are skipped. */
function readFields(r: ProtoReader, end: number, on: (num: number, wire: number) => boolean): void {
  while (r.pos < end) {
    const key = r.uint32(end);
    const num = Math.floor(key / 8);
    const wire = key & 7;
    if (!on(num, wire)) r.skip(wire, end, num);
  }
}

/** `Any`: gnostic keeps the value's YAML text in field 2. */
const ANY: MessageCodec = {
  encode(w, v) {
    writeValue(w, 2, 'string', encodeYaml(v), false);
  },
  decode(r, end) {
    let yaml = '';
    readFields(r, end, (num, wire) => {
      if (num !== 2 || wire !== WIRE_LEN) return false;
      yaml = r.string(end);
      return true;
    });
    return parseYaml(yaml) as Json;
  },
};

/** `{ name = 1; value = 2 }` entries, one per member of a JSON object. */
function namedEntry(valueType: FieldType): Lazy {
  const codec: MessageCodec = {
    encode(w, v) {
      const [name, value] = v as [string, Json];
      writeValue(w, 1, 'string', name, false);
      writeValue(w, 2, valueType, value, true);
    },
    decode(r, end) {
      let name = '';
      let value: Json;
      readFields(r, end, (num, wire) => {
        if (num === 1) name = readValue(r, end, 'string', wire, num) as string;
        else if (num === 2) value = readValue(r, end, valueType, wire, num);
        else return false;
        return true;
      });
      return [name, value];
    },
  };
  return () => codec;
}

const NAMED_ANY = namedEntry('any');

/**
 * A message of scalar and message fields keyed by JSON member name, written in field-number
 * order; members `x-…` go to the repeated `NamedAny` field `vendor` when the message has one.
 */
export function message(fields: readonly Field[], vendor?: number): Lazy {
  const byNum = new Map(fields.map((fd) => [fd.num, fd]));
  const ordered = [...fields].sort((a, b) => a.num - b.num);
  const codec: MessageCodec = {
    encode(w, v) {
      if (!isMap(v)) return;
      for (const fd of ordered) {
        const x = v[fd.key];
        if (x === undefined) continue;
        if (!fd.many) writeValue(w, fd.num, fd.type, x, typeof fd.type === 'object' || fd.type === 'any');
        else if (Array.isArray(x)) for (const item of x) writeValue(w, fd.num, fd.type, item, true);
      }
      // Every gnostic message numbers its vendor extensions last.
      if (vendor === undefined) return;
      for (const [k, x] of Object.entries(v)) {
        if (k.startsWith('x-')) writeValue(w, vendor, { msg: NAMED_ANY }, [k, x], true);
      }
    },
    decode(r, end) {
      const out: JsonMap = {};
      readFields(r, end, (num, wire) => {
        if (num === vendor) {
          const [k, x] = readValue(r, end, { msg: NAMED_ANY }, wire, num) as [string, Json];
          out[k] = x;
          return true;
        }
        const fd = byNum.get(num);
        if (!fd) return false;
        const x = readValue(r, end, fd.type, wire, num);
        if (!fd.many) out[fd.key] = x;
        else if (Array.isArray(out[fd.key])) (out[fd.key] as Json[]).push(x);
        else out[fd.key] = [x];
        return true;
      });
      return out;
    },
  };
  return () => codec;
}

/**
 * A JSON object as repeated `Named…` entries in field `entries`; with `vendor`, members `x-…` are
 * vendor extensions instead (paths, responses).
 */
export function namedMap(valueType: FieldType, entries = 1, vendor?: number): Lazy {
  const entry = namedEntry(valueType);
  const codec: MessageCodec = {
    encode(w, v) {
      if (!isMap(v)) return;
      const all = Object.entries(v);
      const ext = vendor === undefined ? [] : all.filter(([k]) => k.startsWith('x-'));
      const own = vendor === undefined ? all : all.filter(([k]) => !k.startsWith('x-'));
      const write = (num: number, lazy: Lazy, list: [string, Json][]) => {
        for (const e of list) writeValue(w, num, { msg: lazy }, e, true);
      };
      if (vendor !== undefined && vendor < entries) write(vendor, NAMED_ANY, ext);
      write(entries, entry, own);
      if (vendor !== undefined && vendor > entries) write(vendor, NAMED_ANY, ext);
    },
    decode(r, end) {
      const out: JsonMap = {};
      readFields(r, end, (num, wire) => {
        const lazy = num === entries ? entry : num === vendor ? NAMED_ANY : undefined;
        if (!lazy) return false;
        const [k, x] = readValue(r, end, { msg: lazy }, wire, num) as [string, Json];
        out[k] = x;
        return true;
      });
      return out;
    },
  };
  return () => codec;
}

/** A `oneof`: `choose` picks the alternative (field number) a JSON value is written as. */
export function oneof(alternatives: Readonly<Record<number, FieldType>>, choose: (v: Json) => number): Lazy {
  const codec: MessageCodec = {
    encode(w, v) {
      const num = choose(v);
      writeValue(w, num, alternatives[num], v, true);
    },
    decode(r, end) {
      let out: Json;
      readFields(r, end, (num, wire) => {
        const type = alternatives[num];
        if (type === undefined) return false;
        out = readValue(r, end, type, wire, num);
        return true;
      });
      return out;
    },
  };
  return () => codec;
}

/**
 * A message of one repeated field (1) holding a JSON list; with `collapse`, a JSON value that
 * may be one item or a list (`type`, `items`), one item decoding as itself.
 */
export function repeated(type: FieldType, collapse: boolean): Lazy {
  const codec: MessageCodec = {
    encode(w, v) {
      for (const item of Array.isArray(v) ? v : [v]) writeValue(w, 1, type, item, true);
    },
    decode(r, end) {
      const items: Json[] = [];
      readFields(r, end, (num, wire) => {
        if (num !== 1) return false;
        items.push(readValue(r, end, type, wire, num));
        return true;
      });
      return collapse && items.length === 1 ? items[0] : items;
    },
  };
  return () => codec;
}

/** A field: JSON member `key` at field `num`; `many` for repeated fields. */
export const f = (key: string, num: number, type: FieldType, many = false): Field => ({ key, num, type, many });
/** A message-typed field. */
export const m = (lazy: Lazy): FieldType => ({ msg: lazy });
