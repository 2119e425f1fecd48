import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinResources } from '../../src/apis/builtin.js';
import { apiVersionOf } from '../../src/apis/resource-definition.js';
import { decodeList, decodeObject, encodeObject } from '../../src/encoding/protobuf/index.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { openWatch } from '../support/watch-client.js';
import { at, patchOf, WORKLOADS, withValue } from './workload-kinds.js';

// Every workload kind through the whole API: create (JSON and Protobuf), get, list, watch,
// update, strategic merge patch, server-side apply and delete, with kube's defaults.

const PROTOBUF = 'application/vnd.orch.protobuf';
const NS = 'default';

describe('workload kinds end to end', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false });
  });
  after(() => s.stop());

  const defs = builtinResources();
  for (const c of WORKLOADS) {
    const def = defs.find((d) => apiVersionOf(d) === c.apiVersion && d.kind === c.kind);
    it(`${c.apiVersion} ${c.kind}: create, read, watch, update, patch, apply and delete`, async () => {
      assert.ok(def, `${c.kind} is served`);
      const path = c.path(NS);
      const name = `${c.kind.toLowerCase()}-${c.apiVersion.replace(/\W/g, '')}`;
      const created = await s.api.admin('POST', path, { body: c.manifest(name) });
      assert.equal(created.status, 201, created.text);
      const obj = created.json();
      assert.equal(obj.apiVersion, c.apiVersion);
      for (const [p, want] of Object.entries(c.defaults)) assert.deepEqual(at(obj, p), want, `${c.kind} default ${p}`);

      const item = `${path}/${name}`;
      const got = await s.api.admin('GET', item);
      assert.deepEqual(got.json(), obj);
      const pb = await s.api.admin('GET', item, { headers: { accept: PROTOBUF } });
      assert.equal(pb.status, 200);
      // The Protobuf answer is the JSON answer's encoding (zero scalars travel as Go omits them).
      assert.deepEqual(pb.body, Buffer.from(encodeObject(def.schema, obj)), 'Protobuf GET');
      assert.equal(decodeObject(def.schema, pb.body).metadata.uid, obj.metadata.uid);
      const list = await s.api.admin('GET', path, { headers: { accept: PROTOBUF } });
      assert.ok(
        decodeList(def.schema, list.body).items.some((i) => i.metadata.name === name),
        'Protobuf list',
      );

      const watch = await openWatch(
        s.url,
        `${path}?watch=true&resourceVersion=${obj.metadata.resourceVersion}`,
        s.admin,
      );
      const [v0, v1, v2] = c.change.values;
      const updated = await s.api.admin('PUT', item, { body: withValue(obj, c.change.path, v0) });
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(at(updated.json(), c.change.path), v0);
      if (def.hasGeneration && c.change.path.startsWith('spec.')) assert.equal(updated.json().metadata.generation, 2);
      const patched = await s.api.admin('PATCH', item, {
        body: patchOf(c.change.path, v1),
        headers: { 'content-type': 'application/strategic-merge-patch+json' },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(at(patched.json(), c.change.path), v1);
      const applied = await s.api.admin('PATCH', `${item}?fieldManager=tester&force=true`, {
        body: JSON.stringify(withValue(c.manifest(name), c.change.path, v2)),
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
      assert.equal(applied.status, 200, applied.text);
      assert.deepEqual(at(applied.json(), c.change.path), v2);
      assert.ok(applied.json().metadata.managedFields.some((m: { manager: string }) => m.manager === 'tester'));
      const events = await watch.waitFor(3);
      watch.close();
      assert.deepEqual(
        events.slice(0, 3).map((e) => [e.type, at(e.object, c.change.path)]),
        [
          ['MODIFIED', v0],
          ['MODIFIED', v1],
          ['MODIFIED', v2],
        ],
      );

      // Protobuf in both directions.
      const second = c.manifest(`${name}-pb`);
      const pbCreated = await s.api.admin('POST', path, {
        body: Buffer.from(encodeObject(def.schema, second)),
        headers: { 'content-type': PROTOBUF, accept: PROTOBUF },
      });
      assert.equal(pbCreated.status, 201, pbCreated.text);
      assert.equal(decodeObject(def.schema, pbCreated.body).metadata.name, `${name}-pb`);
      const pbJson = (await s.api.admin('GET', `${item}-pb`)).json();
      assert.deepEqual(pbCreated.body, Buffer.from(encodeObject(def.schema, pbJson)));
      for (const [p, want] of Object.entries(c.defaults))
        assert.deepEqual(at(pbJson, p), want, `${c.kind} Protobuf default ${p}`);

      for (const n of [name, `${name}-pb`]) {
        const deleted = await s.api.admin('DELETE', `${path}/${n}`);
        assert.equal(deleted.status, 200, deleted.text);
        assert.equal((await s.api.admin('GET', `${path}/${n}`)).status, 404);
      }
    });
  }
});
