import { INTEGER_FORMAT_BOUNDS } from './formats.js';
import { isPlainObject } from './json-value.js';
import type { Schema } from './schema.js';

/**
 * Why kube-apiserver's decoder could not read `value` into the compiled-in Go type `schema`
 * describes, as far as integers go: the first integer (in document order) outside the range of
 * its `int32` or `int64` field, reported as Go's `encoding/json` words it,
 * `json: cannot unmarshal number 9223372036854775808 into Go struct field
 * ObjectMeta.metadata.generation of type int64` — the innermost struct's name, then the JSON
 * names of the fields from the root (list positions and map keys are not part of it). Returns
 * `undefined` when every integer fits.
 *
 * Only compiled-in types decode this way (kube answers 400 for them); a custom resource is
 * decoded without a type, and its schema validation reports such values instead (422). Other
 * type mismatches are left to schema validation. Pure.
 */
export function goIntegerDecodeError(schema: Schema, value: unknown): string | undefined {
  return visit(schema, value, { struct: structName(schema), fields: [] });
}

interface Where {
  readonly struct: string;
  readonly fields: readonly string[];
}

function visit(schema: Schema, value: unknown, where: Where): string | undefined {
  if (typeof value === 'number' || typeof value === 'bigint') return integerError(schema, value, where);
  if (Array.isArray(value)) {
    if (!schema.items) return undefined;
    for (const item of value) {
      const err = visit(schema.items, item, where);
      if (err) return err;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  const properties = schema.properties;
  const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (!properties && !values) return undefined;
  const struct = structName(schema) || where.struct;
  for (const key of Object.keys(value)) {
    const field = properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
    // Go names struct fields in the path, never map keys.
    const err = field
      ? visit(field, value[key], { struct, fields: [...where.fields, key] })
      : values && visit(values, value[key], where);
    if (err) return err;
  }
  return undefined;
}

function integerError(schema: Schema, value: number | bigint, where: Where): string | undefined {
  if (schema.type !== 'integer' || schema['x-orch-int-or-string']) return undefined;
  const format = schema.format;
  const bounds = format === undefined ? undefined : INTEGER_FORMAT_BOUNDS[format];
  if (!bounds || (typeof value === 'number' && !Number.isInteger(value))) return undefined;
  if (value >= bounds[0] && value <= bounds[1]) return undefined;
  return `json: cannot unmarshal number ${value} into Go struct field ${where.struct}.${where.fields.join('.')} of type ${format}`;
}

/** The Go struct name: the last segment of the type's OpenAPI name. */
function structName(schema: Schema): string {
  const name = schema['x-orch-type-name'] ?? '';
  return name.slice(name.lastIndexOf('.') + 1);
}
