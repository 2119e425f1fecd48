import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openWatch } from '../support/watch-client.js';
import { COLOR_ANNOTATION, gadgetV1, gadgetV2, gadgetView, VIEW_GROUP } from './gadget-definitions.js';
import { type InProcessServer, startInProcess } from './server-fixture.js';

const V1 = '/apis/test.orch.io/v1/namespaces/default/gadgets';
const V2 = '/apis/test.orch.io/v2/namespaces/default/gadgets';

describe('two versions of one resource share the stored object', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false });
    await s.server.resources.add(gadgetV2());
    await s.server.resources.add(gadgetV1());
    await s.server.resources.add(gadgetView());
  });
  after(() => s.stop());

  it('reads an object written in one version in the other, converted, and keeps what only one version has', async () => {
    const created = await s.api.admin('POST', V1, {
      body: { apiVersion: 'test.orch.io/v1', kind: 'Gadget', metadata: { name: 'g1' }, spec: { count: 2 } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json().apiVersion, 'test.orch.io/v1');
    assert.deepEqual(created.json().spec, { count: 2 });

    const asV2 = (await s.api.admin('GET', `${V2}/g1`)).json();
    assert.equal(asV2.apiVersion, 'test.orch.io/v2');
    assert.deepEqual(asV2.spec, { replicas: 2 });
    assert.equal(asV2.metadata.resourceVersion, created.json().metadata.resourceVersion);
    assert.equal(asV2.metadata.uid, created.json().metadata.uid);

    const updated = await s.api.admin('PUT', `${V2}/g1`, { body: { ...asV2, spec: { replicas: 3, color: 'red' } } });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.json().metadata.generation, 2);

    const asV1 = (await s.api.admin('GET', `${V1}/g1`)).json();
    assert.deepEqual(asV1.spec, { count: 3 });
    assert.equal(asV1.metadata.annotations[COLOR_ANNOTATION], 'red');

    // A v1 client that writes the object back (annotation and all) loses nothing of v2.
    const patched = await s.api.admin('PATCH', `${V1}/g1`, {
      body: { spec: { count: 4 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual((await s.api.admin('GET', `${V2}/g1`)).json().spec, { replicas: 4, color: 'red' });

    // An update through v1 that changes nothing writes nothing.
    const same = (await s.api.admin('GET', `${V1}/g1`)).json();
    const noop = await s.api.admin('PUT', `${V1}/g1`, { body: same });
    assert.equal(noop.status, 200, noop.text);
    assert.equal(noop.json().metadata.resourceVersion, same.metadata.resourceVersion);
  });

  it('lists and watches each version in its own form', async () => {
    const list1 = (await s.api.admin('GET', V1)).json();
    const list2 = (await s.api.admin('GET', V2)).json();
    assert.equal(list1.apiVersion, 'test.orch.io/v1');
    assert.deepEqual(
      list1.items.map((i: { spec: unknown }) => i.spec),
      list2.items.map((i: { spec: { replicas: number } }) => ({ count: i.spec.replicas })),
    );
    const rv = list2.metadata.resourceVersion;
    const watch2 = await openWatch(s.url, `${V2}?watch=true&resourceVersion=${rv}`, s.admin);
    const watch1 = await openWatch(s.url, `${V1}?watch=true&resourceVersion=${rv}`, s.admin);
    const created = await s.api.admin('POST', V1, {
      body: {
        apiVersion: 'test.orch.io/v1',
        kind: 'Gadget',
        metadata: { name: 'g2', annotations: { [COLOR_ANNOTATION]: 'blue' } },
        spec: { count: 1 },
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal((await s.api.admin('DELETE', `${V2}/g2`)).status, 200);
    const [added2, deleted2] = await watch2.waitFor(2);
    const [added1, deleted1] = await watch1.waitFor(2);
    watch1.close();
    watch2.close();
    assert.deepEqual(
      [added2.type, deleted2.type, added1.type, deleted1.type],
      ['ADDED', 'DELETED', 'ADDED', 'DELETED'],
    );
    assert.deepEqual(added2.object.spec, { replicas: 1, color: 'blue' });
    assert.equal(added2.object.metadata.annotations, undefined);
    assert.deepEqual(added1.object.spec, { count: 1 });
    assert.equal(added1.object.metadata.annotations[COLOR_ANNOTATION], 'blue');
    assert.equal(deleted1.object.apiVersion, 'test.orch.io/v1');
    assert.equal((await s.api.admin('GET', `${V1}/g2`)).status, 404);
  });

  it('serves a view in another group from the keys of the storing resource', async () => {
    const VIEW = `/apis/${VIEW_GROUP}/v1/namespaces/default/gadgets`;
    const rv = (await s.api.admin('GET', V2)).json().metadata.resourceVersion;
    const watch = await openWatch(s.url, `${VIEW}?watch=true&resourceVersion=${rv}`, s.admin);
    const created = await s.api.admin('POST', VIEW, {
      body: { apiVersion: `${VIEW_GROUP}/v1`, kind: 'Gadget', metadata: { name: 'g3' }, spec: { count: 5 } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json().apiVersion, `${VIEW_GROUP}/v1`);
    assert.deepEqual((await s.api.admin('GET', `${V2}/g3`)).json().spec, { replicas: 5 });
    const store = s.server.store;
    assert.ok(await store.get('/registry/test.orch.io/gadgets/default/g3'));
    assert.equal((await store.range(`/registry/${VIEW_GROUP}/`)).kvs.length, 0);
    assert.equal((await s.api.admin('DELETE', `${V2}/g3`)).status, 200);
    const [added, deleted] = await watch.waitFor(2);
    watch.close();
    assert.deepEqual([added.type, added.object.apiVersion, deleted.type], ['ADDED', `${VIEW_GROUP}/v1`, 'DELETED']);
    assert.equal((await s.api.admin('GET', `${VIEW}/g3`)).status, 404);
  });
});
