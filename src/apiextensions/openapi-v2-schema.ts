import { apiVersionField, kindField } from '../apis/meta/type-meta-fields.js';
import type { Schema } from '../apis/schema/schema.js';
import { customResourceMetadataField, withEmbeddedMeta } from './embedded-meta.js';

/**
 * One node of a structural schema as Swagger 2.0 can hold it (kube's `ToStructuralOpenAPIV2`),
 * and, below it, every node the same way. Swagger 2.0 has no junctors and no `nullable`, and
 * kubectl's v2 model breaks on typed values that may be null and on arrays or objects whose
 * contents it cannot know, so:
 * - `allOf`, `anyOf`, `oneOf` and `not` are dropped;
 * - a `nullable` node loses `nullable`, its `type`, `items` and `properties`;
 * - a node that keeps unknown fields loses `items` and `properties`, and `type: object`;
 * - an array left without `items` loses its `type`;
 * - a property that may be null is no longer `required`, and nothing is when
 *   `additionalProperties` may be null.
 * The node is checked before its children (as kube's visitor does), so a child's `nullable`
 * still counts for its parent's `required`. Pure; returns a new schema.
 */
function toV2Node(s: Schema): Schema {
  const out: Schema = { ...s };
  delete out.allOf;
  delete out.anyOf;
  delete out.oneOf;
  delete out.not;
  if (out.nullable) {
    delete out.type;
    delete out.nullable;
    delete out.items;
    delete out.properties;
  }
  if (out['x-orch-preserve-unknown-fields']) {
    delete out.items;
    delete out.properties;
  }
  if (out.items === undefined && out.type === 'array') delete out.type;
  if (out['x-orch-preserve-unknown-fields'] && out.type === 'object') delete out.type;
  if (out.required && out.properties) {
    const props = out.properties;
    const required = out.required.filter((name) => !props[name]?.nullable);
    if (required.length === 0) delete out.required;
    else out.required = required;
  }
  if (typeof out.additionalProperties === 'object' && out.additionalProperties.nullable) delete out.required;
  if (out.items) out.items = toV2Node(out.items);
  if (out.properties) {
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, toV2Node(v)]));
  }
  if (typeof out.additionalProperties === 'object') out.additionalProperties = toV2Node(out.additionalProperties);
  return out;
}

/**
 * The schema kube v1.32 publishes in OpenAPI v2 for a custom resource whose structural schema is
 * `structural` (the CRD's `openAPIV3Schema`; undefined when the version has none), before
 * defaults are pruned from the whole document:
 * - no schema, or one that keeps unknown fields at the root: a bare `{type: object}` (kubectl
 *   would otherwise refuse every field it is not told about);
 * - else the schema converted node by node for Swagger 2.0 (see {@link toV2Node}), with
 *   `apiVersion`, `kind` and `metadata` (ObjectMeta) at the root, replacing what the schema says
 *   there, and in every embedded resource that does not keep unknown fields.
 * Pure.
 */
export function customResourceOpenApiV2Schema(structural: Schema | undefined): Schema {
  if (!structural || structural['x-orch-preserve-unknown-fields']) return { type: 'object' };
  const root = toV2Node(structural);
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = root.properties ?? {};
  const kind = withEmbeddedMeta({ ...root, properties: rest }, { skipPreservingUnknownFields: true });
  kind.properties = {
    apiVersion: apiVersionField,
    kind: kindField,
    metadata: customResourceMetadataField(),
    ...kind.properties,
  };
  return kind;
}
