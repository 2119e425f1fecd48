import type { Schema } from '../schema/schema.js';

/**
 * The schema a built-in kind's strategy validates with: the published one without `required`,
 * `enum` and list duplicate checks, because kube checks built-in kinds with Go validation (with
 * its own messages: `Required value: must reference a priority level`, NotSupported lists in
 * kube's order), never with the OpenAPI constraints it publishes. Types, formats and defaults
 * stay. Returns a new schema; `schema` is not changed.
 */
export function nativeValidationSchema(schema: Schema): Schema {
  return convert(schema);
}

/**
 * Each schema node converted so far, and its conversion. Built-in schemas are immutable and share
 * their sub-schemas (object metadata, the pod spec in every workload's template): each node is
 * converted once for every kind and every definition built, and the conversions are shared, as
 * immutable as their sources. A schema may also reach itself (apiextensions' JSONSchemaProps).
 */
const converted = new WeakMap<Schema, Schema>();
/** The published schema of each conversion. */
const sources = new WeakMap<Schema, Schema>();

/**
 * The published schema `schema` was made from by {@link nativeValidationSchema}, or `schema`
 * itself: both have the same defaults, and walks that read only those may share the published
 * schema's nodes.
 */
export function publishedSchemaOf(schema: Schema): Schema {
  return sources.get(schema) ?? schema;
}

function convert(schema: Schema): Schema {
  const known = converted.get(schema);
  if (known) return known;
  const { required: _required, enum: _enum, properties, items, additionalProperties, ...rest } = schema;
  const out: Schema = { ...rest };
  converted.set(schema, out);
  sources.set(out, schema);
  if (rest['x-orch-list-type'] === 'set' || rest['x-orch-list-type'] === 'map')
    out['x-orch-list-duplicates'] = 'allowed';
  if (properties) {
    out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, convert(v)]));
  }
  if (items) out.items = convert(items);
  if (additionalProperties !== undefined) {
    out.additionalProperties =
      typeof additionalProperties === 'boolean' ? additionalProperties : convert(additionalProperties);
  }
  return out;
}
