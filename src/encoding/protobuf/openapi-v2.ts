import {
  type Field,
  type FieldType,
  f,
  isMap,
  type Json,
  type Lazy,
  m,
  message,
  namedMap,
  oneof,
  repeated,
} from './json-message-codec.js';
import { ProtoReader } from './wire-reader.js';
import { ProtoWriter } from './wire-writer.js';

/**
 * The Swagger 2.0 document as gnostic's `openapi.v2.Document` protobuf message
 * (github.com/google/gnostic-models, `openapiv2/OpenAPIv2.proto`): what kube-apiserver serves
 * on `/openapi/v2` for `application/com.github.proto-openapi.spec.v2[@.]v1.0+protobuf`, and what
 * kubectl downloads for client-side validation. Every message of the document is described
 * below by its field numbers; JSON members without a field are left out. Values gnostic keeps
 * as `Any` (defaults, examples, enums, vendor extensions) carry their YAML text, as gnostic
 * writes them. Pure and synchronous.
 */
export const OPENAPI_V2_PROTOBUF_MEDIA_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The older spelling kubectl still sends; answered with {@link OPENAPI_V2_PROTOBUF_MEDIA_TYPE}. */
export const OPENAPI_V2_PROTOBUF_MEDIA_TYPE_DEPRECATED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** The validation keywords shared by parameters, headers and items, numbered from `start`. */
function primitiveFields(start: number): Field[] {
  const keys: Array<[string, FieldType, boolean?]> = [
    ['type', 'string'],
    ['format', 'string'],
    ['items', m(() => PRIMITIVES_ITEMS())],
    ['collectionFormat', 'string'],
    ['default', 'any'],
    ['maximum', 'double'],
    ['exclusiveMaximum', 'bool'],
    ['minimum', 'double'],
    ['exclusiveMinimum', 'bool'],
    ['maxLength', 'int64'],
    ['minLength', 'int64'],
    ['pattern', 'string'],
    ['maxItems', 'int64'],
    ['minItems', 'int64'],
    ['uniqueItems', 'bool'],
    ['enum', 'any', true],
    ['multipleOf', 'double'],
  ];
  return keys.map(([key, type, many], i) => f(key, start + i, type, many));
}

const EXTERNAL_DOCS = message([f('description', 1, 'string'), f('url', 2, 'string')], 3);
const PRIMITIVES_ITEMS: Lazy = message(primitiveFields(1), 18);
const XML = message(
  [
    f('name', 1, 'string'),
    f('namespace', 2, 'string'),
    f('prefix', 3, 'string'),
    f('attribute', 4, 'bool'),
    f('wrapped', 5, 'bool'),
  ],
  6,
);
const SCHEMA: Lazy = message(
  [
    f('$ref', 1, 'string'),
    f('format', 2, 'string'),
    f('title', 3, 'string'),
    f('description', 4, 'string'),
    f('default', 5, 'any'),
    f('multipleOf', 6, 'double'),
    f('maximum', 7, 'double'),
    f('exclusiveMaximum', 8, 'bool'),
    f('minimum', 9, 'double'),
    f('exclusiveMinimum', 10, 'bool'),
    f('maxLength', 11, 'int64'),
    f('minLength', 12, 'int64'),
    f('pattern', 13, 'string'),
    f('maxItems', 14, 'int64'),
    f('minItems', 15, 'int64'),
    f('uniqueItems', 16, 'bool'),
    f('maxProperties', 17, 'int64'),
    f('minProperties', 18, 'int64'),
    f('required', 19, 'string', true),
    f('enum', 20, 'any', true),
    f(
      'additionalProperties',
      21,
      m(() => ADDITIONAL_PROPERTIES()),
    ),
    f(
      'type',
      22,
      m(() => TYPE_ITEM()),
    ),
    f(
      'items',
      23,
      m(() => ITEMS_ITEM()),
    ),
    f(
      'allOf',
      24,
      m(() => SCHEMA()),
      true,
    ),
    f(
      'properties',
      25,
      m(() => PROPERTIES()),
    ),
    f('discriminator', 26, 'string'),
    f('readOnly', 27, 'bool'),
    f('xml', 28, m(XML)),
    f('externalDocs', 29, m(EXTERNAL_DOCS)),
    f('example', 30, 'any'),
  ],
  31,
);
const ADDITIONAL_PROPERTIES = oneof({ 1: m(SCHEMA), 2: 'bool' }, (v) => (typeof v === 'boolean' ? 2 : 1));
const TYPE_ITEM = repeated('string', true);
const ITEMS_ITEM = repeated(m(SCHEMA), true);
const PROPERTIES = namedMap(m(SCHEMA));
const FILE_SCHEMA = message(
  [
    f('format', 1, 'string'),
    f('title', 2, 'string'),
    f('description', 3, 'string'),
    f('default', 4, 'any'),
    f('required', 5, 'string', true),
    f('type', 6, 'string'),
    f('readOnly', 7, 'bool'),
    f('externalDocs', 8, m(EXTERNAL_DOCS)),
    f('example', 9, 'any'),
  ],
  10,
);

