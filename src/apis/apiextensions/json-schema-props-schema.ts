import { namedType } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/**
 * `JSONSchemaProps` of `apiextensions/v1` and the small types with their own JSON forms it uses
 * (`JSON`, `JSONSchemaPropsOrArray`, `JSONSchemaPropsOrBool`, `JSONSchemaPropsOrStringArray`),
 * written by hand because the type is recursive: a schema's properties, items, `allOf` members
 * and `not` are schemas again. The schema objects below therefore reach themselves (the
 * `properties` record is shared and filled after the named types are built); walkers over
 * schemas stop at a schema they are already inside. Descriptions are Orch's own.
 */
const V1 = 'io.orch.apiextensions-apiserver.pkg.apis.apiextensions.v1';

/** The members of JSONSchemaProps, filled below (shared by the schema and its JSON-form variants). */
const members: Record<string, Schema> = {};

/** `JSONSchemaProps`: an OpenAPI v3 schema with kube's `x-kubernetes-*` extensions. */
export const jsonSchemaPropsSchema: Schema = namedType(
  `${V1}.JSONSchemaProps`,
  'A JSON schema (OpenAPI v3) describing the values of a custom resource or one of its fields.',
  { type: 'object', properties: members },
);

/** `JSON`: any JSON value (a default, an enum member, an example). */
export const jsonValueSchema: Schema = namedType(
  `${V1}.JSON`,
  'Any JSON value: a boolean, number, string, list, object or null.',
  { 'x-orch-preserve-unknown-fields': true },
);

/** `JSONSchemaPropsOrArray`: `items`, one schema (or, refused by validation, a list of schemas). */
export const jsonSchemaPropsOrArraySchema: Schema = namedType(
  `${V1}.JSONSchemaPropsOrArray`,
  'The schema of every item of a list (a list of schemas is not supported).',
  { properties: members },
);

/** `JSONSchemaPropsOrBool`: `additionalProperties`, a schema or whether other keys are allowed. */
export const jsonSchemaPropsOrBoolSchema: Schema = namedType(
  `${V1}.JSONSchemaPropsOrBool`,
  'The schema of the values of keys not listed in properties, or whether such keys are allowed.',
  { properties: members },
);

/** `JSONSchemaPropsOrStringArray`: a `dependencies` value, a schema or a list of property names. */
export const jsonSchemaPropsOrStringArraySchema: Schema = namedType(
  `${V1}.JSONSchemaPropsOrStringArray`,
  'A schema or a list of property names (dependencies are not supported).',
  { properties: members },
);

/** `ExternalDocumentation`. */
export const externalDocumentationSchema: Schema = namedType(
  `${V1}.ExternalDocumentation`,
  'A link to further documentation of a schema.',
  {
    type: 'object',
    properties: {
      description: { type: 'string', 'x-orch-protobuf-field': 1 },
      url: { type: 'string', 'x-orch-protobuf-field': 2 },
    },
  },
);

/** `ValidationRule`: one CEL rule of `x-kubernetes-validations`. */
export const validationRuleSchema: Schema = namedType(
  `${V1}.ValidationRule`,
  'A CEL expression a value must satisfy, with the message and reason reported when it does not.',
  {
    type: 'object',
    required: ['rule'],
    properties: {
      rule: { type: 'string', default: '', 'x-orch-protobuf-field': 1 },
      message: { type: 'string', 'x-orch-protobuf-field': 2 },
      messageExpression: { type: 'string', 'x-orch-protobuf-field': 3 },
      reason: { type: 'string', 'x-orch-protobuf-field': 4 },
      fieldPath: { type: 'string', 'x-orch-protobuf-field': 5 },
      optionalOldSelf: { type: 'boolean', 'x-orch-protobuf-field': 6 },
    },
  },
);

const str = (n: number): Schema => ({ type: 'string', 'x-orch-protobuf-field': n });
const num = (n: number): Schema => ({ type: 'number', format: 'double', 'x-orch-protobuf-field': n });
const int = (n: number): Schema => ({ type: 'integer', format: 'int64', 'x-orch-protobuf-field': n });
const bool = (n: number): Schema => ({ type: 'boolean', 'x-orch-protobuf-field': n });
const atomicList = (items: Schema, n: number): Schema => ({
  type: 'array',
  items,
  'x-orch-list-type': 'atomic',
  'x-orch-protobuf-field': n,
});
const mapOf = (values: Schema, n: number): Schema => ({
  type: 'object',
  additionalProperties: values,
  'x-orch-protobuf-field': n,
});

Object.assign(members, {
  id: str(1),
  $schema: str(2),
  $ref: str(3),
  description: str(4),
  type: str(5),
  format: str(6),
  title: str(7),
  default: { ...jsonValueSchema, 'x-orch-protobuf-field': 8 },
  maximum: num(9),
  exclusiveMaximum: bool(10),
  minimum: num(11),
  exclusiveMinimum: bool(12),
  maxLength: int(13),
  minLength: int(14),
  pattern: str(15),
  maxItems: int(16),
  minItems: int(17),
  uniqueItems: bool(18),
  multipleOf: num(19),
  enum: atomicList(jsonValueSchema, 20),
  maxProperties: int(21),
  minProperties: int(22),
  required: atomicList({ type: 'string', default: '' }, 23),
  items: { ...jsonSchemaPropsOrArraySchema, 'x-orch-protobuf-field': 24 },
  allOf: atomicList(jsonSchemaPropsSchema, 25),
  oneOf: atomicList(jsonSchemaPropsSchema, 26),
  anyOf: atomicList(jsonSchemaPropsSchema, 27),
  not: { ...jsonSchemaPropsSchema, 'x-orch-protobuf-field': 28 },
  properties: mapOf(jsonSchemaPropsSchema, 29),
  additionalProperties: { ...jsonSchemaPropsOrBoolSchema, 'x-orch-protobuf-field': 30 },
  patternProperties: mapOf(jsonSchemaPropsSchema, 31),
  dependencies: mapOf(jsonSchemaPropsOrStringArraySchema, 32),
  additionalItems: { ...jsonSchemaPropsOrBoolSchema, 'x-orch-protobuf-field': 33 },
  definitions: mapOf(jsonSchemaPropsSchema, 34),
  externalDocs: { ...externalDocumentationSchema, 'x-orch-protobuf-field': 35 },
  example: { ...jsonValueSchema, 'x-orch-protobuf-field': 36 },
  nullable: bool(37),
  'x-kubernetes-preserve-unknown-fields': bool(38),
  'x-kubernetes-embedded-resource': bool(39),
  'x-kubernetes-int-or-string': bool(40),
  'x-kubernetes-list-map-keys': atomicList({ type: 'string', default: '' }, 41),
  'x-kubernetes-list-type': str(42),
  'x-kubernetes-map-type': str(43),
  'x-kubernetes-validations': {
    type: 'array',
    items: { ...validationRuleSchema, default: {} },
    'x-orch-list-type': 'map',
    'x-orch-list-map-keys': ['rule'],
    'x-orch-patch-strategy': 'merge',
    'x-orch-patch-merge-key': 'rule',
    'x-orch-protobuf-field': 44,
  },
} satisfies Record<string, Schema>);
