import { isPlainObject } from './json-value.js';
import type { Schema } from './schema.js';

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
  const root = shortName(schema);
  if (!root || !isPlainObject(value)) return undefined;
  return visitStruct(schema, value, root, []);
}

function visitStruct(
  schema: Schema,
  value: Record<string, unknown>,
  struct: string,
  fields: string[],
): string | undefined {
  const properties = schema.properties;
  if (!properties || schema['x-orch-preserve-unknown-fields']) return undefined;
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(properties, key)) continue;
    fields.push(key);
    const err = visitValue(properties[key]!, value[key], struct, fields);
    fields.pop();
    if (err) return err;
  }
  return undefined;
}

/** A field's value (or an item or map value of it): `struct` and `fields` name the field. */
function visitValue(schema: Schema, value: unknown, struct: string, fields: string[]): string | undefined {
  if (value === null || value === undefined || !isChecked(schema)) return undefined;
  const kind = jsonKind(value);
  const expected = expectedKind(schema);
  if (expected === undefined) return undefined;
  if (kind !== expected) {
    const type = goTypeName(schema);
    if (type === undefined) return undefined;
    return `json: cannot unmarshal ${kind} into Go struct field ${struct}.${fields.join('.')} of type ${type}`;
  }
  if (kind === 'array') {
    const items = schema.items;
    if (!items) return undefined;
    for (const item of value as unknown[]) {
      const err = visitValue(items, item, struct, fields);
      if (err) return err;
    }
    return undefined;
  }
  if (kind !== 'object') return undefined;
  const obj = value as Record<string, unknown>;
  if (schema.properties) {
    const name = shortName(schema);
    return name ? visitStruct(schema, obj, name, fields) : undefined;
  }
  const values = schema.additionalProperties;
  if (typeof values !== 'object') return undefined;
  for (const key of Object.keys(obj)) {
    const err = visitValue(values, obj[key], struct, fields);
    if (err) return err;
  }
  return undefined;
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

/** `v1.PodSpec` from `io.orch.api.core.v1.PodSpec`: Go's package-qualified type name. */
function shortName(schema: Schema): string | undefined {
  const name = schema['x-orch-type-name'];
  if (!name) return undefined;
  const parts = name.split('.');
  return parts.length < 2 ? name : parts[parts.length - 1];
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
