import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AdmissionAttributes, AdmissionPlugin } from '../../src/admission/index.js';
import { objectMetaField } from '../../src/apis/meta/object-meta-schema.js';
import { apiErrors } from '../../src/apis/meta/status.js';
import { apiVersionField, kindField } from '../../src/apis/meta/type-meta-fields.js';
import type { ApiObject } from '../../src/apis/object.js';
import type { ResourceDefinition, SubresourceCreate } from '../../src/apis/resource-definition.js';
import type { Schema } from '../../src/apis/schema/schema.js';
import { type InProcessServer, startInProcess } from './server-fixture.js';
import { widgetDefinition } from './widget-definition.js';

// Resources that store nothing and answer POST with a computed object (TokenReview-like), and
// sub-resources of another kind that do the same (TokenRequest-like), added while serving.

const echoSchema: Schema = {
  type: 'object',
  'x-orch-type-name': 'io.orch.test.v1.Echo',
  properties: {
    apiVersion: apiVersionField,
    kind: kindField,
    metadata: objectMetaField(),
    spec: { type: 'object', properties: { say: { type: 'string' } } },
    status: {
      type: 'object',
      properties: { heard: { type: 'string' }, by: { type: 'string' }, parent: { type: 'string' } },
    },
  },
};

const echoes: ResourceDefinition = {
  group: 'echo.test.orch.io',
  version: 'v1',
  kind: 'Echo',
  listKind: 'EchoList',
  resource: 'echoes',
  singular: 'echo',
  namespaced: false,
  shortNames: [],
  categories: [],
  verbs: ['create'],
  subresources: [],
  allowCreateOnUpdate: false,
  hasGeneration: false,
  schema: echoSchema,
  strategy: widgetDefinition().strategy,
  virtual: {
    async create(ctx, body) {
      const say = (body.spec as { say?: string } | undefined)?.say;
      if (!say) throw apiErrors.badRequest('say something');
      return { ...body, status: { heard: say, by: ctx.user.name } } as ApiObject;
    },
  },
};

const shout: SubresourceCreate = {
  group: 'echo.test.orch.io',
  version: 'v1',
  kind: 'Echo',
  schema: echoSchema,
  async create(ctx, parent, body, options) {
    const say = (body.spec as { say?: string } | undefined)?.say ?? '';
    const status = { heard: say.toUpperCase(), by: ctx.user.name, parent: `${parent.namespace}/${parent.name}` };
    return { ...body, status: options.dryRun ? { ...status, heard: '(dry run)' } : status } as ApiObject;
  },
};

describe('computed creates', () => {
  let s: InProcessServer;
  const seen: { op: string; kind: string; resource: string; sub: string; name: string }[] = [];
  const recorder: AdmissionPlugin = {
    name: 'Recorder',
    handles: () => true,
    async validate(a: AdmissionAttributes) {
      if (a.kind.kind !== 'Echo') return;
      seen.push({
        op: a.operation,
        kind: a.kind.kind,
        resource: a.resource.resource,
        sub: a.subresource,
        name: a.name,
      });
      if ((a.object?.spec as { say?: string } | undefined)?.say === 'forbidden words') throw new Error('not here');
    },
  };
  before(async () => {
    s = await startInProcess({ runControllers: false, admissionPlugins: [recorder] });
    await s.server.resources.add(echoes);
    const base = widgetDefinition();
    await s.server.resources.add({
      ...base,
      subresources: [...base.subresources, { name: 'shout', verbs: ['create'], create: shout }],
    });
    const w = await s.api.admin('POST', '/apis/test.orch.io/v1/namespaces/default/widgets', {
      body: { apiVersion: 'test.orch.io/v1', kind: 'Widget', metadata: { name: 'w1' } },
    });
    assert.equal(w.status, 201, w.text);
  });
  after(() => s.stop());

  it('a virtual resource answers 201 with the computed object, after admission, storing nothing', async () => {
    const r = await s.api.admin('POST', '/apis/echo.test.orch.io/v1/echoes', {
      body: { apiVersion: 'echo.test.orch.io/v1', kind: 'Echo', spec: { say: 'hi' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().status, { heard: 'hi', by: 'orch-admin' });
    assert.deepEqual(seen.at(-1), { op: 'CREATE', kind: 'Echo', resource: 'echoes', sub: '', name: '' });
    assert.equal((await s.api.admin('GET', '/apis/echo.test.orch.io/v1/echoes')).status, 405);
    const denied = await s.api.admin('POST', '/apis/echo.test.orch.io/v1/echoes', {
      body: { apiVersion: 'echo.test.orch.io/v1', kind: 'Echo', spec: { say: 'forbidden words' } },
    });
    assert.equal(denied.status, 403);
    const bad = await s.api.admin('POST', '/apis/echo.test.orch.io/v1/echoes', {
      body: { apiVersion: 'echo.test.orch.io/v1', kind: 'Echo', spec: {} },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.json().message, 'say something');
  });

  it('a sub-resource of another kind answers POST for its parent, with admission of the sub-resource', async () => {
    const path = '/apis/test.orch.io/v1/namespaces/default/widgets/w1/shout';
    const r = await s.api.admin('POST', path, {
      body: { apiVersion: 'echo.test.orch.io/v1', kind: 'Echo', spec: { say: 'hi' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().kind, 'Echo');
    assert.deepEqual(r.json().status, { heard: 'HI', by: 'orch-admin', parent: 'default/w1' });
    assert.deepEqual(seen.at(-1), { op: 'CREATE', kind: 'Echo', resource: 'widgets', sub: 'shout', name: 'w1' });
    const dry = await s.api.admin('POST', `${path}?dryRun=All`, {
      body: { apiVersion: 'echo.test.orch.io/v1', kind: 'Echo', spec: { say: 'hi' } },
    });
    assert.equal(dry.json().status.heard, '(dry run)');
    assert.equal((await s.api.admin('GET', path)).status, 405);
    const unknownField = await s.api.admin('POST', `${path}?fieldValidation=Strict`, {
      body: { apiVersion: 'echo.test.orch.io/v1', kind: 'Echo', spec: { say: 'hi', nope: 1 } },
    });
    assert.equal(unknownField.status, 400);
    assert.match(unknownField.json().message, /unknown field "spec.nope"/);
  });

  it('OpenAPI lists the POST of the sub-resource with its own kind', async () => {
    const doc = (await s.api.admin('GET', '/openapi/v3/apis/test.orch.io/v1')).json();
    const post = doc.paths['/apis/test.orch.io/v1/namespaces/{namespace}/widgets/{name}/shout'].post;
    assert.equal(post.operationId, 'createTestV1NamespacedWidgetShout');
    assert.deepEqual(post['x-kubernetes-group-version-kind'], {
      group: 'echo.test.orch.io',
      kind: 'Echo',
      version: 'v1',
    });
    assert.ok(doc.components.schemas['io.orch.test.v1.Echo']);
  });
});
