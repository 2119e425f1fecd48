import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinResources } from '../../src/apis/builtin.js';
import { decodeObject, encodeObject } from '../../src/encoding/protobuf/index.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { openWatch } from '../support/watch-client.js';
import { CASES, collectionPath, type Json } from './cluster-kind-cases.js';

// Every cluster kind through the whole API: create, get, list, watch, update, strategic-merge
// patch, server-side apply and delete in JSON, and the same objects in Protobuf.

const PROTOBUF = 'application/vnd.orch.protobuf';
const DEFS = builtinResources();
const schemaOf = (group: string, resource: string) => {
  const def = DEFS.find((d) => d.group === group && d.resource === resource);
  assert.ok(def, `${resource}.${group} is built in`);
  return def.schema;
};

let s: InProcessServer;
before(async () => {
  s = await startInProcess({ runControllers: false });
});
after(async () => {
  await s?.stop();
});

describe('cluster kinds round trip', () => {
  for (const c of CASES) {
    it(`${c.kind}: create, get, list, watch, update, patch, apply, delete`, async () => {
      const path = collectionPath(c);
      const name = `rt-${c.resource}`.slice(0, 50);
      const apiVersion = `${c.group}/v1`;
      const created = await s.api.admin('POST', path, { body: { apiVersion, kind: c.kind, ...(await c.body(name)) } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.json().kind, c.kind);

      const got = await s.api.admin('GET', `${path}/${name}`);
      assert.equal(got.status, 200, got.text);
      const list = await s.api.admin('GET', path);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.json().kind, `${c.kind}List`);
      assert.ok(list.json().items.some((i: Json) => i.metadata.name === name));

      const watch = await openWatch(
        s.url,
        `${path}?watch=true&resourceVersion=${list.json().metadata.resourceVersion}`,
        s.admin,
      );
      try {
        const obj = got.json();
        c.change(obj);
        const updated = await s.api.admin('PUT', `${path}/${name}`, { body: obj });
        assert.equal(updated.status, 200, updated.text);
        assert.deepEqual(c.changed(updated.json()), c.changedValue);
        const events = await watch.waitFor(1);
        assert.equal(events[0].type, 'MODIFIED');
        assert.deepEqual(c.changed(events[0].object), c.changedValue);
      } finally {
        watch.close();
      }

      const patched = await s.api.admin('PATCH', `${path}/${name}`, {
        body: c.patch,
        headers: { 'content-type': 'application/strategic-merge-patch+json' },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(c.patched(patched.json()), c.patchedValue);

      const applyBody = { apiVersion, kind: c.kind, metadata: { name, labels: { applied: 'yes' } } };
      const applied = await s.api.admin('PATCH', `${path}/${name}?fieldManager=e2e&force=true`, {
        body: JSON.stringify(applyBody),
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
      assert.equal(applied.status, 200, applied.text);
      assert.equal(applied.json().metadata.labels.applied, 'yes');
      assert.ok(
        applied.json().metadata.managedFields.some((m: Json) => m.manager === 'e2e' && m.operation === 'Apply'),
      );

      const deleted = await s.api.admin('DELETE', `${path}/${name}`);
      assert.equal(deleted.status, 200, deleted.text);
      assert.equal((await s.api.admin('GET', `${path}/${name}`)).status, 404);
    });

    it(`${c.kind}: Protobuf reads and writes`, async () => {
      const path = collectionPath(c);
      const schema = schemaOf(c.group, c.resource);
      const name = `pb-${c.resource}`.slice(0, 50);
      const body = { apiVersion: `${c.group}/v1`, kind: c.kind, ...(await c.body(name)) };
      const created = await s.api.admin('POST', path, {
        body: Buffer.from(encodeObject(schema, body)),
        headers: { 'content-type': PROTOBUF, accept: PROTOBUF },
      });
      assert.equal(created.status, 201, created.text);
      const fromProtobuf = decodeObject(schema, created.body);
      assert.equal(fromProtobuf.metadata.name, name);
      if (c.status) {
        const withStatus = { ...fromProtobuf, status: c.status };
        const res = await s.api.admin('PUT', `${path}/${name}/status`, { body: withStatus });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.json().status, c.status);
      } else {
        assert.deepEqual(fromProtobuf, (await s.api.admin('GET', `${path}/${name}`)).json());
      }
      const json = (await s.api.admin('GET', `${path}/${name}`)).json();
      const pbGet = await s.api.admin('GET', `${path}/${name}`, { headers: { accept: PROTOBUF } });
      assert.equal(pbGet.status, 200);
      assert.equal(pbGet.headers['content-type'], PROTOBUF);
      assert.deepEqual(decodeObject(schema, pbGet.body), json);
      assert.equal((await s.api.admin('DELETE', `${path}/${name}`)).status, 200);
    });
  }
});
