import { objectMetaField } from '../apis/meta/object-meta-schema.js';
import type { Schema } from '../apis/schema/schema.js';

const EMBEDDED_API_VERSION =
  'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const EMBEDDED_KIND =
  'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/**
 * `metadata` (ObjectMeta) of a custom resource and of its embedded resources, described as kube's
 * CRD OpenAPI builder describes it.
 */
export function customResourceMetadataField(): Schema {
  return {
    ...objectMetaField(),
    description:
      "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  };
}

/** Options of {@link withEmbeddedMeta}. */
export interface EmbeddedMetaOptions {
  /**
   * Leave embedded resources that keep unknown fields as they are (OpenAPI v2: kubectl's v2
   * validation would refuse every field it is not told about once some are listed).
   */
  readonly skipPreservingUnknownFields?: boolean;
}

/**
 * `s` with TypeMeta (`apiVersion`, `kind`, both then required) and ObjectMeta (`metadata`) in
 * every embedded resource below it, itself included, as kube's OpenAPI builder adds them
 * (`addEmbeddedProperties`). Returns a new schema; `s` is not changed.
 */
export function withEmbeddedMeta(s: Schema, o: EmbeddedMetaOptions = {}): Schema {
  const out: Schema = { ...s };
  if (s.properties) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, withEmbeddedMeta(v, o)]));
  }
  if (s.items) out.items = withEmbeddedMeta(s.items, o);
  if (typeof s.additionalProperties === 'object')
    out.additionalProperties = withEmbeddedMeta(s.additionalProperties, o);
  if (!s['x-orch-embedded-resource']) return out;
  if (o.skipPreservingUnknownFields && s['x-orch-preserve-unknown-fields']) return out;
  out.properties = {
    ...(out.properties ?? {}),
    apiVersion: { type: 'string', description: EMBEDDED_API_VERSION },
    kind: { type: 'string', description: EMBEDDED_KIND },
    metadata: customResourceMetadataField(),
  };
  out.required = [...new Set([...(s.required ?? []), 'kind', 'apiVersion'])];
  return out;
}
