import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../apis/apiextensions/crd-types.js';
import { scaleSchema } from '../apis/autoscaling/autoscaling-v1-schemas.js';
import { buildOpenApiV2, buildOpenApiV3GroupVersion } from '../apis/openapi/documents.js';
import { servedVersionDefinitions } from './served-versions.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are read as plain JSON
type Json = any;

function crd(openAPIV3Schema: object | undefined, extra: object = {}): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'things.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'things', kind: 'Thing' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          ...(openAPIV3Schema ? { schema: { openAPIV3Schema } } : {}),
          ...extra,
        },
      ],
    },
    status: { acceptedNames: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' } },
  };
}

const defsOf = (c: CustomResourceDefinition) => servedVersionDefinitions(c, { scaleSchema, terminating: () => false });
const v2Of = (c: CustomResourceDefinition): Json => buildOpenApiV2(defsOf(c));
const v3Of = (c: CustomResourceDefinition): Json => buildOpenApiV3GroupVersion(defsOf(c), 'example.com', 'v1');
const GVK = [{ group: 'example.com', kind: 'Thing', version: 'v1' }];

/** The v2 definition of `spec` in a kind whose `spec` is `spec`. */
function v2Spec(spec: object): Json {
  const doc = v2Of(crd({ type: 'object', properties: { spec } }));
  return doc.definitions['com.example.v1.Thing'].properties.spec;
}

