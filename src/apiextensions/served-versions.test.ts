import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../apis/apiextensions/crd-types.js';
import { scaleSchema } from '../apis/autoscaling/autoscaling-v1-schemas.js';
import type { ApiObject } from '../apis/object.js';
import { buildOpenApiV2, buildOpenApiV3GroupVersion } from '../apis/openapi/documents.js';
import type { ResourceDefinition, StorageVersionConversion } from '../apis/resource-definition.js';
import type { Converter } from './conversion.js';
import { servedVersionDefinitions } from './served-versions.js';

/** The synchronous conversion of a `None` definition. */
function syncConversion(d: ResourceDefinition): StorageVersionConversion {
  const c = d.storageVersion;
  assert.ok(c && !('async' in c), 'a None definition converts synchronously');
  return c;
}

const schema = {
  openAPIV3Schema: {
    type: 'object',
    properties: {
      metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 } } },
      spec: {
        type: 'object',
        properties: {
          n: { type: 'integer', format: 'int32', default: 1 },
          inner: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      },
      status: { type: 'object', properties: { phase: { type: 'string' } } },
    },
  },
};

function crd(versions: object[], extra: object = {}): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'things.example.com', uid: 'u' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'things', kind: 'Thing' }, versions, ...extra },
    status: {
      acceptedNames: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList', shortNames: ['th'] },
    },
  };
}

const v = (name: string, extra: object = {}) => ({ name, served: true, storage: false, schema, ...extra });
const options = { scaleSchema, terminating: () => false };

