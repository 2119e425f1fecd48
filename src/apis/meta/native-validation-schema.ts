import type { Schema } from '../schema/schema.js';

/**
 * The schema a built-in kind's strategy validates with: the published one without `required`,
 * `enum` and list duplicate checks, because kube checks built-in kinds with Go validation (with
 * its own messages: `Required value: must reference a priority level`, NotSupported lists in
 * kube's order), never with the OpenAPI constraints it publishes. Types, formats and defaults
 * stay. Returns a new schema; `schema` is not changed.
 */
export function nativeValidationSchema(schema: Schema): Schema {
  const { required: _required, enum: _enum, properties, items, additionalProperties, ...rest } = schema;
  const out: Schema = { ...rest };
  if (rest['x-orch-list-type'] === 'set' || rest['x-orch-list-type'] === 'map')
    out['x-orch-list-duplicates'] = 'allowed';
  if (properties) {
    out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, nativeValidationSchema(v)]));
  }
  if (items) out.items = nativeValidationSchema(items);
  if (additionalProperties !== undefined) {
    out.additionalProperties =
      typeof additionalProperties === 'boolean' ? additionalProperties : nativeValidationSchema(additionalProperties);
  }
  return out;
}
