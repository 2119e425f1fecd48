import type { Schema } from './schema.js';

/**
 * A named, reusable type: its schema carries `x-orch-type-name` (its OpenAPI definition name)
 * and, when given, `x-orch-type-description`.
 */
export function namedType(name: string, typeDescription: string | undefined, schema: Schema): Schema {
  if (typeDescription === undefined) return { ...schema, 'x-orch-type-name': name };
  return { ...schema, 'x-orch-type-name': name, 'x-orch-type-description': typeDescription };
}

/**
 * A field holding a named type: the type's schema with the field's own description (and any
 * field-level extras such as a protobuf field number or patch strategy).
 */
export function fieldOf(type: Schema, description: string, extra: Schema = {}): Schema {
  return { ...type, description, ...extra };
}

/** A string field. */
export function stringField(description: string, extra: Schema = {}): Schema {
  return { type: 'string', description, ...extra };
}

/** A boolean field. */
export function booleanField(description: string, extra: Schema = {}): Schema {
  return { type: 'boolean', description, ...extra };
}

/** An int32 field. */
export function int32Field(description: string, extra: Schema = {}): Schema {
  return { type: 'integer', format: 'int32', description, ...extra };
}

/** An int64 field. */
export function int64Field(description: string, extra: Schema = {}): Schema {
  return { type: 'integer', format: 'int64', description, ...extra };
}

/** An atomic list of strings (`[]string` replaced as a whole by apply). */
export function atomicStringListField(description: string, extra: Schema = {}): Schema {
  return { type: 'array', items: { type: 'string' }, description, 'x-orch-list-type': 'atomic', ...extra };
}

/** Field-level protobuf number, as an `extra` for the helpers above. */
export function pb(field: number): Schema {
  return { 'x-orch-protobuf-field': field };
}
