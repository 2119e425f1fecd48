import type { Schema } from '../../apis/schema/schema.js';
import { ProtobufSchemaError } from './errors.js';
import { WIRE_FIXED32, WIRE_FIXED64, WIRE_LEN, WIRE_VARINT } from './wire-writer.js';

/**
 * The per-schema field tables the encoder and decoder walk. A table is compiled once per schema
 * object and memoized in a WeakMap: schemas are immutable constants, so the table is a pure
 * function of its key and the memo is invisible to callers.
 */

/** How one value travels: a scalar, an embedded message, or one of apimachinery's special messages. */
export const ValueKind = {
  String: 0,
  /** JSON: base64 string; protobuf: bytes. */
  Bytes: 1,
  Bool: 2,
  Int32: 3,
  Int64: 4,
  Double: 5,
  Float: 6,
  Message: 7,
  /** JSON: RFC 3339 string (seconds); protobuf: `{int64 seconds = 1; int32 nanos = 2}`. */
  Time: 8,
  /** Same message as Time; JSON keeps microseconds. */
  MicroTime: 9,
  /** `{int64 type = 1; int32 intVal = 2; string strVal = 3}`. */
  IntOrString: 10,
  /** `{string string = 1}`. */
  Quantity: 11,
  /** `{bytes raw = 1}` holding the JSON of the value. */
  RawExtension: 12,
  /** `{bytes Raw = 1}` holding the JSON of the fields trie. */
  FieldsV1: 13,
  /** A map's list-of-strings value, as apimachinery wraps it: `{repeated string items = 1}` (ExtraValue). */
  StringList: 14,
} as const;
export type ValueKind = (typeof ValueKind)[keyof typeof ValueKind];

/** Whether a field holds one value, a repeated field's elements, or a map's entries (`key = 1; value = 2`). */
export const FieldShape = { Single: 0, Repeated: 1, Map: 2 } as const;
export type FieldShape = (typeof FieldShape)[keyof typeof FieldShape];

export interface FieldInfo {
  /** JSON property name. */
  readonly name: string;
  /** Protobuf field number. */
  readonly number: number;
  readonly shape: FieldShape;
  /** Kind of the value, of each element (repeated) or of each map value. */
  readonly kind: ValueKind;
  /** Wire type of one value of `kind`. */
  readonly wireType: number;
  /** The field key of one value: `number << 3 | wireType`. */
  readonly tag: number;
  /** The embedded message's table, for `ValueKind.Message`. */
  readonly message: MessageTable | undefined;
  /** Go pointer field: zero scalars are set values and travel; otherwise they mean "unset". */
  readonly explicit: boolean;
  /**
   * Decoding keeps a zero scalar, encoding writes it: explicit presence, or a field Go always
   * prints (no `omitempty`), which is required or defaults to its zero value.
   */
  readonly keepZero: boolean;
  /**
   * A struct Go embeds inline (`x-orch-protobuf-inline`): the message is made of the parent's own
   * (flattened) properties, so the encoder passes the parent object and the decoder spreads the
   * decoded fields into it. `name` is then no JSON property.
   */
  readonly inline: boolean;
}

export interface MessageTable {
  /** The type name (`x-orch-type-name`), for messages. */
  readonly typeName: string;
  /** Fields in schema property order: the order decoded objects get their keys in. */
  readonly fields: readonly FieldInfo[];
  /** Fields by ascending number: the order Go writes them in. */
  readonly encodeOrder: readonly FieldInfo[];
  /** Index into `fields` by field number, -1 for numbers the schema does not have. */
  readonly indexByNumber: Int16Array;
}

/** Largest field number the dense index covers; protobuf allows more, apimachinery never uses them. */
const MAX_DENSE_FIELD = 4096;

const memo = new WeakMap<Schema, MessageTable>();

interface KindInfo {
  kind: ValueKind;
  wireType: number;
  message: MessageTable | undefined;
}

function scalar(kind: ValueKind, wireType: number): KindInfo {
  return { kind, wireType, message: undefined };
}