describe('the served versions of a CRD', () => {
  it('serves the served versions by kube priority, named by the accepted names', () => {
    const defs = servedVersionDefinitions(
      crd([v('v1beta1'), v('v1', { storage: true }), v('v2alpha1'), v('v3', { served: false })]),
      options,
    );
    assert.deepEqual(
      defs.map((d) => d.version),
      ['v1', 'v1beta1', 'v2alpha1'],
    );
    const d = defs[0];
    assert.equal(d.kind, 'Thing');
    assert.equal(d.listKind, 'ThingList');
    assert.equal(d.resource, 'things');
    assert.deepEqual(d.shortNames, ['th']);
    assert.equal(d.protobuf, false);
    assert.equal(d.strategicMergePatch, false);
    assert.equal(defs[1].storageVersion?.apiVersion, 'example.com/v1');
  });

  it('publishes TypeMeta and ObjectMeta at the root and in embedded resources', () => {
    const [d] = servedVersionDefinitions(crd([v('v1', { storage: true })]), options);
    assert.deepEqual(Object.keys(d.schema.properties ?? {}), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    assert.equal(
      d.schema.properties?.metadata?.['x-orch-type-name'],
      'io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    );
    const inner = d.schema.properties?.spec?.properties?.inner;
    assert.deepEqual(Object.keys(inner?.properties ?? {}), ['apiVersion', 'kind', 'metadata']);
    assert.deepEqual(inner?.required, ['kind', 'apiVersion']);
  });

  it('validates the name as the schema restricts it, and formats as kube checks them in custom resources', () => {
    const [d] = servedVersionDefinitions(crd([v('v1', { storage: true })]), options);
    const obj = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 'toolong', namespace: 'default', uid: 'u', creationTimestamp: '2024-01-01T00:00:00Z' },
      spec: { n: 4294967296 },
    } as ApiObject;
    d.strategy.prepareForCreate(obj);
    assert.deepEqual(
      d.strategy.validateCreate(obj).map((e) => `${e.field}: ${e.message}`),
      ['metadata.name: Too long: may not be more than 5 bytes'],
      'int32 is not checked in custom resources',
    );
  });

  it('converts between versions by rewriting apiVersion, pruning and defaulting what it reads', () => {
    const [v1, v2] = servedVersionDefinitions(crd([v('v2', { storage: true }), v('v1')]), options);
    assert.equal(v1.version, 'v2');
    const stored = {
      apiVersion: 'example.com/v2',
      kind: 'Thing',
      metadata: { name: 'x' },
      spec: { junk: 1 },
    } as ApiObject;
    const read = syncConversion(v2).fromStorage(structuredClone(stored));
    assert.equal(read.apiVersion, 'example.com/v1');
    assert.deepEqual(read.spec, { n: 1 });
    assert.equal(syncConversion(v2).toStorage(read).apiVersion, 'example.com/v2');
    assert.equal(read.apiVersion, 'example.com/v1', 'toStorage does not change its argument');
  });

  it('warns of deprecated versions, naming the newest served one', () => {
    const defs = servedVersionDefinitions(
      crd([
        v('v1', { storage: true }),
        v('v1beta1', { deprecated: true }),
        v('v1alpha1', { deprecated: true, deprecationWarning: 'gone soon' }),
      ]),
      options,
    );
    assert.deepEqual(
      defs.map((d) => d.deprecationWarning),
      [undefined, 'example.com/v1beta1 Thing is deprecated; use example.com/v1 Thing', 'gone soon'],
    );
  });

  it('serves only the storage version of a definition with webhook conversion', () => {
    const defs = servedVersionDefinitions(
      crd([v('v1', { storage: true }), v('v2')], { conversion: { strategy: 'Webhook' } }),
      options,
    );
    assert.deepEqual(
      defs.map((d) => d.version),
      ['v1'],
    );
  });

  it('serves every served version of a webhook definition given its converter, converting through it', async () => {
    const calls: string[] = [];
    const renamed: Converter = {
      async convert(objects, desired) {
        calls.push(`${objects.length}->${desired}`);
        return objects.map((o) => (o.apiVersion === desired ? o : { ...o, apiVersion: desired, spec: { n: 7 } }));
      },
    };
    const defs = servedVersionDefinitions(
      crd([v('v1', { storage: true }), v('v2')], { conversion: { strategy: 'Webhook' } }),
      { ...options, webhook: renamed },
    );
    assert.deepEqual(
      defs.map((d) => d.version),
      ['v2', 'v1'],
    );
    const v2 = defs[0]?.storageVersion;
    assert.ok(v2 && 'async' in v2);
    assert.equal(v2.apiVersion, 'example.com/v1');
    const stored = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'x' }, spec: { junk: 1 } };
    const [read] = await v2.fromStorage([stored as ApiObject], new AbortController().signal);
    assert.equal(read?.apiVersion, 'example.com/v2');
    assert.deepEqual(read?.spec, { n: 7 });
    const [back] = await v2.toStorage([read as ApiObject], new AbortController().signal);
    assert.equal(back?.apiVersion, 'example.com/v1');
    assert.deepEqual(calls, ['1->example.com/v2', '1->example.com/v1']);
    const none = servedVersionDefinitions(crd([v('v1', { storage: true }), v('v2')]), { ...options, webhook: renamed });
    assert.ok(
      none.every((d) => d.storageVersion && !('async' in d.storageVersion)),
      'None ignores a converter',
    );
  });

  it('refuses creates while the definition terminates', () => {
    let terminating = false;
    const [d] = servedVersionDefinitions(crd([v('v1', { storage: true })]), {
      scaleSchema,
      terminating: () => terminating,
    });
    assert.equal(d.strategy.refuseCreate?.(), undefined);
    terminating = true;
    assert.equal(d.strategy.refuseCreate?.(), 'create not allowed while custom resource definition is terminating');
  });

  it('publishes the structural keywords in OpenAPI v3 (value validations not in v2)', () => {
    const rich = {
      openAPIV3Schema: {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            title: 'The spec',
            properties: {
              n: { type: 'number', minimum: 0, exclusiveMinimum: true, multipleOf: 0.5 },
              port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
              s: { type: 'string', nullable: true, not: { pattern: '^x' } },
            },
            'x-kubernetes-validations': [{ rule: 'self.n > 1', message: 'n is small' }],
          },
        },
      },
    };
    const [d] = servedVersionDefinitions(crd([v('v1', { storage: true, schema: rich })]), options);
    const v3 = buildOpenApiV3GroupVersion([d], 'example.com', 'v1') as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const spec = v3.components.schemas['com.example.v1.Thing'].properties.spec as Record<string, unknown>;
    assert.equal(spec.title, 'The spec');
    assert.deepEqual(spec['x-kubernetes-validations'], [{ message: 'n is small', rule: 'self.n > 1' }]);
    const props = spec.properties as Record<string, Record<string, unknown>>;
    assert.deepEqual(props.n, { exclusiveMinimum: true, minimum: 0, multipleOf: 0.5, type: 'number' });
    assert.deepEqual(props.port, {
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    assert.deepEqual(props.s, { not: { pattern: '^x' }, nullable: true, type: 'string' });
    const v2 = buildOpenApiV2([d]) as {
      definitions: Record<string, { properties: Record<string, Record<string, unknown>> }>;
    };
    const v2s = v2.definitions['com.example.v1.Thing'].properties.spec.properties as Record<
      string,
      Record<string, unknown>
    >;
    assert.equal(v2s.s.not, undefined);
    assert.equal(v2s.s.nullable, undefined);
  });
});
