import type { JSONSchemaProps } from '../apis/apiextensions/crd-types.js';
import {
  schemaFromJSONSchemaProps,
  stripUnsupportedFormats,
} from '../apis/apiextensions/schema-from-json-schema-props.js';
import { objectMetaField } from '../apis/meta/object-meta-schema.js';
import { apiVersionField, kindField } from '../apis/meta/type-meta-fields.js';
import type { Schema } from '../apis/schema/schema.js';

/** The schemas one version of a custom resource is served with. */
export interface CustomResourceSchemas {
  /**
   * The whole object as published (OpenAPI, `kubectl explain`) and as pruning, defaulting and
   * server-side apply read it: the CRD's schema with `apiVersion`, `kind` and `metadata`
   * (ObjectMeta) at the root and in every embedded resource, as kube's OpenAPI builder adds them.
   */
  readonly published: Schema;
  /**
   * What objects are validated against: the CRD's schema as written (its `metadata` may restrict
   * `name` and `generateName`), formats kube does not check in custom resources removed, and
   * ObjectMeta's types at `metadata`.
   */
  readonly validation: Schema;
  /** `properties.status` of the validation schema (the `status` sub-resource validates only it). */
  readonly status: Schema | undefined;
  /** The CRD's schema as written (the root its validation rules are typed and compiled from). */
  readonly structural: Schema;
}

const EMBEDDED_API_VERSION =
  'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const EMBEDDED_KIND =
  'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** Adds TypeMeta and ObjectMeta to every embedded resource below `s` (a new schema). */
function withEmbeddedMeta(s: Schema): Schema {
  const out: Schema = { ...s };
  if (s.properties)
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, withEmbeddedMeta(v)]));
  if (s.items) out.items = withEmbeddedMeta(s.items);
  if (typeof s.additionalProperties === 'object') out.additionalProperties = withEmbeddedMeta(s.additionalProperties);
  if (s['x-orch-embedded-resource']) {
    out.properties = {
      ...(out.properties ?? {}),
      apiVersion: { type: 'string', description: EMBEDDED_API_VERSION },
      kind: { type: 'string', description: EMBEDDED_KIND },
      metadata: objectMetaField(),
    };
    out.required = [...new Set([...(s.required ?? []), 'kind', 'apiVersion'])];
  }
  return out;
}

/** The schemas of a version whose CRD schema is `props` (undefined: anything is kept). */
export function customResourceSchemas(props: JSONSchemaProps | undefined): CustomResourceSchemas {
  const root = props
    ? schemaFromJSONSchemaProps(props)
    : { type: 'object' as const, 'x-orch-preserve-unknown-fields': true };
  const { apiVersion, kind, metadata, ...rest } = root.properties ?? {};
  const published: Schema = {
    ...withEmbeddedMeta({ ...root, properties: rest }),
    type: 'object',
  };
  published.properties = {
    apiVersion: apiVersionField,
    kind: kindField,
    metadata: objectMetaField(),
    ...published.properties,
  };
  const meta = objectMetaField();
  const restricted: Schema = {
    ...meta,
    properties: {
      ...meta.properties,
      ...(metadata?.properties?.name ? { name: { ...meta.properties?.name, ...metadata.properties.name } } : {}),
      ...(metadata?.properties?.generateName
        ? { generateName: { ...meta.properties?.generateName, ...metadata.properties.generateName } }
        : {}),
    },
  };
  const validation = stripUnsupportedFormats({
    ...root,
    properties: {
      ...(apiVersion ? { apiVersion } : {}),
      ...(kind ? { kind } : {}),
      metadata: restricted,
      ...rest,
    },
  });
  return { published, validation, status: validation.properties?.status, structural: root };
}
