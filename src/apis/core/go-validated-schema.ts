import type { Schema } from '../schema/schema.js';

/**
 * The schema a built-in kind checks types against when kube validates it with hand-written Go
 * rules: the published schema without `required` lists and `enum`s. The kind's own rules report
 * those cases in kube's words and paths, all at once (a schema error would stop them). The
 * published schema (OpenAPI, defaults, encodings) keeps both.
 */
export function goValidatedSchema(schema: Schema): Schema {
  const { required: _required, enum: _enum, properties, items, additionalProperties, ...rest } = schema;
  const out: Schema = { ...rest };
  if (properties) {
    out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, goValidatedSchema(v)]));
  }
  if (items) out.items = goValidatedSchema(items);
  if (additionalProperties && typeof additionalProperties === 'object') {
    out.additionalProperties = goValidatedSchema(additionalProperties);
  } else if (additionalProperties !== undefined) out.additionalProperties = additionalProperties;
  return out;
}