const JSON_REFERENCE = message([f('$ref', 1, 'string'), f('description', 2, 'string')]);
const hasRef = (v: Json) => isMap(v) && typeof v.$ref === 'string';
const paramHead = [
  f('required', 1, 'bool'),
  f('in', 2, 'string'),
  f('description', 3, 'string'),
  f('name', 4, 'string'),
];
const BODY_PARAMETER = message(
  [
    f('description', 1, 'string'),
    f('name', 2, 'string'),
    f('in', 3, 'string'),
    f('required', 4, 'bool'),
    f('schema', 5, m(SCHEMA)),
  ],
  6,
);
// Query and form parameters add allowEmptyValue (5) before the primitive keywords.
const QUERY_OR_FORM = message([...paramHead, f('allowEmptyValue', 5, 'bool'), ...primitiveFields(6)], 23);
const HEADER_OR_PATH = message([...paramHead, ...primitiveFields(5)], 22);
const NON_BODY_INDEX: Readonly<Record<string, number>> = { header: 1, formData: 2, query: 3, path: 4 };
const NON_BODY_PARAMETER = oneof(
  { 1: m(HEADER_OR_PATH), 2: m(QUERY_OR_FORM), 3: m(QUERY_OR_FORM), 4: m(HEADER_OR_PATH) },
  (v) => (isMap(v) ? (NON_BODY_INDEX[String(v.in)] ?? 3) : 3),
);
const PARAMETER = oneof({ 1: m(BODY_PARAMETER), 2: m(NON_BODY_PARAMETER) }, (v) =>
  isMap(v) && v.in === 'body' ? 1 : 2,
);
const PARAMETERS_ITEM = oneof({ 1: m(PARAMETER), 2: m(JSON_REFERENCE) }, (v) => (hasRef(v) ? 2 : 1));

const HEADER = message([...primitiveFields(1), f('description', 18, 'string')], 19);
const RESPONSE = message(
  [
    f('description', 1, 'string'),
    f('schema', 2, m(oneof({ 1: m(SCHEMA), 2: m(FILE_SCHEMA) }, (v) => (isMap(v) && v.type === 'file' ? 2 : 1)))),
    f('headers', 3, m(namedMap(m(HEADER)))),
    f('examples', 4, m(namedMap('any'))),
  ],
  5,
);
const RESPONSE_VALUE = oneof({ 1: m(RESPONSE), 2: m(JSON_REFERENCE) }, (v) => (hasRef(v) ? 2 : 1));
const SECURITY_REQUIREMENT = namedMap(m(repeated('string', false)));
const OPERATION = message(
  [
    f('tags', 1, 'string', true),
    f('summary', 2, 'string'),
    f('description', 3, 'string'),
    f('externalDocs', 4, m(EXTERNAL_DOCS)),
    f('operationId', 5, 'string'),
    f('produces', 6, 'string', true),
    f('consumes', 7, 'string', true),
    f('parameters', 8, m(PARAMETERS_ITEM), true),
    f('responses', 9, m(namedMap(m(RESPONSE_VALUE), 1, 2))),
    f('schemes', 10, 'string', true),
    f('deprecated', 11, 'bool'),
    f('security', 12, m(SECURITY_REQUIREMENT), true),
  ],
  13,
);
const PATH_ITEM = message(
  [
    f('$ref', 1, 'string'),
    ...['get', 'put', 'post', 'delete', 'options', 'head', 'patch'].map((verb, i) => f(verb, 2 + i, m(OPERATION))),
    f('parameters', 9, m(PARAMETERS_ITEM), true),
  ],
  10,
);

