import type { JSONSchemaProps } from '../apis/apiextensions/crd-types.js';
import {
  schemaFromJSONSchemaProps,
  stripUnsupportedFormats,
} from '../apis/apiextensions/schema-from-json-schema-props.js';
import { objectMetaField } from '../apis/meta/object-meta-schema.js';
import { apiVersionField, kindField } from '../apis/meta/type-meta-fields.js';
import type { Schema } from '../apis/schema/schema.js';
import { customResourceMetadataField, withEmbeddedMeta } from './embedded-meta.js';
import { customResourceOpenApiV2Schema } from './openapi-v2-schema.js';

/** The schemas one version of a custom resource is served with. */
export interface CustomResourceSchemas {
  /**
   * The whole object as published (OpenAPI, `kubectl explain`) and as pruning, defaulting and
   * server-side apply read it: the CRD's schema with `apiVersion`, `kind` and `metadata`
   * (ObjectMeta) at the root and in every embedded resource, as kube's OpenAPI builder adds them.
   */
  readonly published: Schema;
  /**
   * The whole object as OpenAPI v2 publishes it: kube's v2 conversion of the CRD's schema (see
   * `customResourceOpenApiV2Schema`).
   */
  readonly publishedV2: Schema;
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
    metadata: customResourceMetadataField(),
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
  return {
    published,
    publishedV2: customResourceOpenApiV2Schema(props ? root : undefined),
    validation,
    status: validation.properties?.status,
    structural: root,
  };
}
