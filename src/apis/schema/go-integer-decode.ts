import { INTEGER_FORMAT_BOUNDS } from './formats.js';
import { isPlainObject } from './json-value.js';
import type { Schema } from './schema.js';
import { reachTest } from './schema-reach.js';

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
  if (!holdsBoundedIntegers(schema)) return undefined;
  return visit(schema, value, { structs: [structName(schema)], fields: [] });
}

/**
 * Where the walk is: the JSON names of the struct fields from the root, and for each depth of
 * that path the innermost struct's name (`structs[0]` is the root's). Pushed and popped as the
 * walk goes, so that a value whose integers fit costs no path; the message is made on error.
 */
interface Where {
  readonly structs: string[];
  readonly fields: string[];
}

/** A number of an `int32`/`int64` field (not int-or-string): the only values checked. */
function isBoundedInteger(schema: Schema): boolean {
  if (schema.type !== 'integer' || schema['x-orch-int-or-string']) return false;
  const format = schema.format;
  return format !== undefined && INTEGER_FORMAT_BOUNDS[format] !== undefined;
}

/** Whether a value of a schema may hold a checked integer: the walk skips subtrees that cannot. */
export const holdsBoundedIntegers = reachTest(isBoundedInteger);

function visit(schema: Schema, value: unknown, where: Where): string | undefined {
  if (typeof value === 'number' || typeof value === 'bigint') return integerError(schema, value, where);
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items || !holdsBoundedIntegers(items)) return undefined;
    for (const item of value) {
      const err = visit(items, item, where);
      if (err) return err;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  const properties = schema.properties;
  const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (!properties && !values) return undefined;
  const struct = structName(schema) || where.structs[where.structs.length - 1]!;
  const valuesChecked = values !== undefined && holdsBoundedIntegers(values);
  for (const key in value) {
    const field = properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
    // Go names struct fields in the path, never map keys.
    let err: string | undefined;
    if (field) {
      if (!holdsBoundedIntegers(field)) continue;
      where.fields.push(key);
      where.structs.push(struct);
      err = visit(field, value[key], where);
      where.fields.pop();
      where.structs.pop();
    } else if (valuesChecked) {
      err = visit(values, value[key], where);
    }
    if (err) return err;
  }
  return undefined;
}

function integerError(schema: Schema, value: number | bigint, where: Where): string | undefined {
  const format = outOfRange(schema, value);
  return format && goUnmarshalError(`number ${value}`, where.structs[where.structs.length - 1]!, where.fields, format);
}

/**
 * The format (`int32`, `int64`) of the integer field `schema` when `value` does not fit it;
 * `undefined` when it fits or the field is no bounded integer.
 */
export function outOfRange(schema: Schema, value: number | bigint): string | undefined {
  if (schema.type !== 'integer' || schema['x-orch-int-or-string']) return undefined;
  const format = schema.format;
  const bounds = format === undefined ? undefined : INTEGER_FORMAT_BOUNDS[format];
  if (!bounds || (typeof value === 'number' && !Number.isInteger(value))) return undefined;
  return value >= bounds[0] && value <= bounds[1] ? undefined : format;
}

/**
 * `encoding/json`'s words for a value (`what`: `string`, `number 2147483648`) that the field at
 * `fields` (JSON names from the root) of the Go struct `struct` cannot hold as its `type`.
 */
export function goUnmarshalError(what: string, struct: string, fields: readonly string[], type: string): string {
  return `json: cannot unmarshal ${what} into Go struct field ${struct}.${fields.join('.')} of type ${type}`;
}

/**
 * {@link goIntegerDecodeError} for a value met inside a larger walk: `struct` is the innermost
 * struct around it and `fields` the JSON names of the fields from the root to it.
 */
export function integerDecodeErrorWithin(
  schema: Schema,
  value: unknown,
  struct: Schema,
  fields: readonly string[],
): string | undefined {
  if (!holdsBoundedIntegers(schema)) return undefined;
  return visit(schema, value, { structs: [structName(struct)], fields: [...fields] });
}

/** `PodSpec` from `io.orch.api.core.v1.PodSpec`: the struct's Go name without its package. */
export function structName(schema: Schema): string {
  const name = schema['x-orch-type-name'] ?? '';
  return name.slice(name.lastIndexOf('.') + 1);
}
