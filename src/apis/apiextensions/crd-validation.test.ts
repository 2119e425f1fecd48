import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../api-domain.js';
import { formatFieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { customResourceDefinitionResource } from './crd-resource.js';
import type { CustomResourceDefinition, JSONSchemaProps } from './crd-types.js';

const def = customResourceDefinitionResource();

/** A valid CRD whose first version's schema is `schema` (and `mutate` applied to the whole object). */
function crd(
  schema: JSONSchemaProps,
  mutate: (c: CustomResourceDefinition) => void = () => {},
): CustomResourceDefinition {
  const c: CustomResourceDefinition = {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
  mutate(c);
  return c;
}

/** The errors of creating `c`, as kube prints them (`field: message`). */
function createErrors(c: CustomResourceDefinition): string[] {
  const obj = structuredClone(c) as ApiObject;
  obj.metadata.uid = 'uid';
  obj.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
  def.strategy.defaults?.(obj);
  def.strategy.prepareForCreate(obj);
  return def.strategy.validateCreate(obj).map(formatFieldError);
}

const S = 'spec.validation.openAPIV3Schema';
const VERSIONS = [
  '[]apiextensions.CustomResourceDefinitionVersion{',
  'apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, Deprecated:false, DeprecationWarning:(*string)(0xc000000000), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil), SelectableFields:[]apiextensions.SelectableField(nil)}, ',
  'apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, Deprecated:true, DeprecationWarning:(*string)(0xc000000000), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil), SelectableFields:[]apiextensions.SelectableField(nil)}}',
].join('');
const obj = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties,
  ...extra,
});