const SPECIAL_KINDS: Readonly<Record<NonNullable<Schema['x-orch-protobuf-message']>, ValueKind>> = {
  Time: ValueKind.Time,
  MicroTime: ValueKind.MicroTime,
  IntOrString: ValueKind.IntOrString,
  Quantity: ValueKind.Quantity,
  RawExtension: ValueKind.RawExtension,
  FieldsV1: ValueKind.FieldsV1,
};

function valueKind(schema: Schema, where: string): KindInfo {
  const special = schema['x-orch-protobuf-message'];
  if (special) return scalar(SPECIAL_KINDS[special], WIRE_LEN);
  if (schema['x-orch-int-or-string']) return scalar(ValueKind.IntOrString, WIRE_LEN);
  switch (schema.type) {
    case 'string':
      if (schema.format === 'byte') return scalar(ValueKind.Bytes, WIRE_LEN);
      if (schema['x-orch-time-precision'] === 'microsecond') return scalar(ValueKind.MicroTime, WIRE_LEN);
      if (schema['x-orch-time-precision'] === 'second' || schema.format === 'date-time') {
        return scalar(ValueKind.Time, WIRE_LEN);
      }
      return scalar(ValueKind.String, WIRE_LEN);
    case 'boolean':
      return scalar(ValueKind.Bool, WIRE_VARINT);
    case 'integer':
      return scalar(schema.format === 'int32' ? ValueKind.Int32 : ValueKind.Int64, WIRE_VARINT);
    case 'number':
      return schema.format === 'float' ? scalar(ValueKind.Float, WIRE_FIXED32) : scalar(ValueKind.Double, WIRE_FIXED64);
    case 'object':
      if (schema.additionalProperties !== undefined || schema['x-orch-preserve-unknown-fields']) {
        throw new ProtobufSchemaError(`${where}: a map or free-form object cannot be a message value`);
      }
      return { kind: ValueKind.Message, wireType: WIRE_LEN, message: compileMessageTable(schema) };
    default:
      throw new ProtobufSchemaError(`${where}: no protobuf encoding for schema type ${String(schema.type)}`);
  }
}

/**
 * A scalar whose default is its zero value: in kube's schemas, the default openapi-gen gives a
 * field without `omitempty` (Event `reportingComponent: ""`), which Go always prints.
 */
function defaultsToZero(schema: Schema): boolean {
  const d = schema.default;
  if (schema.type === 'string') return d === '';
  if (schema.type === 'integer' || schema.type === 'number') return d === 0;
  return schema.type === 'boolean' && d === false;
}

function compileField(name: string, schema: Schema, required: boolean, where: string): FieldInfo | undefined {
  const number = schema['x-orch-protobuf-field'];
  if (number === undefined) return undefined;
  if (!Number.isInteger(number) || number < 1 || number > MAX_DENSE_FIELD) {
    throw new ProtobufSchemaError(`${where}: protobuf field number ${number} out of range`);
  }
  const explicit = schema['x-orch-protobuf-presence'] === 'explicit';
  let shape: FieldShape = FieldShape.Single;
  let info: KindInfo;
  const isMap =
    schema.type === 'object' &&
    typeof schema.additionalProperties === 'object' &&
    !schema.properties &&
    !schema['x-orch-protobuf-message'];
  if (schema.type === 'array') {
    if (!schema.items || schema.items.type === 'array') {
      throw new ProtobufSchemaError(`${where}: arrays need non-array items to have a protobuf encoding`);
    }
    shape = FieldShape.Repeated;
    info = valueKind(schema.items, `${where}[]`);
  } else if (isMap) {
    shape = FieldShape.Map;
    const value = schema.additionalProperties as Schema;
    if (value.type === 'array' && value.items?.type === 'string' && !value.items.format) {
      info = scalar(ValueKind.StringList, WIRE_LEN);
    } else if (value.type === 'array' || (value.type === 'object' && value.additionalProperties !== undefined)) {
      throw new ProtobufSchemaError(`${where}: map values must not be lists (other than of strings) or maps`);
    } else {
      info = valueKind(value, `${where}{}`);
    }
  } else {
    info = valueKind(schema, where);
  }
  return {
    name,
    number,
    shape,
    kind: info.kind,
    wireType: info.wireType,
    tag: number * 8 + info.wireType,
    message: info.message,
    explicit,
    keepZero: explicit || required || defaultsToZero(schema),
    inline: false,
  };
}

