import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openWatch } from '../support/watch-client.js';
import { type InProcessServer, startInProcess } from './server-fixture.js';
import { widgetDefinition } from './widget-definition.js';

const AGGREGATED = 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList';
const WIDGETS = '/apis/test.orch.io/v1/namespaces/default/widgets';

describe('resources added and removed while serving', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: true });
  });
  after(() => s.stop());

  it('serves a definition added at run time in discovery, OpenAPI and the API, then 404s it after removal', async () => {
    const groupsBefore = (await s.api.admin('GET', '/apis')).json();
    assert.ok(!groupsBefore.groups.some((g: { name: string }) => g.name === 'test.orch.io'));
    const aggBefore = await s.api.admin('GET', '/apis', { headers: { accept: AGGREGATED } });
    assert.equal((await s.api.admin('GET', WIDGETS)).status, 404);

    await s.server.resources.add(widgetDefinition());

    const groups = (await s.api.admin('GET', '/apis')).json();
    assert.ok(groups.groups.some((g: { name: string }) => g.name === 'test.orch.io'));
    const aggAfter = await s.api.admin('GET', '/apis', { headers: { accept: AGGREGATED } });
    assert.ok(aggBefore.headers.etag);
    assert.notEqual(aggAfter.headers.etag, aggBefore.headers.etag);
    const revalidated = await s.api.admin('GET', '/apis', {
      headers: { accept: AGGREGATED, 'if-none-match': String(aggAfter.headers.etag) },
    });
    assert.equal(revalidated.status, 304);
    assert.ok(aggAfter.text.includes('"widgets"'));
    const list = (await s.api.admin('GET', '/apis/test.orch.io/v1')).json();
    assert.deepEqual(
      list.resources.map((r: { name: string }) => r.name),
      ['widgets', 'widgets/scale'],
    );
    const openapi = await s.api.admin('GET', '/openapi/v3');
    assert.ok(openapi.json().paths['apis/test.orch.io/v1'], openapi.text);

    const created = await s.api.admin('POST', WIDGETS, {
      body: { apiVersion: 'test.orch.io/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { replicas: 1 } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json().metadata.managedFields[0].manager, 'unknown');

    const watch = await openWatch(
      s.url,
      `${WIDGETS}?watch=true&resourceVersion=${created.json().metadata.resourceVersion}`,
      s.admin,
    );
    assert.equal(watch.status, 200);
    assert.equal(s.server.resources.remove('test.orch.io', 'v1', 'widgets'), true);
    const events = await watch.waitFor(1);
    assert.equal(events[0].type, 'ERROR');
    assert.equal(events[0].object.code, 410);
    await watch.ended;

    assert.equal((await s.api.admin('GET', `${WIDGETS}/w1`)).status, 404);
    assert.equal((await s.api.admin('GET', '/apis/test.orch.io/v1')).status, 404);
    const aggRemoved = await s.api.admin('GET', '/apis', { headers: { accept: AGGREGATED } });
    assert.equal(aggRemoved.headers.etag, aggBefore.headers.etag);
    assert.ok(!(await s.api.admin('GET', '/openapi/v3')).json().paths['apis/test.orch.io/v1']);

    // Served again, the stored objects are still there.
    await s.server.resources.add(widgetDefinition());
    assert.equal((await s.api.admin('GET', `${WIDGETS}/w1`)).json().spec.replicas, 1);
    s.server.resources.remove('test.orch.io', 'v1', 'widgets');
  });
});

describe('a sub-resource of another kind (scale)', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false });
    await s.server.resources.add(widgetDefinition({ protobuf: false }));
    const r = await s.api.admin('POST', WIDGETS, {
      body: {
        apiVersion: 'test.orch.io/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { replicas: 2, color: 'red' },
      },
    });
    assert.equal(r.status, 201, r.text);
  });
  after(() => s.stop());

  it('reads the Scale of the parent', async () => {
    const r = await s.api.admin('GET', `${WIDGETS}/w/scale`);
    assert.equal(r.status, 200, r.text);
    const scale = r.json();
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.spec.replicas, 2);
    assert.equal(scale.metadata.name, 'w');
  });

  it('writes replicas through PUT and PATCH into the parent, recording the sub-resource manager', async () => {
    const scale = (await s.api.admin('GET', `${WIDGETS}/w/scale`)).json();
    const put = await s.api.admin('PUT', `${WIDGETS}/w/scale?fieldManager=scaler`, {
      body: { ...scale, spec: { replicas: 5 } },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json().kind, 'Scale');
    assert.equal(put.json().spec.replicas, 5);
    const afterPut = (await s.api.admin('GET', `${WIDGETS}/w`)).json();
    const entry = afterPut.metadata.managedFields.find((m: { manager: string }) => m.manager === 'scaler');
    assert.equal(entry.subresource, 'scale');
    assert.equal(entry.operation, 'Update');
    const patch = await s.api.admin('PATCH', `${WIDGETS}/w/scale`, {
      body: { spec: { replicas: 7 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patch.status, 200, patch.text);
    const parent = (await s.api.admin('GET', `${WIDGETS}/w`)).json();
    assert.equal(parent.spec.replicas, 7);
    assert.equal(parent.spec.color, 'red');
  });

  it('answers 409 for a stale resourceVersion and 422 naming the field for a bad value', async () => {
    const stale = await s.api.admin('PUT', `${WIDGETS}/w/scale`, {
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'w', resourceVersion: '1' },
        spec: { replicas: 1 },
      },
    });
    assert.equal(stale.status, 409);
    const bad = await s.api.admin('PUT', `${WIDGETS}/w/scale`, {
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'w' }, spec: { replicas: -1 } },
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.json().details.causes[0].field, 'spec.replicas');
  });

  it('refuses Protobuf for a kind that does not offer it', async () => {
    const get = await s.api.admin('GET', `${WIDGETS}/w`, { headers: { accept: 'application/vnd.orch.protobuf' } });
    assert.equal(get.status, 406);
    const post = await s.api.admin('POST', WIDGETS, {
      body: Buffer.from([0x6b, 0x38, 0x73, 0x00]),
      headers: { 'content-type': 'application/vnd.orch.protobuf' },
    });
    assert.equal(post.status, 415);
    const json = await s.api.admin('GET', `${WIDGETS}/w`, {
      headers: { accept: 'application/vnd.orch.protobuf, application/json' },
    });
    assert.equal(json.status, 200);
    assert.match(String(json.headers['content-type']), /application\/json/);
  });
});