describe('CustomResourceDefinition validation', () => {
  it('accepts a valid definition, defaults its names and records the storage version', () => {
    const c = crd(obj({ spec: obj({ replicas: { type: 'integer', default: 1 } }) }));
    assert.deepEqual(createErrors(c), []);
    const prepared = structuredClone(c) as ApiObject & CustomResourceDefinition;
    def.strategy.defaults?.(prepared);
    def.strategy.prepareForCreate(prepared);
    assert.equal(prepared.spec.names?.singular, 'widget');
    assert.equal(prepared.spec.names?.listKind, 'WidgetList');
    assert.deepEqual(prepared.spec.conversion, { strategy: 'None' });
    assert.deepEqual(prepared.status?.storedVersions, ['v1']);
  });

  const structural: { name: string; schema: JSONSchemaProps; want: string[] }[] = [
    {
      name: 'root type missing',
      schema: { properties: { spec: { type: 'object' } } },
      want: [`${S}.type: Required value: must not be empty at the root`],
    },
    {
      name: 'root type not object',
      schema: { type: 'array', items: { type: 'string' } },
      want: [`${S}.type: Invalid value: "array": must be object at the root`],
    },
    {
      name: 'field type missing',
      schema: obj({ spec: { description: 'x' } }),
      want: [`${S}.properties[spec].type: Required value: must not be empty for specified object fields`],
    },
    {
      name: 'item type missing',
      schema: obj({ list: { type: 'array', items: { description: 'x' } } }),
      want: [`${S}.properties[list].items.type: Required value: must not be empty for specified array items`],
    },
    {
      name: 'array without items',
      schema: obj({ list: { type: 'array' } }),
      want: [`${S}.properties[list].items: Required value: must be specified`],
    },
    {
      name: 'additionalProperties at the root',
      schema: { type: 'object', additionalProperties: { type: 'string' } },
      want: [`${S}.additionalProperties: Forbidden: must not be used at the root`],
    },
    {
      name: 'type in a value validation',
      schema: obj({ spec: obj({ a: { type: 'string' } }, { anyOf: [{ type: 'object' }] }) }),
      want: [`${S}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`],
    },
    {
      name: 'everything a value validation may not hold',
      schema: obj({
        spec: obj(
          { a: { type: 'string' } },
          {
            allOf: [
              {
                description: 'd',
                title: 't',
                nullable: true,
                default: {},
                'x-kubernetes-preserve-unknown-fields': true,
                'x-kubernetes-embedded-resource': true,
                'x-kubernetes-int-or-string': true,
                'x-kubernetes-list-type': 'atomic',
                'x-kubernetes-map-type': 'atomic',
                'x-kubernetes-list-map-keys': ['a'],
                'x-kubernetes-validations': [{ rule: 'true' }],
                additionalProperties: { type: 'string' },
              },
            ],
          },
        ),
      }),
      want: [
        `${S}.properties[spec].allOf[0].additionalProperties: Forbidden: must be undefined to be structural`,
        `${S}.properties[spec].allOf[0].default: Forbidden: must be undefined to be structural`,
        `${S}.properties[spec].allOf[0].description: Forbidden: must be empty to be structural`,
        `${S}.properties[spec].allOf[0].nullable: Forbidden: must be false to be structural`,
        `${S}.properties[spec].allOf[0].title: Forbidden: must be empty to be structural`,
        `${S}.properties[spec].allOf[0].x-kubernetes-embedded-resource: Forbidden: must be false to be structural`,
        `${S}.properties[spec].allOf[0].x-kubernetes-int-or-string: Forbidden: must be false to be structural`,
        `${S}.properties[spec].allOf[0].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural`,
        `${S}.properties[spec].allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
        `${S}.properties[spec].allOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural`,
        `${S}.properties[spec].allOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
        `${S}.properties[spec].allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
        // The OpenAPI rules visit junctor members too.
        `${S}.properties[spec].allOf[0].type: Required value: must be object if x-kubernetes-map-type is specified`,
        `${S}.properties[spec].allOf[0].type: Required value: must be array if x-kubernetes-list-type is specified`,
        `${S}.properties[spec].allOf[0].x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`,
      ],
    },
    {
      // kube v1.32 (ValidateStructural): nested validation rules are refused in every junctor,
      // allOf included, and never compiled; the rules' own field checks still run on them.
      name: 'validation rules inside anyOf, oneOf and not',
      schema: obj({
        spec: obj(
          { a: { type: 'string' } },
          {
            anyOf: [{ 'x-kubernetes-validations': [{ rule: 'self.a != ""' }] }],
            oneOf: [{ 'x-kubernetes-validations': [{ rule: 'not CEL (' }] }],
            not: { 'x-kubernetes-validations': [{ rule: ' ' }] },
          },
        ),
      }),
      want: [
        `${S}.properties[spec].anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
        `${S}.properties[spec].not.x-kubernetes-validations: Forbidden: must be empty to be structural`,
        `${S}.properties[spec].oneOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
        `${S}.properties[spec].not.x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      ],
    },
    {
      name: 'metadata in a nested context (completeness is checked at the root, as kube does)',
      schema: obj({ spec: { type: 'object' } }, { not: { properties: { metadata: {} } } }),
      want: [
        `${S}.not.properties[metadata]: Forbidden: must not be specified in a nested context`,
        `${S}.properties[metadata]: Required value: because it is defined in ${S}.not.properties[metadata]`,
      ],
    },
    {
      name: 'value validation of an undeclared property',
      schema: obj(
        { spec: obj({ a: { type: 'string' } }) },
        { oneOf: [{ properties: { spec: { properties: { b: { pattern: 'x' } } } } }] },
      ),
      want: [
        `${S}.properties[spec].properties[b]: Required value: because it is defined in ${S}.oneOf[0].properties[spec].properties[b]`,
      ],
    },
    {
      name: 'root metadata restricted beyond name and generateName',
      schema: obj({ metadata: { type: 'object', properties: { labels: { type: 'object' } } } }),
      want: [
        `${S}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      ],
    },
    {
      name: 'root metadata, kind and apiVersion of the wrong type',
      schema: obj({ metadata: { type: 'string' }, kind: { type: 'integer' }, apiVersion: { type: 'object' } }),
      want: [
        `${S}.properties[apiVersion].type: Invalid value: "object": must be string`,
        `${S}.properties[kind].type: Invalid value: "integer": must be string`,
        `${S}.properties[metadata].type: Invalid value: "string": must be object`,
      ],
    },
    {
      name: 'embedded resource not an object, with additionalProperties',
      schema: obj({
        inner: { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, type: 'string' },
        other: { type: 'object', 'x-kubernetes-embedded-resource': true, additionalProperties: { type: 'string' } },
      }),
      want: [
        `${S}.properties[inner].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
        `${S}.properties[other].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`,
        `${S}.properties[other].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      ],
    },
    {
      name: 'int-or-string with preserve-unknown-fields and embedded-resource',
      schema: obj({
        port: {
          'x-kubernetes-int-or-string': true,
          'x-kubernetes-preserve-unknown-fields': true,
          'x-kubernetes-embedded-resource': true,
        },
      }),
      want: [
        `${S}.properties[port].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
        `${S}.properties[port].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
        `${S}.properties[port].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
      ],
    },
    {
      name: 'int-or-string anyOf pattern may hold types',
      schema: obj({ port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } }),
      want: [],
    },
    {
      name: 'invalid pattern',
      schema: obj({ name: { type: 'string', pattern: '(' } }),
      want: [
        `${S}.properties[name].pattern: Invalid value: "(": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`(\``,
      ],
    },
  ];
  for (const c of structural) {
    it(`structural: ${c.name}`, () => {
      assert.deepEqual(createErrors(crd(c.schema)), c.want);
    });
  }

  const openapi: { name: string; schema: JSONSchemaProps; want: string[] }[] = [
    {
      name: 'unsupported keywords',
      schema: obj({
        a: { type: 'string', id: 'x', $ref: '#/x' },
        b: { type: 'object', patternProperties: { x: { type: 'string' } }, additionalItems: false },
        c: { type: 'array', items: [{ type: 'string' }], uniqueItems: true },
        d: { type: 'null' },
        e: { type: 'thing' },
      }),
      want: [
        `${S}.properties[a].id: Forbidden: id is not supported`,
        `${S}.properties[a].$ref: Forbidden: $ref is not supported`,
        `${S}.properties[b].additionalItems: Forbidden: additionalItems is not supported`,
        `${S}.properties[b].patternProperties: Forbidden: patternProperties is not supported`,
        `${S}.properties[c].items: Forbidden: items must be a schema object and not an array`,
        `${S}.properties[c].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
        `${S}.properties[d].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
        `${S}.properties[d].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
        `${S}.properties[e].type: Unsupported value: "thing": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      ],
    },
    {
      name: 'defaults in top-level metadata and nullable root',
      schema: obj({ metadata: { type: 'object', default: {} } }, { nullable: true }),
      want: [
        `${S}.nullable: Forbidden: nullable cannot be true at the root`,
        `${S}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
      ],
    },
    {
      name: 'properties and additionalProperties together',
      schema: obj({
        m: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
      }),
      want: [
        `${S}.properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      ],
    },
    {
      name: 'list and map markers',
      schema: obj({
        a: { type: 'string', 'x-kubernetes-list-type': 'set', 'x-kubernetes-map-type': 'atomic' },
        b: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' },
        c: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'map' },
        d: {
          type: 'array',
          items: { type: 'object', properties: { k: { type: 'string' }, o: { type: 'object' } } },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k', 'o', 'missing'],
        },
        e: {
          type: 'array',
          items: { type: 'object', properties: { x: { type: 'string' } } },
          'x-kubernetes-list-type': 'set',
        },
        f: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['x'] },
        g: { type: 'object', 'x-kubernetes-map-type': 'sometimes', 'x-kubernetes-preserve-unknown-fields': false },
      }),
      want: [
        `${S}.properties[a].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
        `${S}.properties[a].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
        `${S}.properties[b].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
        `${S}.properties[c].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
        `${S}.properties[c].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
        `${S}.properties[d].items.properties[o].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
        `${S}.properties[d].x-kubernetes-list-map-keys: Invalid value: []string{"k", "o", "missing"}: entries must all be names of item properties`,
        `${S}.properties[d].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
        `${S}.properties[d].items.properties[o].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
        `${S}.properties[e].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`,
        `${S}.properties[f].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
        `${S}.properties[g].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
        `${S}.properties[g].x-kubernetes-map-type: Unsupported value: "sometimes": supported values: "atomic", "granular"`,
      ],
    },
    {
      name: 'embedded resources inside resource meta, defaults below metadata maps, nullable list keys and items',
      schema: obj({
        inner: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
          properties: {
            metadata: {
              type: 'object',
              properties: { labels: { type: 'object', additionalProperties: { type: 'string', default: 'x' } } },
            },
            kind: { type: 'string', 'x-kubernetes-embedded-resource': true },
          },
        },
        keyed: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: {
            type: 'object',
            nullable: true,
            required: ['k'],
            properties: { k: { type: 'string', nullable: true } },
          },
        },
      }),
      want: [
        `${S}.properties[inner].properties[kind].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
        `${S}.properties[inner].properties[kind].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
        `${S}.properties[inner].properties[kind].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta`,
        `${S}.properties[inner].properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata`,
        `${S}.properties[keyed].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map`,
        `${S}.properties[keyed].items.properties[k].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
      ],
    },
    {
      name: 'static checks of validation rules',
      schema: obj({
        spec: obj(
          { a: { type: 'string' } },
          {
            'x-kubernetes-validations': [
              { rule: ' ' },
              { rule: 'self.a != ""', message: ' ' },
              { rule: 'true', reason: 'FieldValueBogus', fieldPath: '.nothing' },
              { rule: 'a\nb' },
            ],
          },
        ),
      }),
      want: [
        `${S}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
        `${S}.properties[spec].x-kubernetes-validations[1].message: Invalid value: " ": message must be non-empty if specified`,
        `${S}.properties[spec].x-kubernetes-validations[2].reason: Unsupported value: "FieldValueBogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
        `${S}.properties[spec].x-kubernetes-validations[2].fieldPath: Invalid value: ".nothing": fieldPath must be a valid path`,
        `${S}.properties[spec].x-kubernetes-validations[3].message: Required value: message must be specified if rule contains line breaks`,
      ],
    },
  ];
  for (const c of openapi) {
    it(`OpenAPI rules: ${c.name}`, () => {
      assert.deepEqual(createErrors(crd(c.schema)), c.want);
    });
  }

  it('checks defaults against their schema and for unknown fields', () => {
    const schema = obj({
      spec: obj({
        replicas: { type: 'integer', default: 'many' },
        conf: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 1 } },
      }),
    });
    assert.deepEqual(createErrors(crd(schema)), [
      `${S}.properties[spec].properties[conf].default: Invalid value: map[string]interface {}{"a":"x", "b":1}: must not have unknown fields`,
      `${S}.properties[spec].properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`,
    ]);
  });

  it('reports a NewStructural failure only when nothing else is wrong', () => {
    assert.deepEqual(createErrors(crd(obj({ a: { type: 'string' } }, { $schema: 'http://x' }))), [
      `${S}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`,
    ]);
  });

  it('restricts the root of a schema with a status sub-resource', () => {
    const c = crd(obj({ status: { type: 'object' } }, { minProperties: 1, title: 'ok' }), (x) => {
      x.spec.versions![0].subresources = { status: {} };
    });
    const errs = createErrors(c);
    assert.equal(errs.length, 1);
    assert.match(
      errs[0],
      /^spec\.validation\.openAPIV3Schema: Invalid value: apiextensions\.JSONSchemaProps\{ID:"".*: only \[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/,
    );
  });

  const specCases: { name: string; mutate: (c: CustomResourceDefinition) => void; want: string[] }[] = [
    {
      name: 'names, group and scope',
      mutate: (c) => {
        c.metadata.name = 'wrong';
        c.spec.group = 'Example';
        c.spec.scope = 'Global';
        c.spec.names = {
          plural: 'Widgets',
          kind: 'Widget-',
          listKind: 'Widget-',
          shortNames: ['w_'],
          categories: ['A'],
        };
      },
      want: [
        'metadata.name: Invalid value: "wrong": must be spec.names.plural+"."+spec.group',
        `spec.group: Invalid value: "Example": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
        `spec.names.plural: Invalid value: "Widgets": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        `spec.names.singular: Invalid value: "widget-": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        `spec.names.kind: Invalid value: "Widget-": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        `spec.names.listKind: Invalid value: "Widget-": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        `spec.names.shortNames[0]: Invalid value: "w_": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        'spec.names.listKind: Invalid value: "Widget-": kind and listKind may not be the same',
        `spec.names.categories[0]: Invalid value: "A": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      ],
    },
    {
      name: 'versions: storage, duplicates, schema required, deprecation warning',
      mutate: (c) => {
        c.spec.versions = [
          { name: 'v1', served: true, storage: false, deprecationWarning: 'x' },
          { name: 'v1', served: true, storage: false, deprecated: true, deprecationWarning: '' },
        ];
      },
      want: [
        'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
        'spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required',
        'spec.versions[0].deprecationWarning: Invalid value: "x": can only be set for deprecated versions',
        'spec.versions[1].deprecationWarning: Invalid value: "": must not be an empty string',
        `spec.versions: Invalid value: ${VERSIONS}: must contain unique version names`,
        `spec.versions: Invalid value: ${VERSIONS}: must have exactly one version marked as storage version`,
        'status.storedVersions: Invalid value: []string{}: must have at least one stored version',
      ],
    },
    {
      name: 'sub-resources, columns and selectable fields',
      mutate: (c) => {
        const v = c.spec.versions![0];
        v.schema = { openAPIV3Schema: obj({ spec: obj({ n: { type: 'integer' }, o: { type: 'object' } }) }) };
        v.subresources = {
          scale: { specReplicasPath: 'spec.n', statusReplicasPath: '.spec.n', labelSelectorPath: '.x' },
        };
        v.additionalPrinterColumns = [{ name: '', type: 'text', format: 'money', jsonPath: 'x' }, { name: 'a' }];
        v.selectableFields = [
          { jsonPath: '.spec.o' },
          { jsonPath: '.metadata.name' },
          { jsonPath: 'spec.n' },
          { jsonPath: '' },
        ];
      },
      want: [
        'spec.subresources.scale.specReplicasPath: Invalid value: "spec.n": must be a simple json path starting with .',
        'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.n": should be a json path under .status',
        'spec.subresources.scale.labelSelectorPath: Invalid value: ".x": should be a json path under either .spec or .status',
        'spec.additionalPrinterColumns[0].name: Required value',
        'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[0].format: Invalid value: "money": must be one of byte,date,date-time,double,float,int32,int64,password',
        'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "x": must be a simple json path starting with .',
        'spec.additionalPrinterColumns[1].type: Required value: must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[1].JSONPath: Required value',
        'spec.selectableFields[0].jsonPath: Invalid value: ".spec.o": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        'spec.selectableFields[1].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field',
        'spec.selectableFields[2].jsonPath: Invalid value: "spec.n": is an invalid path: expected [ or . but got: spec',
        'spec.selectableFields[3].jsonPath: Required value',
      ],
    },
    {
      name: 'conversion webhook',
      mutate: (c) => {
        c.spec.conversion = {
          strategy: 'Webhook',
          webhook: { clientConfig: { url: 'http://user@host/x?q=1#f' }, conversionReviewVersions: ['v2', 'v2'] },
        };
      },
      want: [
        'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
        'spec.conversion.webhookClientConfig.url: Invalid value: "user": user information is not permitted in the URL',
        'spec.conversion.webhookClientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
        'spec.conversion.webhookClientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL',
        'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
        'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
      ],
    },
    {
      name: 'conversion None with webhook settings, preserveUnknownFields',
      mutate: (c) => {
        c.spec.conversion = {
          strategy: 'None',
          webhook: { clientConfig: { url: 'https://h' }, conversionReviewVersions: ['v1'] },
        };
        c.spec.preserveUnknownFields = true;
      },
      want: [
        'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
        'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
        'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ],
    },
  ];
  for (const c of specCases) {
    it(`spec: ${c.name}`, () => {
      assert.deepEqual(createErrors(crd(obj({ spec: { type: 'object' } }), c.mutate)), c.want);
    });
  }

  it('requires API approval in protected groups (the profile’s own domains)', () => {
    const k8s = customResourceDefinitionResource(apiDomain('k8s.io'));
    const c = crd(obj({ spec: { type: 'object' } }), (x) => {
      x.spec.group = 'things.k8s.io';
      x.metadata.name = 'widgets.things.k8s.io';
    }) as ApiObject;
    k8s.strategy.defaults?.(c);
    k8s.strategy.prepareForCreate(c);
    assert.deepEqual(k8s.strategy.validateCreate(c).map(formatFieldError), [
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ]);
    c.metadata.annotations = { 'api-approved.kubernetes.io': 'unapproved, testing' };
    assert.deepEqual(k8s.strategy.validateCreate(c), []);
  });

  it('keeps group and plural, and (once established) scope and kind', () => {
    const old = crd(obj({ spec: { type: 'object' } })) as ApiObject & CustomResourceDefinition;
    old.metadata = { ...old.metadata, uid: 'u', resourceVersion: '1', creationTimestamp: '2024-01-01T00:00:00Z' };
    def.strategy.defaults?.(old);
    def.strategy.prepareForCreate(old);
    old.status = { ...old.status, conditions: [{ type: 'Established', status: 'True' }] };
    const next = structuredClone(old);
    next.spec.scope = 'Cluster';
    next.spec.names = { ...next.spec.names, kind: 'Gadget', plural: 'gadgets' };
    def.strategy.defaults?.(next);
    def.strategy.prepareForUpdate(next, old);
    assert.deepEqual(def.strategy.validateUpdate(next, old).map(formatFieldError), [
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Gadget": field is immutable',
      'spec.names.plural: Invalid value: "gadgets": field is immutable',
    ]);
  });
});
