import {
  goIntegerDecodeError,
  goUnmarshalError,
  integerDecodeErrorWithin,
  outOfRange,
  structName,
} from './go-integer-decode.js';
import { isPlainObject } from './json-value.js';
import type { Schema } from './schema.js';

/**
 * What Go's decoder reports for a body of a compiled-in kind: the first value, in document
 * order, that {@link goTypeDecodeError} or `goIntegerDecodeError` would report (Go keeps the first
 * error it meets and reads on), in one walk of the body. `undefined` when every value fits.
 */
export function goDecodeError(schema: Schema, value: unknown): string | undefined {
  if (!schema['x-orch-type-name']) return goIntegerDecodeError(schema, value);
  if (!isPlainObject(value)) return undefined;
  return decodeStruct(schema, value, [], KINDS_AND_INTEGERS);
}

/** Which checks a walk makes: JSON kinds always, integer ranges when `integers`. */
interface Checks {
  readonly integers: boolean;
}
const KINDS_AND_INTEGERS: Checks = { integers: true };
const KINDS_ONLY: Checks = { integers: false };

/** The integer check of a subtree whose kinds are not checked (none in a kinds-only walk). */
function integersWithin(checks: Checks, schema: Schema, value: unknown, struct: Schema, fields: string[]) {
  return checks.integers ? integerDecodeErrorWithin(schema, value, struct, fields) : undefined;
}

/** A struct's fields, both checks; `schema` is the struct (it names the fields' errors). */
function decodeStruct(
  schema: Schema,
  value: Record<string, unknown>,
  fields: string[],
  checks: Checks,
): string | undefined {
  const properties = schema.properties;
  if (!properties || schema['x-orch-preserve-unknown-fields'])
    return integersWithin(checks, schema, value, schema, fields);
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(properties, key)) continue;
    fields.push(key);
    const err = decodeValue(properties[key]!, value[key], schema, fields, checks);
    fields.pop();
    if (err) return err;
  }
  return undefined;
}

/** A field's value (or an item or map value of it) in `struct`, both checks. */
function decodeValue(
  schema: Schema,
  value: unknown,
  struct: Schema,
  fields: string[],
  checks: Checks,
): string | undefined {
  if (value === null || value === undefined) return undefined;
  // Where the kind is not checked, integers still are (as goIntegerDecodeError walks).
  const expected = isChecked(schema) ? expectedKind(schema) : undefined;
  if (expected === undefined) return integersWithin(checks, schema, value, struct, fields);
  const kind = jsonKind(value);
  if (kind !== expected) {
    // Go skips a value of the wrong kind: nothing inside it is read.
    const type = goTypeName(schema);
    return type === undefined ? undefined : goUnmarshalError(kind, structName(struct), fields, type);
  }
  switch (kind) {
    case 'number': {
      // The struct's name is worded only for an error: most numbers fit.
      const format = checks.integers ? outOfRange(schema, value as number | bigint) : undefined;
      return format && goUnmarshalError(`number ${value}`, structName(struct), fields, format);
    }
    case 'array': {
      const items = schema.items;
      if (!items) return undefined;
      for (const item of value as unknown[]) {
        const err = decodeValue(items, item, struct, fields, checks);
        if (err) return err;
      }
      return undefined;
    }
    case 'object': {
      const obj = value as Record<string, unknown>;
      if (schema.properties) {
        return schema['x-orch-type-name']
          ? decodeStruct(schema, obj, fields, checks)
          : integersWithin(checks, schema, obj, struct, fields);
      }
      const values = schema.additionalProperties;
      if (typeof values !== 'object') return undefined;
      for (const key of Object.keys(obj)) {
        const err = decodeValue(values, obj[key], struct, fields, checks);
        if (err) return err;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Why kube-apiserver's decoder could not read `value` into the compiled-in Go type `schema`
 * describes, as far as JSON kinds go: the first value (in document order) whose kind its field
 * cannot hold, worded as Go's `encoding/json` words it, e.g. `json: cannot unmarshal string into
 * Go struct field Pod.spec of type v1.PodSpec` — the innermost struct's name, the JSON names of
 * the fields from the root (list positions and map keys are not part of it), and the Go type.
 * `null` fits every field. Returns `undefined` when every value fits.
 *
 * Conservative: types with a decoder of their own (quantities, times, int-or-string, raw JSON:
 * nodes that are named but not structs, or keep unknown fields) are left to validation, as is a
 * field whose Go type cannot be named from the schema. A named string type (`v1.RestartPolicy`)
 * is named `string` here. Integer ranges are `goIntegerDecodeError`'s. Pure.
 */
export function goTypeDecodeError(schema: Schema, value: unknown): string | undefined {
  if (!schema['x-orch-type-name'] || !isPlainObject(value)) return undefined;
  return decodeStruct(schema, value, [], KINDS_ONLY);
}

/** Nodes decoded by Go's plain rules: not a type with its own decoder, not free-form. */
function isChecked(schema: Schema): boolean {
  if (schema['x-orch-int-or-string'] || schema['x-orch-preserve-unknown-fields']) return false;
  if (schema['x-orch-embedded-resource']) return false;
  // A named type that is not a struct (Quantity, Time, MicroTime, Duration) decodes itself.
  if (schema['x-orch-type-name'] && !schema.properties) return false;
  return schema.format !== 'byte' && schema.format !== 'date-time';
}

type JsonKind = 'string' | 'number' | 'bool' | 'object' | 'array';

function jsonKind(value: unknown): JsonKind {
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

function expectedKind(schema: Schema): JsonKind | undefined {
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    case 'array':
      return 'array';
    case 'object':
      return 'object';
    default:
      return undefined;
  }
}

function goTypeName(schema: Schema): string | undefined {
  const named = schema['x-orch-type-name'];
  if (named) {
    const parts = named.split('.');
    return parts.length < 2 ? named : `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
  }
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return schema.format === 'int32' ? 'int32' : schema.format === 'int64' ? 'int64' : undefined;
    case 'number':
      return 'float64';
    case 'array': {
      const item = schema.items ? goTypeName(schema.items) : undefined;
      return item === undefined ? undefined : `[]${item}`;
    }
    case 'object': {
      if (schema.properties || typeof schema.additionalProperties !== 'object') return undefined;
      const item = goTypeName(schema.additionalProperties);
      return item === undefined ? undefined : `map[string]${item}`;
    }
    default:
      return undefined;
  }
}
