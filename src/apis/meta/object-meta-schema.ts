import type { Schema } from '../schema/schema.js';
import { listMetaSchema, objectMetaSchema } from './meta-v1-schemas.js';

/**
 * The `metadata` fields of objects and lists, for the schemas written by hand (test kinds,
 * partial object metadata, list kinds); the built-in kinds' generated schemas carry their own.
 * ObjectMeta and ListMeta themselves are generated (`meta-v1-schemas.ts`).
 */

/** `metadata` of an object: ObjectMeta, protobuf field 1. */
export function objectMetaField(): Schema {
  return { ...objectMetaSchema, 'x-orch-protobuf-field': 1 };
}

/** `metadata` of a list: ListMeta, protobuf field 1; `description` describes the field. */
export function listMetaField(description?: string): Schema {
  return { ...listMetaSchema, ...(description ? { description } : {}), 'x-orch-protobuf-field': 1 };
}
