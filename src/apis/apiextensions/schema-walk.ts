import type { JSONSchemaProps } from './crd-types.js';

function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * kube's `SchemaHas`: whether `pred` holds for a schema or any schema inside it (items, the
 * junctors, properties, additionalProperties, patternProperties, additionalItems, definitions,
 * dependencies).
 */
export function schemaHas(s: unknown, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!isSchema(s)) return false;
  if (pred(s)) return true;
  const lists = [Array.isArray(s.items) ? s.items : [s.items], s.allOf, s.anyOf, s.oneOf];
  for (const list of lists) if (Array.isArray(list) && list.some((x) => schemaHas(x, pred))) return true;
  if (schemaHas(s.not, pred) || schemaHas(s.additionalProperties, pred) || schemaHas(s.additionalItems, pred))
    return true;
  for (const map of [s.properties, s.patternProperties, s.definitions, s.dependencies]) {
    if (isSchema(map) && Object.values(map).some((x) => schemaHas(x, pred))) return true;
  }
  return false;
}

/** Whether any schema of a spec (top-level or per version) satisfies `pred` somewhere. */
export function specHasSchemaWith(
  spec: {
    readonly validation?: { openAPIV3Schema?: JSONSchemaProps };
    readonly versions: readonly { readonly schema?: { openAPIV3Schema?: JSONSchemaProps } }[];
  },
  pred: (s: JSONSchemaProps) => boolean,
): boolean {
  if (schemaHas(spec.validation?.openAPIV3Schema, pred)) return true;
  return spec.versions.some((v) => schemaHas(v.schema?.openAPIV3Schema, pred));
}

/** A schema node with a default. */
export const hasDefault = (s: JSONSchemaProps): boolean => s.default !== undefined && s.default !== null;

/** A schema node using one of kube's extensions (which require a structural schema). */
export const hasKubernetesExtensions = (s: JSONSchemaProps): boolean =>
  s['x-kubernetes-embedded-resource'] === true ||
  typeof s['x-kubernetes-preserve-unknown-fields'] === 'boolean' ||
  s['x-kubernetes-int-or-string'] === true ||
  (Array.isArray(s['x-kubernetes-list-map-keys']) && s['x-kubernetes-list-map-keys'].length > 0) ||
  typeof s['x-kubernetes-list-type'] === 'string' ||
  (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0);