const OAUTH2_SCOPES = namedMap('string');
const securityScheme = (fields: Field[], vendor: number) => message(fields, vendor);
const oauthHead = [f('type', 1, 'string'), f('flow', 2, 'string'), f('scopes', 3, m(OAUTH2_SCOPES))];
const SECURITY_SCHEMES: Readonly<Record<number, FieldType>> = {
  1: m(securityScheme([f('type', 1, 'string'), f('description', 2, 'string')], 3)),
  2: m(
    securityScheme(
      [f('type', 1, 'string'), f('name', 2, 'string'), f('in', 3, 'string'), f('description', 4, 'string')],
      5,
    ),
  ),
  3: m(securityScheme([...oauthHead, f('authorizationUrl', 4, 'string'), f('description', 5, 'string')], 6)),
  4: m(securityScheme([...oauthHead, f('tokenUrl', 4, 'string'), f('description', 5, 'string')], 6)),
  5: m(securityScheme([...oauthHead, f('tokenUrl', 4, 'string'), f('description', 5, 'string')], 6)),
  6: m(
    securityScheme(
      [...oauthHead, f('authorizationUrl', 4, 'string'), f('tokenUrl', 5, 'string'), f('description', 6, 'string')],
      7,
    ),
  ),
};
const OAUTH2_FLOWS: Readonly<Record<string, number>> = { implicit: 3, password: 4, application: 5, accessCode: 6 };
const SECURITY_DEFINITIONS_ITEM = oneof(SECURITY_SCHEMES, (v) => {
  if (!isMap(v)) return 2;
  if (v.type === 'basic') return 1;
  if (v.type === 'oauth2') return OAUTH2_FLOWS[String(v.flow)] ?? 3;
  return 2;
});

const DOCUMENT = message(
  [
    f('swagger', 1, 'string'),
    f(
      'info',
      2,
      m(
        message(
          [
            f('title', 1, 'string'),
            f('version', 2, 'string'),
            f('description', 3, 'string'),
            f('termsOfService', 4, 'string'),
            f('contact', 5, m(message([f('name', 1, 'string'), f('url', 2, 'string'), f('email', 3, 'string')], 4))),
            f('license', 6, m(message([f('name', 1, 'string'), f('url', 2, 'string')], 3))),
          ],
          7,
        ),
      ),
    ),
    f('host', 3, 'string'),
    f('basePath', 4, 'string'),
    f('schemes', 5, 'string', true),
    f('consumes', 6, 'string', true),
    f('produces', 7, 'string', true),
    f('paths', 8, m(namedMap(m(PATH_ITEM), 2, 1))),
    f('definitions', 9, m(namedMap(m(SCHEMA)))),
    f('parameters', 10, m(namedMap(m(PARAMETER)))),
    f('responses', 11, m(namedMap(m(RESPONSE)))),
    f('security', 12, m(SECURITY_REQUIREMENT), true),
    f('securityDefinitions', 13, m(namedMap(m(SECURITY_DEFINITIONS_ITEM)))),
    f(
      'tags',
      14,
      m(message([f('name', 1, 'string'), f('description', 2, 'string'), f('externalDocs', 3, m(EXTERNAL_DOCS))], 4)),
      true,
    ),
    f('externalDocs', 15, m(EXTERNAL_DOCS)),
  ],
  16,
);

/** A Swagger 2.0 document (JSON form) as a gnostic `openapi.v2.Document` message. */
export function encodeOpenApiV2(doc: Readonly<Record<string, unknown>>): Uint8Array {
  const w = new ProtoWriter(64 * 1024);
  DOCUMENT().encode(w, doc);
  return w.finish();
}

/**
 * A gnostic `openapi.v2.Document` message back in its JSON form (the inverse of
 * {@link encodeOpenApiV2} for every member it encodes).
 * @throws ProtobufDecodeError for truncated or malformed input.
 */
export function decodeOpenApiV2(bytes: Uint8Array): Record<string, unknown> {
  const r = new ProtoReader(bytes);
  return DOCUMENT().decode(r, r.length) as Record<string, unknown>;
}
