import type { Schema } from './schema.js';

/**
 * A named, reusable type: its schema carries `x-orch-type-name` (its OpenAPI definition name)
 * and, when given, `x-orch-type-description`.
 */
export function namedType(name: string, typeDescription: string | undefined, schema: Schema): Schema {
  if (typeDescription === undefined) return { ...schema, 'x-orch-type-name': name };
  return { ...schema, 'x-orch-type-name': name, 'x-orch-type-description': typeDescription };
}

/** An int32 field. */
export function int32Field(description: string, extra: Schema = {}): Schema {
  return { type: 'integer', format: 'int32', description, ...extra };
}

/** An int64 field. */
export function int64Field(description: string, extra: Schema = {}): Schema {
  return { type: 'integer', format: 'int64', description, ...extra };
}
