import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../builtin.js';
import {
  buildOpenApiV2,
  buildOpenApiV3Documents,
  buildOpenApiV3GroupVersion,
  buildOpenApiV3Root,
  openApiHash,
  serializeOpenApiDocument,
} from './documents.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are walked as plain JSON
type Json = any;

const defs = builtinResources();
const core: Json = buildOpenApiV3GroupVersion(defs, '', 'v1');
const coordination: Json = buildOpenApiV3GroupVersion(defs, 'coordination.orch.io', 'v1');
const v2: Json = buildOpenApiV2(defs, { info: { title: 'Orch', version: 'v1.32.0' } });

/** Every value under `node`, with its JSON path. */
function* walk(node: Json, path = '$'): Generator<[string, Json]> {
  yield [path, node];
  if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) yield* walk(v, `${path}.${k}`);
  }
}

function refs(doc: Json): string[] {
  return [...walk(doc)].filter(([p]) => p.endsWith('.$ref')).map(([, v]) => v as string);
}

describe('OpenAPI v3 root', () => {
  it('lists one document per group version with the hash of the served bytes', () => {
    const root = buildOpenApiV3Root(defs);
    assert.deepEqual(Object.keys(root.paths), [
      'api/v1',
      'apis/apps/v1',
      'apis/autoscaling/v1',
      'apis/autoscaling/v2',
      'apis/batch/v1',
      'apis/certificates.orch.io/v1',
      'apis/coordination.orch.io/v1',
      'apis/coordination.orch.io/v1alpha2',
      'apis/discovery.orch.io/v1',
      'apis/events.orch.io/v1',
      'apis/flowcontrol.apiserver.orch.io/v1',
      'apis/networking.orch.io/v1',
      'apis/node.orch.io/v1',
      'apis/policy/v1',
      'apis/rbac.authorization.orch.io/v1',
      'apis/scheduling.orch.io/v1',
      'apis/storage.orch.io/v1',
    ]);
    const docs = buildOpenApiV3Documents(defs);
    for (const [path, entry] of Object.entries(root.paths)) {
      const doc = docs.get(path);
      assert.ok(doc);
      assert.equal(doc.hash, openApiHash(doc.body));
      assert.match(doc.hash, /^[0-9A-F]{128}$/);
      assert.equal(entry.serverRelativeURL, `/openapi/v3/${path}?hash=${doc.hash}`);
    }
    assert.equal(docs.get('api/v1')?.body, serializeOpenApiDocument(core));
  });

  it('is deterministic', () => {
    assert.deepEqual(buildOpenApiV3Root(builtinResources()), buildOpenApiV3Root(defs));
  });
});