describe('OpenAPI v2 of a custom resource (kube’s ToStructuralOpenAPIV2)', () => {
  const cases: { name: string; spec: object; want: object }[] = [
    {
      name: 'drops the junctors (value validations v2 cannot say)',
      spec: {
        type: 'object',
        properties: { a: { type: 'string', oneOf: [{ pattern: 'a' }, { pattern: 'b' }], not: { pattern: 'c' } } },
        allOf: [{ required: ['a'] }],
        anyOf: [{ properties: { a: { maxLength: 3 } } }],
      },
      want: { type: 'object', properties: { a: { type: 'string' } } },
    },
    {
      name: 'makes a nullable field untyped, without items or properties, and not required',
      spec: {
        type: 'object',
        required: ['n', 'm', 'k'],
        properties: {
          n: { type: 'object', nullable: true, description: 'd', properties: { x: { type: 'string' } } },
          l: { type: 'array', nullable: true, items: { type: 'string' } },
          m: { type: 'string', nullable: true, maxLength: 3 },
          k: { type: 'string' },
        },
      },
      want: {
        type: 'object',
        required: ['k'],
        properties: { n: { description: 'd' }, l: {}, m: { maxLength: 3 }, k: { type: 'string' } },
      },
    },
    {
      name: 'drops required entirely when additionalProperties may be null',
      spec: { type: 'object', required: ['a'], additionalProperties: { type: 'string', nullable: true } },
      want: { type: 'object', additionalProperties: {} },
    },
    {
      name: 'leaves unknown-field-keeping objects and arrays untyped and empty',
      spec: {
        type: 'object',
        properties: {
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { k: { type: 'string' } } },
          list: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } },
        },
      },
      want: {
        type: 'object',
        properties: {
          free: { 'x-kubernetes-preserve-unknown-fields': true },
          list: { 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    },
    {
      name: 'publishes an int-or-string field with its marker alone, without the anyOf',
      spec: {
        type: 'object',
        properties: {
          port: { 'x-kubernetes-int-or-string': true, description: 'p' },
          pct: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        },
      },
      want: {
        type: 'object',
        properties: {
          port: { description: 'p', 'x-kubernetes-int-or-string': true },
          pct: { 'x-kubernetes-int-or-string': true },
        },
      },
    },
    {
      name: 'prunes defaults and keeps the other x-kubernetes extensions',
      spec: {
        type: 'object',
        'x-kubernetes-map-type': 'atomic',
        'x-kubernetes-validations': [{ rule: 'self.n > 0', message: 'm' }],
        properties: {
          n: { type: 'integer', default: 1, minimum: 0 },
          tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', default: 'x' } },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          },
        },
      },
      want: {
        type: 'object',
        'x-kubernetes-map-type': 'atomic',
        'x-kubernetes-validations': [{ message: 'm', rule: 'self.n > 0' }],
        properties: {
          n: { type: 'integer', minimum: 0 },
          tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          },
        },
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(v2Spec(c.spec), c.want));
  }

  it('adds TypeMeta and ObjectMeta to embedded resources, except those keeping unknown fields', () => {
    const spec = v2Spec({
      type: 'object',
      properties: {
        typed: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          required: ['spec'],
          properties: { spec: { type: 'object' } },
        },
        raw: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    });
    assert.deepEqual(Object.keys(spec.properties.typed.properties).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
    assert.deepEqual(spec.properties.typed.required, ['spec', 'kind', 'apiVersion']);
    assert.match(spec.properties.typed.properties.metadata.$ref, /ObjectMeta$/);
    assert.deepEqual(spec.properties.raw, {
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    });
    // v3 keeps the meta of both.
    const v3 = v3Of(
      crd({
        type: 'object',
        properties: {
          raw: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      }),
    );
    assert.deepEqual(Object.keys(v3.components.schemas['com.example.v1.Thing'].properties.raw.properties).sort(), [
      'apiVersion',
      'kind',
      'metadata',
    ]);
  });

  it('publishes a bare object for a root that keeps unknown fields', () => {
    const doc = v2Of(
      crd({
        type: 'object',
        description: 'anything',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: { spec: { type: 'string' } },
      }),
    );
    assert.deepEqual(doc.definitions['com.example.v1.Thing'], {
      type: 'object',
      'x-kubernetes-group-version-kind': GVK,
      'x-kubernetes-selectable-fields': [],
    });
  });

  it('puts TypeMeta and ObjectMeta at the root, over what the schema says there', () => {
    const doc = v2Of(
      crd({
        type: 'object',
        description: 'A thing.',
        properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 } } } },
      }),
    );
    const kind = doc.definitions['com.example.v1.Thing'];
    assert.equal(kind.description, 'A thing.');
    assert.deepEqual(Object.keys(kind.properties), ['apiVersion', 'kind', 'metadata']);
    assert.deepEqual(kind.properties.metadata, {
      $ref: '#/definitions/io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      description:
        "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
    });
  });

  it('publishes the selectable fields on the kind and its list, in both documents', () => {
    const c = crd(
      { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' } } } } },
      { selectableFields: [{ jsonPath: '.spec.color' }] },
    );
    const want = [{ fieldPath: 'spec.color' }];
    const v2 = v2Of(c);
    assert.deepEqual(v2.definitions['com.example.v1.Thing']['x-kubernetes-selectable-fields'], want);
    assert.deepEqual(v2.definitions['com.example.v1.ThingList']['x-kubernetes-selectable-fields'], want);
    const v3 = v3Of(c);
    assert.deepEqual(v3.components.schemas['com.example.v1.Thing']['x-kubernetes-selectable-fields'], want);
    assert.deepEqual(v3.components.schemas['com.example.v1.ThingList']['x-kubernetes-selectable-fields'], want);
    assert.equal(v2.definitions['com.example.v1.ThingList'].description, 'ThingList is a list of Thing');
  });

  it('unfolds int-or-string in v3 as kube does, beside an anyOf of the field’s own', () => {
    const v3 = v3Of(
      crd({
        type: 'object',
        properties: {
          plain: { 'x-kubernetes-int-or-string': true },
          own: { 'x-kubernetes-int-or-string': true, anyOf: [{ maximum: 3 }, { pattern: 'x' }] },
        },
      }),
    );
    const props = v3.components.schemas['com.example.v1.Thing'].properties;
    assert.deepEqual(props.plain, {
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    assert.deepEqual(props.own, {
      allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }],
      anyOf: [{ maximum: 3 }, { pattern: 'x' }],
      'x-kubernetes-int-or-string': true,
    });
  });
});