type InlineGroup = NonNullable<Schema['x-orch-protobuf-inline']>[number];

/** The field of an inlined struct: a message of the listed properties of `schema`. */
function compileInline(schema: Schema, group: InlineGroup, typeName: string): FieldInfo {
  const where = `${typeName}.<inline ${group.field}>`;
  if (!Number.isInteger(group.field) || group.field < 1 || group.field > MAX_DENSE_FIELD) {
    throw new ProtobufSchemaError(`${where}: protobuf field number out of range`);
  }
  const properties: Record<string, Schema> = {};
  for (const name of group.properties) {
    const prop = schema.properties?.[name];
    if (!prop) throw new ProtobufSchemaError(`${where}: no property ${name}`);
    properties[name] = prop;
  }
  const required = (schema.required ?? []).filter((name) => group.properties.includes(name));
  const message = compileMessageTable({
    type: 'object',
    'x-orch-type-name': where,
    properties,
    ...(required.length > 0 ? { required } : {}),
  });
  return {
    name: where,
    number: group.field,
    shape: FieldShape.Single,
    kind: ValueKind.Message,
    wireType: WIRE_LEN,
    tag: group.field * 8 + WIRE_LEN,
    message,
    explicit: false,
    keepZero: false,
    inline: true,
  };
}

/**
 * The field table of an object schema: every property with `x-orch-protobuf-field` (others,
 * such as the envelope's `apiVersion` and `kind`, are not part of the message). Throws
 * `ProtobufSchemaError` for shapes protobuf cannot carry and for duplicate field numbers.
 */
export function compileMessageTable(schema: Schema): MessageTable {
  const cached = memo.get(schema);
  if (cached) return cached;
  const typeName = schema['x-orch-type-name'] ?? 'message';
  const fields: FieldInfo[] = [];
  const table: { -readonly [K in keyof MessageTable]: MessageTable[K] } = {
    typeName,
    fields,
    encodeOrder: [],
    indexByNumber: new Int16Array(0),
  };
  // Registered before its fields compile, so self-referencing schemas terminate.
  memo.set(schema, table);
  try {
    const required = schema.required ?? [];
    const inlineOf = new Map<string, InlineGroup>();
    for (const group of schema['x-orch-protobuf-inline'] ?? []) {
      for (const name of group.properties) inlineOf.set(name, group);
    }
    const placed = new Set<InlineGroup>();
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      const group = inlineOf.get(name);
      if (group) {
        // The inlined struct sits where its first property is, so decoded keys keep schema order.
        if (!placed.has(group)) fields.push(compileInline(schema, group, typeName));
        placed.add(group);
        continue;
      }
      const field = compileField(name, prop, required.includes(name), `${typeName}.${name}`);
      if (field) fields.push(field);
    }
    const encodeOrder = [...fields].sort((a, b) => a.number - b.number);
    for (let i = 1; i < encodeOrder.length; i++) {
      if (encodeOrder[i].number === encodeOrder[i - 1].number) {
        throw new ProtobufSchemaError(`${typeName}: protobuf field number ${encodeOrder[i].number} used twice`);
      }
    }
    const max = encodeOrder.length > 0 ? encodeOrder[encodeOrder.length - 1].number : 0;
    const indexByNumber = new Int16Array(max + 1).fill(-1);
    fields.forEach((f, i) => {
      indexByNumber[f.number] = i;
    });
    table.encodeOrder = encodeOrder;
    table.indexByNumber = indexByNumber;
    return table;
  } catch (err) {
    memo.delete(schema);
    throw err;
  }
}