describe('OpenAPI v3 group-version documents', () => {
  it('holds only its own group version', () => {
    assert.equal(core.openapi, '3.0.0');
    assert.ok(Object.keys(core.paths).every((p: string) => p.startsWith('/api/v1/')));
    assert.ok(Object.keys(coordination.paths).every((p: string) => p.startsWith('/apis/coordination.orch.io/v1/')));
    assert.equal(core.components.schemas['io.orch.api.coordination.v1.Lease'], undefined);
  });

  it('resolves every $ref inside the document', () => {
    for (const doc of [core, coordination]) {
      for (const ref of refs(doc)) {
        assert.match(ref, /^#\/components\/schemas\//);
        assert.ok(doc.components.schemas[ref.slice('#/components/schemas/'.length)], `dangling ${ref}`);
      }
    }
  });

  it('uses only x-kubernetes-* extensions', () => {
    for (const doc of [core, coordination, v2]) {
      const orchKeys = [...walk(doc)].filter(([p]) => /\.x-orch-/.test(p));
      assert.deepEqual(orchKeys, []);
    }
  });

  it('marks top-level kinds and their lists with x-kubernetes-group-version-kind', () => {
    const schemas = coordination.components.schemas;
    assert.deepEqual(schemas['io.orch.api.coordination.v1.Lease']['x-kubernetes-group-version-kind'], [
      { group: 'coordination.orch.io', kind: 'Lease', version: 'v1' },
    ]);
    assert.deepEqual(schemas['io.orch.api.coordination.v1.LeaseList']['x-kubernetes-group-version-kind'], [
      { group: 'coordination.orch.io', kind: 'LeaseList', version: 'v1' },
    ]);
    assert.deepEqual(core.components.schemas['io.orch.api.core.v1.ConfigMap']['x-kubernetes-group-version-kind'], [
      { group: '', kind: 'ConfigMap', version: 'v1' },
    ]);
    assert.deepEqual(schemas['io.orch.api.coordination.v1.LeaseList'].required, ['items']);
  });

  it('wraps described $refs in allOf and keeps patch markers beside them', () => {
    const lease = coordination.components.schemas['io.orch.api.coordination.v1.Lease'];
    // A field with a default beside its $ref, as kube's v3 documents write a non-pointer struct.
    assert.deepEqual(lease.properties.spec, {
      allOf: [{ $ref: '#/components/schemas/io.orch.api.coordination.v1.LeaseSpec' }],
      default: {},
    });
    const meta = core.components.schemas['io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta'];
    // List items that default to {} are wrapped in allOf, as kube's v3 documents write them.
    assert.deepEqual(meta.properties.ownerReferences, {
      items: {
        allOf: [{ $ref: '#/components/schemas/io.orch.apimachinery.pkg.apis.meta.v1.OwnerReference' }],
        default: {},
      },
      type: 'array',
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
    });
    assert.equal(meta.properties.finalizers['x-kubernetes-list-type'], 'set');
    const owner = core.components.schemas['io.orch.apimachinery.pkg.apis.meta.v1.OwnerReference'];
    assert.equal(owner['x-kubernetes-map-type'], 'atomic');
    const sa = core.components.schemas['io.orch.api.core.v1.ServiceAccount'];
    assert.equal(sa.properties.secrets['x-kubernetes-patch-merge-key'], 'name');
    const time = core.components.schemas['io.orch.apimachinery.pkg.apis.meta.v1.Time'];
    assert.deepEqual(time, { description: time.description, format: 'date-time', type: 'string' });
  });

  it('gives each operation its action and GVK, and PATCH its fieldValidation parameter', () => {
    const item = coordination.paths['/apis/coordination.orch.io/v1/namespaces/{namespace}/leases/{name}'];
    assert.deepEqual(
      item.parameters.map((p: Json) => [p.name, p.in]),
      [
        ['name', 'path'],
        ['namespace', 'path'],
        ['pretty', 'query'],
      ],
    );
    for (const [method, action] of [
      ['get', 'get'],
      ['put', 'put'],
      ['patch', 'patch'],
      ['delete', 'delete'],
    ]) {
      assert.equal(item[method]['x-kubernetes-action'], action);
      assert.deepEqual(item[method]['x-kubernetes-group-version-kind'], {
        group: 'coordination.orch.io',
        kind: 'Lease',
        version: 'v1',
      });
    }
    assert.equal(item.patch.operationId, 'patchCoordinationV1NamespacedLease');
    assert.ok(item.patch.parameters.some((p: Json) => p.name === 'fieldValidation' && p.in === 'query'));
    assert.deepEqual(Object.keys(item.patch.requestBody.content), [
      'application/apply-patch+yaml',
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
    assert.deepEqual(Object.keys(item.put.responses), ['200', '201', '401']);
    const list = coordination.paths['/apis/coordination.orch.io/v1/leases'].get;
    assert.equal(list.operationId, 'listCoordinationV1LeaseForAllNamespaces');
    assert.ok(list.responses['200'].content['application/json;stream=watch']);
  });

  it('serves namespaces cluster-scoped with status and finalize, without deletecollection', () => {
    assert.deepEqual(Object.keys(core.paths['/api/v1/namespaces']).sort(), ['get', 'parameters', 'post']);
    assert.ok(core.paths['/api/v1/namespaces/{name}'].delete);
    assert.deepEqual(Object.keys(core.paths['/api/v1/namespaces/{name}/status']).sort(), [
      'get',
      'parameters',
      'patch',
      'put',
    ]);
    const finalize = core.paths['/api/v1/namespaces/{name}/finalize'];
    assert.deepEqual(Object.keys(finalize).sort(), ['parameters', 'put']);
    assert.equal(finalize.put.operationId, 'replaceCoreV1NamespaceFinalize');
    assert.equal(
      core.paths['/api/v1/namespaces/{namespace}/configmaps'].delete.operationId,
      'deleteCoreV1CollectionNamespacedConfigMap',
    );
  });
});

describe('OpenAPI v2 document', () => {
  it('is Swagger 2.0 with #/definitions refs and body parameters', () => {
    assert.equal(v2.swagger, '2.0');
    assert.deepEqual(v2.info, { title: 'Orch', version: 'v1.32.0' });
    for (const ref of refs(v2)) {
      assert.match(ref, /^#\/definitions\//);
      assert.ok(v2.definitions[ref.slice('#/definitions/'.length)], `dangling ${ref}`);
    }
    assert.equal([...walk(v2)].filter(([p]) => p.endsWith('.allOf')).length, 0);
    const create = v2.paths['/api/v1/namespaces/{namespace}/secrets'].post;
    assert.deepEqual(create.parameters[0], {
      in: 'body',
      name: 'body',
      required: true,
      schema: { $ref: '#/definitions/io.orch.api.core.v1.Secret' },
    });
    assert.deepEqual(create.consumes, ['*/*']);
    const lease = v2.definitions['io.orch.api.coordination.v1.Lease'];
    assert.equal(lease.properties.spec.$ref, '#/definitions/io.orch.api.coordination.v1.LeaseSpec');
    assert.deepEqual(
      v2.definitions['io.orch.apimachinery.pkg.apis.meta.v1.DeleteOptions']['x-kubernetes-group-version-kind'],
      [
        { group: '', kind: 'DeleteOptions', version: 'v1' },
        { group: 'apps', kind: 'DeleteOptions', version: 'v1' },
        { group: 'autoscaling', kind: 'DeleteOptions', version: 'v1' },
        { group: 'autoscaling', kind: 'DeleteOptions', version: 'v2' },
        { group: 'batch', kind: 'DeleteOptions', version: 'v1' },
        { group: 'certificates.orch.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'coordination.orch.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'coordination.orch.io', kind: 'DeleteOptions', version: 'v1alpha2' },
        { group: 'discovery.orch.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'events.orch.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'flowcontrol.apiserver.orch.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'networking.orch.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'node.orch.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'policy', kind: 'DeleteOptions', version: 'v1' },
        { group: 'rbac.authorization.orch.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'scheduling.orch.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'storage.orch.io', kind: 'DeleteOptions', version: 'v1' },
      ],
    );
  });

  it('covers every group version', () => {
    assert.ok(v2.paths['/api/v1/namespaces/{namespace}/configmaps/{name}']);
    assert.ok(v2.paths['/apis/coordination.orch.io/v1/namespaces/{namespace}/leases/{name}']);
    // kube defaults a Secret's type in Go code, not in the schema it publishes.
    assert.equal(core.components.schemas['io.orch.api.core.v1.Secret'].properties.type.default, undefined);
    // A zero default of an omitempty field is published in v3, though never applied.
    assert.equal(core.components.schemas['io.orch.api.core.v1.LocalObjectReference'].properties.name.default, '');
  });

  it('holds no defaults, as kube prunes them from its v2 document', () => {
    // A `default` key that is not a property named `default` (LimitRangeItem has one).
    const defaults = (doc: Json) =>
      [...walk(doc)].filter(([p]) => p.endsWith('.default') && !p.endsWith('.properties.default')).map(([p]) => p);
    assert.ok(defaults(core).length > 0, 'v3 publishes defaults');
    assert.deepEqual(defaults(v2), []);
  });
});
