import type { Schema } from '../schema/schema.js';

/**
 * The schema a built-in kind's strategy validates with: the published one without `required`,
 * `enum` and list duplicate checks, because kube checks built-in kinds with Go validation (with
 * its own messages: `Required value: must reference a priority level`, NotSupported lists in
 * kube's order), never with the OpenAPI constraints it publishes. Types, formats and defaults
 * stay. Returns a new schema; `schema` is not changed.
 */
export function nativeValidationSchema(schema: Schema, seen = new WeakMap<Schema, Schema>()): Schema {
  // A schema may reach itself (apiextensions' JSONSchemaProps): each node is converted once.
  const known = seen.get(schema);
  if (known) return known;
  const { required: _required, enum: _enum, properties, items, additionalProperties, ...rest } = schema;
  const out: Schema = { ...rest };
  seen.set(schema, out);
  if (rest['x-orch-list-type'] === 'set' || rest['x-orch-list-type'] === 'map')
    out['x-orch-list-duplicates'] = 'allowed';
  if (properties) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([k, v]) => [k, nativeValidationSchema(v, seen)]),
    );
  }
  if (items) out.items = nativeValidationSchema(items, seen);
  if (additionalProperties !== undefined) {
    out.additionalProperties =
      typeof additionalProperties === 'boolean'
        ? additionalProperties
        : nativeValidationSchema(additionalProperties, seen);
  }
  return out;
}
