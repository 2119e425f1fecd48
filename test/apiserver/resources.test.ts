import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeStatus } from '../../src/encoding/protobuf/index.js';
import { apiOf } from '../support/api.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

describe('generic create/get/update/delete', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof apiOf>['admin'];
  before(async () => {
    server = await startServerProcess();
    api = apiOf(server).admin;
  });
  after(async () => server?.dispose());

  const cm = (name: string, data: Record<string, string> = { a: '1' }, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...extra },
    data,
  });

  it('has the system namespaces after start', async () => {
    const r = await api('GET', '/api/v1/namespaces');
    assert.equal(r.status, 200);
    const list = r.json();
    assert.equal(list.kind, 'NamespaceList');
    const names = list.items.map((n: { metadata: { name: string } }) => n.metadata.name);
    for (const n of ['default', 'orch-system', 'orch-public', 'orch-node-lease']) assert.ok(names.includes(n), n);
    const def = list.items.find((n: { metadata: { name: string } }) => n.metadata.name === 'default');
    assert.equal(def.status.phase, 'Active');
    assert.deepEqual(def.spec.finalizers, ['orch']);
  });

  it('creates with system fields, gets, updates and deletes a ConfigMap', async () => {
    const created = await api('POST', '/api/v1/namespaces/default/configmaps', { body: cm('crud-1') });
    assert.equal(created.status, 201);
    const obj = created.json();
    assert.match(obj.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.match(obj.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(obj.metadata.resourceVersion, /^[1-9][0-9]*$/);
    assert.equal(obj.metadata.namespace, 'default');
    const got = (await api('GET', '/api/v1/namespaces/default/configmaps/crud-1')).json();
    assert.deepEqual(got, obj);
    got.data.b = '2';
    const updated = await api('PUT', '/api/v1/namespaces/default/configmaps/crud-1', { body: got });
    assert.equal(updated.status, 200);
    assert.equal(updated.json().data.b, '2');
    assert.ok(BigInt(updated.json().metadata.resourceVersion) > BigInt(obj.metadata.resourceVersion));
    assert.equal(updated.json().metadata.uid, obj.metadata.uid);
    const del = await api('DELETE', '/api/v1/namespaces/default/configmaps/crud-1');
    assert.equal(del.status, 200);
    assert.equal(del.json().kind, 'Status');
    assert.equal(del.json().status, 'Success');
    assert.equal(del.json().details.name, 'crud-1');
    assert.equal(del.json().details.uid, obj.metadata.uid);
    const gone = await api('GET', '/api/v1/namespaces/default/configmaps/crud-1');
    assert.equal(gone.status, 404);
    assert.equal(gone.json().reason, 'NotFound');
    assert.equal(gone.json().message, 'configmaps "crud-1" not found');
    assert.deepEqual(gone.json().details, { name: 'crud-1', kind: 'configmaps' });
  });

  it('generates names from generateName', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = await api('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } },
      });
      assert.equal(r.status, 201);
      assert.match(r.json().metadata.name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      names.add(r.json().metadata.name);
    }
    assert.equal(names.size, 5);
  });

  it('answers 409 AlreadyExists for a duplicate create', async () => {
    await api('POST', '/api/v1/namespaces/default/configmaps', { body: cm('dup') });
    const r = await api('POST', '/api/v1/namespaces/default/configmaps', { body: cm('dup') });
    assert.equal(r.status, 409);
    assert.equal(r.json().reason, 'AlreadyExists');
    assert.equal(r.json().message, 'configmaps "dup" already exists');
  });

  it('answers 409 Conflict for a PUT with a stale resourceVersion', async () => {
    const first = (await api('POST', '/api/v1/namespaces/default/configmaps', { body: cm('stale') })).json();
    const fresh = structuredClone(first);
    fresh.data.x = 'y';
    assert.equal((await api('PUT', '/api/v1/namespaces/default/configmaps/stale', { body: fresh })).status, 200);
    first.data.z = 'w';
    const r = await api('PUT', '/api/v1/namespaces/default/configmaps/stale', { body: first });
    assert.equal(r.status, 409);
    assert.equal(r.json().reason, 'Conflict');
    assert.equal(
      r.json().message,
      'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('PUT of a missing object: 404 for ConfigMap, 201 for Lease', async () => {
    const r = await api('PUT', '/api/v1/namespaces/default/configmaps/absent', { body: cm('absent') });
    assert.equal(r.status, 404);
    const lease = {
      apiVersion: 'coordination.orch.io/v1',
      kind: 'Lease',
      metadata: { name: 'lock' },
      spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: '2026-01-02T03:04:05.123456Z' },
    };
    const l = await api('PUT', '/apis/coordination.orch.io/v1/namespaces/default/leases/lock', { body: lease });
    assert.equal(l.status, 201);
    assert.equal(l.json().spec.renewTime, '2026-01-02T03:04:05.123456Z');
    const again = await api('PUT', '/apis/coordination.orch.io/v1/namespaces/default/leases/lock', {
      body: { ...l.json(), spec: { ...l.json().spec, holderIdentity: 'b' } },
    });
    assert.equal(again.status, 200);
    assert.equal(again.json().spec.holderIdentity, 'b');
  });

  it('rejects a body whose namespace or name disagrees with the path (400)', async () => {
    const ns = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('x', {}, { namespace: 'other' }),
    });
    assert.equal(ns.status, 400);
    assert.equal(ns.json().reason, 'BadRequest');
    await api('POST', '/api/v1/namespaces/default/configmaps', { body: cm('named') });
    const name = await api('PUT', '/api/v1/namespaces/default/configmaps/named', { body: cm('different') });
    assert.equal(name.status, 400);
    assert.match(name.json().message, /does not match the name on the URL/);
  });

  it('answers 404 when creating in a namespace that does not exist', async () => {
    const r = await api('POST', '/api/v1/namespaces/nowhere/configmaps', { body: cm('a') });
    assert.equal(r.status, 404);
    assert.equal(r.json().message, 'namespaces "nowhere" not found');
  });

  it('answers 422 Invalid with field causes', async () => {
    const r = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('Bad_Name', { 'bad key!': 'v' }, { labels: { 'a/b/c': 'x' } }),
    });
    assert.equal(r.status, 422);
    const s = r.json();
    assert.equal(s.kind, 'Status');
    assert.equal(s.reason, 'Invalid');
    assert.equal(s.details.kind, 'ConfigMap');
    assert.equal(s.details.name, 'Bad_Name');
    const fields = s.details.causes.map((c: { field: string }) => c.field);
    assert.ok(fields.includes('metadata.name'), JSON.stringify(fields));
    assert.ok(
      fields.some((f: string) => f.startsWith('metadata.labels')),
      JSON.stringify(fields),
    );
    assert.ok(
      fields.some((f: string) => f.startsWith('data')),
      JSON.stringify(fields),
    );
    assert.match(s.message, /^ConfigMap "Bad_Name" is invalid: \[/);
  });

  it("removes identical duplicate ownerReferences with kube's warning; same UID with other content stays", async () => {
    const owner = (await api('POST', '/api/v1/namespaces/default/configmaps', { body: cm('dedup-owner') })).json();
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'dedup-owner', uid: owner.metadata.uid, controller: true };
    const uid = owner.metadata.uid;
    const warning = (uids: string, after = '') =>
      `299 - ".metadata.ownerReferences contains duplicate entries${after}; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ${uids}"`;
    const path = '/api/v1/namespaces/default/configmaps/dedup-child';
    // Two identical controller references would fail validation: the duplicate goes first.
    const created = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('dedup-child', { a: '1' }, { ownerReferences: [ref, ref] }),
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json().metadata.ownerReferences, [ref]);
    assert.equal(created.headers.warning, warning(uid));
    const put = await api('PUT', path, {
      body: { ...created.json(), metadata: { ...created.json().metadata, ownerReferences: [ref, ref, ref] } },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json().metadata.ownerReferences, [ref]);
    assert.equal(put.headers.warning, warning(`${uid}, ${uid}`));
    // A patch is checked once it is applied, and kube words that warning for after admission.
    const patched = await api('PATCH', path, {
      body: { metadata: { ownerReferences: [ref, ref] } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.json().metadata.ownerReferences, [ref]);
    assert.equal(patched.headers.warning, warning(uid, ' after mutating admission happens'));
    assert.deepEqual((await api('GET', path)).json().metadata.ownerReferences, [ref]);
    // Entries that share a UID but differ are not duplicates, and kube's validation accepts them.
    const other = { ...ref, name: 'same-uid-other-name', controller: false };
    const mixed = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('dedup-mixed', { a: '1' }, { ownerReferences: [ref, other] }),
    });
    assert.equal(mixed.status, 201, mixed.text);
    assert.deepEqual(mixed.json().metadata.ownerReferences, [ref, other]);
    assert.equal(mixed.headers.warning, undefined);
    // Two controllers remain an error.
    const twoControllers = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('dedup-two', { a: '1' }, { ownerReferences: [ref, { ...other, controller: true }] }),
    });
    assert.equal(twoControllers.status, 422);
    assert.match(twoControllers.json().message, /Only one reference can have Controller set to true/);
  });

  it('enforces ConfigMap immutability', async () => {
    const c = (
      await api('POST', '/api/v1/namespaces/default/configmaps', { body: { ...cm('frozen'), immutable: true } })
    ).json();
    c.data.a = 'changed';
    const r = await api('PUT', '/api/v1/namespaces/default/configmaps/frozen', { body: c });
    assert.equal(r.status, 422);
    assert.match(r.json().message, /field is immutable when `immutable` is set/);
  });

  it('folds Secret stringData into base64 data', async () => {
    const r = await api('POST', '/api/v1/namespaces/default/secrets', {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's1' },
        stringData: { user: 'admin' },
        data: { x: 'eA==' },
      },
    });
    assert.equal(r.status, 201);
    const s = r.json();
    assert.equal(s.type, 'Opaque');
    assert.equal(s.stringData, undefined);
    assert.equal(Buffer.from(s.data.user, 'base64').toString(), 'admin');
    assert.equal(s.data.x, 'eA==');
    const bad = await api('POST', '/api/v1/namespaces/default/secrets', {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2' }, data: { x: 'not base64!' } },
    });
    assert.ok(bad.status === 400 || bad.status === 422, String(bad.status));
  });

  it('answers 413 for a body over 3 MiB', async () => {
    const big = cm('big', { a: 'x'.repeat(3 * 1024 * 1024 + 10) });
    const r = await api('POST', '/api/v1/namespaces/default/configmaps', { body: big });
    assert.equal(r.status, 413);
    assert.equal(r.json().reason, 'RequestEntityTooLarge');
  });

  it('answers 400 for malformed JSON and YAML, naming the problem', async () => {
    const j = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: '{"apiVersion": "v1",',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(j.status, 400);
    assert.equal(j.json().kind, 'Status');
    assert.match(j.json().message, /json/i);
    const y = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n',
      headers: { 'content-type': 'application/yaml' },
    });
    assert.equal(y.status, 400);
    assert.match(y.json().message, /yaml: line 3/);
  });

  it('accepts Protobuf request bodies and rejects malformed ones with 400', async () => {
    const { encodeObject } = await import('../../src/encoding/protobuf/index.js');
    const { configMapSchema } = await import('../../src/apis/core/core-v1-schemas.js');
    const bytes = encodeObject(configMapSchema, {
      ...cm('from-proto', { k: 'v' }),
      metadata: { name: 'from-proto', namespace: 'default' },
    });
    const r = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: Buffer.from(bytes),
      headers: { 'content-type': 'application/vnd.orch.protobuf' },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().data, { k: 'v' });
    const bad = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0xff]),
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.json().message, /Protobuf/);
    const unsupported = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(unsupported.status, 415);
    assert.equal(unsupported.json().reason, 'UnsupportedMediaType');
  });

  it('accepts YAML bodies and serves YAML when asked', async () => {
    const r = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n',
      headers: { 'content-type': 'application/yaml', accept: 'application/yaml' },
    });
    assert.equal(r.status, 201);
    assert.match(String(r.headers['content-type']), /application\/yaml/);
    assert.match(r.text, /name: from-yaml/);
  });

  it('answers 404 Status for an unknown group, version or resource', async () => {
    for (const p of [
      '/apis/nope.orch.io/v1/things',
      '/api/v2/configmaps',
      '/api/v1/widgets',
      '/apis/coordination.orch.io/v9/leases',
    ]) {
      const r = await api('GET', p);
      assert.equal(r.status, 404, p);
      assert.equal(r.json().kind, 'Status', p);
      assert.equal(r.json().reason, 'NotFound', p);
    }
  });

  it('answers errors raised before a resource handler in the encoding the client asked for', async () => {
    const yaml = await api('GET', '/no/such/path', { headers: { accept: 'application/yaml' } });
    assert.equal(yaml.status, 404);
    assert.match(String(yaml.headers['content-type']), /application\/yaml/);
    assert.match(yaml.text, /kind: Status/);
    const proto = await api('GET', '/no/such/path', {
      headers: { accept: 'application/vnd.kubernetes.protobuf, application/json' },
    });
    assert.equal(proto.status, 404);
    assert.match(String(proto.headers['content-type']), /protobuf/);
    const status = decodeStatus(proto.body);
    assert.equal(status.code, 404);
    assert.equal(status.reason, 'NotFound');
    // Nothing acceptable: JSON anyway, with the error's own code (never 406 for an error).
    const other = await api('GET', '/no/such/path', { headers: { accept: 'text/csv' } });
    assert.equal(other.status, 404);
    assert.equal(other.json().kind, 'Status');
  });

  it('runs dryRun=All on POST, PUT, PATCH and DELETE without persisting', async () => {
    const dry = await api('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: cm('dry') });
    assert.equal(dry.status, 201);
    assert.equal(dry.json().metadata.name, 'dry');
    assert.equal((await api('GET', '/api/v1/namespaces/default/configmaps/dry')).status, 404);
    const real = (await api('POST', '/api/v1/namespaces/default/configmaps', { body: cm('dry') })).json();
    const changed = { ...real, data: { a: 'changed' } };
    const put = await api('PUT', '/api/v1/namespaces/default/configmaps/dry?dryRun=All', { body: changed });
    assert.equal(put.status, 200);
    assert.equal(put.json().data.a, 'changed');
    const patch = await api('PATCH', '/api/v1/namespaces/default/configmaps/dry?dryRun=All', {
      body: { data: { p: 'q' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patch.status, 200);
    assert.equal(patch.json().data.p, 'q');
    const del = await api('DELETE', '/api/v1/namespaces/default/configmaps/dry?dryRun=All');
    assert.equal(del.status, 200);
    const still = (await api('GET', '/api/v1/namespaces/default/configmaps/dry')).json();
    assert.deepEqual(still, real);
    const invalidDry = await api('POST', '/api/v1/namespaces/default/configmaps?dryRun=Yes', { body: cm('dry2') });
    assert.equal(invalidDry.status, 400);
    const dryInvalidObj = await api('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: cm('BAD') });
    assert.equal(dryInvalidObj.status, 422);
  });

  it('updates namespace status only through the status sub-resource', async () => {
    const ns = (
      await api('POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sub' } },
      })
    ).json();
    const viaMain = await api('PUT', '/api/v1/namespaces/sub', { body: { ...ns, status: { phase: 'Terminating' } } });
    assert.equal(viaMain.status, 200);
    assert.equal(viaMain.json().status.phase, 'Active');
    const viaStatus = await api('PUT', '/api/v1/namespaces/sub/status', {
      body: { ...viaMain.json(), status: { phase: 'Terminating' } },
    });
    assert.equal(viaStatus.status, 422);
    assert.match(viaStatus.json().message, /may only be 'Active'/);
  });

  it('lists collections across namespaces and pages with limit/continue', async () => {
    await api('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pages' } },
    });
    for (let i = 0; i < 5; i++) await api('POST', '/api/v1/namespaces/pages/configmaps', { body: cm(`p${i}`) });
    const first = (await api('GET', '/api/v1/namespaces/pages/configmaps?limit=2')).json();
    assert.equal(first.kind, 'ConfigMapList');
    assert.equal(first.items.length, 2);
    assert.equal(first.metadata.remainingItemCount, 3);
    const second = (
      await api('GET', `/api/v1/namespaces/pages/configmaps?limit=2&continue=${first.metadata.continue}`)
    ).json();
    assert.equal(second.metadata.resourceVersion, first.metadata.resourceVersion);
    assert.deepEqual(
      second.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['p2', 'p3'],
    );
    const all = (await api('GET', '/api/v1/configmaps')).json();
    assert.ok(all.items.some((i: { metadata: { namespace: string } }) => i.metadata.namespace === 'pages'));
    assert.ok(all.items.some((i: { metadata: { namespace: string } }) => i.metadata.namespace === 'default'));
  });
});
