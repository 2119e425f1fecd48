import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import {
  CM_BASE,
  configMap,
  MERGE_PATCH,
  ownerRef,
  owners,
  ownershipClient,
  SA_BASE,
  serviceAccount,
} from './apply-support.js';

// Field ownership over HTTP: who owns what after applies, updates and patches by two and three
// managers, on granular maps, list-maps, sets, atomic lists and atomic structs.
describe('server-side apply: field ownership', () => {
  let server: ServerProcess;
  let c: ReturnType<typeof ownershipClient>;
  before(async () => {
    // No garbage collector: the owner references below name objects that do not exist.
    server = await startServerProcess({ args: ['--run-controllers=false'] });
    c = ownershipClient(server);
  });
  after(async () => server?.dispose());

  const cm = (name: string) => `${CM_BASE}/${name}`;
  const conflictCauses = (r: { json(): { details?: { causes?: unknown[] } } }) => r.json().details?.causes;

  it('records creates and updates under fieldManager, else the User-Agent prefix, else `unknown`', async () => {
    let r = await c.post(CM_BASE, 'creator', configMap('rec-1', { a: '1' }));
    assert.equal(r.status, 201, r.text);
    const [entry] = r.json().metadata.managedFields;
    assert.deepEqual(Object.keys(entry), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    assert.equal(entry.manager, 'creator');
    assert.equal(entry.operation, 'Update');
    assert.equal(entry.apiVersion, 'v1');
    assert.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(r.text.includes('"fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:a":{}}}}]'), r.text);

    r = await c.post(CM_BASE, undefined, configMap('rec-2', { a: '1' }), { 'user-agent': 'my-tool/1.2 (linux) x/y' });
    assert.deepEqual(Object.keys(owners(r.json())), ['my-tool/Update']);
    r = await c.post(CM_BASE, undefined, configMap('rec-3', { a: '1' }));
    assert.deepEqual(Object.keys(owners(r.json())), ['unknown/Update']);

    // A PUT records the updater; one that omits managedFields keeps the live entries.
    const live = await c.get(cm('rec-1'));
    const { managedFields: _, ...metadata } = live.metadata;
    r = await c.put(cm('rec-1'), 'putter', { ...live, metadata, data: { a: '1', b: '2' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(owners(r.json()), {
      'creator/Update': '{"f:data":{".":{},"f:a":{}}}',
      'putter/Update': '{"f:data":{"f:b":{}}}',
    });
    // A non-apply patch too.
    r = await c.patch(cm('rec-1'), 'patcher', MERGE_PATCH, { metadata: { labels: { x: 'y' } } });
    assert.equal(owners(r.json())['patcher/Update'], '{"f:metadata":{"f:labels":{".":{},"f:x":{}}}}');
  });

  it('two appliers of the same value share it; a third with another value conflicts with both', async () => {
    let r = await c.apply(cm('share'), 'a', configMap('share', { k: 'v' }));
    assert.equal(r.status, 201, r.text);
    r = await c.apply(cm('share'), 'b', configMap('share', { k: 'v' }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(owners(r.json()), { 'a/Apply': '{"f:data":{"f:k":{}}}', 'b/Apply': '{"f:data":{"f:k":{}}}' });

    r = await c.apply(cm('share'), 'c', configMap('share', { k: 'other' }));
    assert.equal(r.status, 409, r.text);
    const status = r.json();
    assert.equal(status.reason, 'Conflict');
    assert.equal(
      status.message,
      'Apply failed with 2 conflicts: conflicts with "a":\n- .data.k\nconflicts with "b":\n- .data.k',
    );
    assert.deepEqual(conflictCauses(r), [
      { reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.data.k' },
      { reason: 'FieldManagerConflict', message: 'conflict with "b"', field: '.data.k' },
    ]);
    assert.deepEqual((await c.get(cm('share'))).data, { k: 'v' }, 'a conflict changes nothing');

    // A shared value changed by one of its owners conflicts too.
    r = await c.apply(cm('share'), 'a', configMap('share', { k: 'changed' }));
    assert.equal(r.status, 409);
    assert.equal(r.json().message, 'Apply failed with 1 conflict: conflict with "b": .data.k');

    // Forcing moves the field to the applier and out of every other set.
    r = await c.apply(cm('share'), 'c', configMap('share', { k: 'other', mine: 'c' }), { force: true });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().data, { k: 'other', mine: 'c' });
    assert.deepEqual(owners(r.json()), { 'c/Apply': '{"f:data":{"f:k":{},"f:mine":{}}}' });
  });

  it('releases a field left out of an apply; removes it when nobody else owns it', async () => {
    await c.apply(cm('release'), 'a', configMap('release', { shared: 's', onlyA: 'a' }));
    await c.apply(cm('release'), 'b', configMap('release', { shared: 's' }));
    // a releases both: `shared` stays (b owns it), `onlyA` is removed.
    let r = await c.apply(cm('release'), 'a', configMap('release', { other: 'x' }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().data, { shared: 's', other: 'x' });
    assert.deepEqual(owners(r.json()), {
      'a/Apply': '{"f:data":{"f:other":{}}}',
      'b/Apply': '{"f:data":{"f:shared":{}}}',
    });
    // b releases the last owned field: removed, and b's entry disappears.
    r = await c.apply(cm('release'), 'b', configMap('release'));
    assert.deepEqual(r.json().data, { other: 'x' });
    assert.deepEqual(Object.keys(owners(r.json())), ['a/Apply']);
    // A field nobody applied (an updater's) is not removed by an applier leaving it out.
    await c.patch(cm('release'), 'ed', MERGE_PATCH, { data: { byEd: 'e' } });
    r = await c.apply(cm('release'), 'a', configMap('release', { other: 'x' }));
    assert.deepEqual(r.json().data, { other: 'x', byEd: 'e' });
  });

  it('update after apply: the updater takes the field without conflict; the applier then conflicts', async () => {
    await c.apply(cm('upd'), 'applier', configMap('upd', { k: 'v', keep: 'k' }));
    // Rule 6: updates never fail on owned fields; ownership moves to the updater.
    let r = await c.patch(cm('upd'), 'updater', MERGE_PATCH, { data: { k: 'changed' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(owners(r.json()), {
      'applier/Apply': '{"f:data":{"f:keep":{}}}',
      'updater/Update': '{"f:data":{"f:k":{}}}',
    });
    r = await c.apply(cm('upd'), 'applier', configMap('upd', { k: 'v', keep: 'k' }));
    assert.equal(r.status, 409);
    assert.equal(r.json().message, 'Apply failed with 1 conflict: conflict with "updater" using v1: .data.k');
    assert.deepEqual(conflictCauses(r), [
      { reason: 'FieldManagerConflict', message: 'conflict with "updater" using v1', field: '.data.k' },
    ]);
    // Applying the updater's value shares the field instead.
    r = await c.apply(cm('upd'), 'applier', configMap('upd', { k: 'changed', keep: 'k' }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(owners(r.json()), {
      'applier/Apply': '{"f:data":{"f:k":{},"f:keep":{}}}',
      'updater/Update': '{"f:data":{"f:k":{}}}',
    });
  });

  it('apply after update: the applier shares the same value, conflicts on another, takes it with force', async () => {
    let r = await c.post(CM_BASE, 'creator', configMap('move', { k: 'v', j: 'w' }));
    assert.equal(r.status, 201);
    r = await c.put(cm('move'), 'putter', { ...(await c.get(cm('move'))), data: { k: 'v', j: 'changed' } });
    assert.deepEqual(owners(r.json()), {
      'creator/Update': '{"f:data":{".":{},"f:k":{}}}',
      'putter/Update': '{"f:data":{"f:j":{}}}',
    });
    r = await c.apply(cm('move'), 'applier', configMap('move', { j: 'mine', k: 'v' }));
    assert.equal(r.status, 409);
    assert.equal(r.json().message, 'Apply failed with 1 conflict: conflict with "putter" using v1: .data.j');
    r = await c.apply(cm('move'), 'applier', configMap('move', { j: 'mine', k: 'v' }), { force: true });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().data, { k: 'v', j: 'mine' });
    // The putter lost `.data.j` (its entry is gone); the creator still shares `.data.k`.
    assert.deepEqual(owners(r.json()), {
      'applier/Apply': '{"f:data":{"f:j":{},"f:k":{}}}',
      'creator/Update': '{"f:data":{".":{},"f:k":{}}}',
    });
    // A third manager updating k takes it from both; the applier then conflicts with it alone.
    r = await c.patch(cm('move'), 'third', MERGE_PATCH, { data: { k: 'third' } });
    assert.deepEqual(owners(r.json()), {
      'applier/Apply': '{"f:data":{"f:j":{}}}',
      // Only the map itself is left to the creator: a member without children is `{}`.
      'creator/Update': '{"f:data":{}}',
      'third/Update': '{"f:data":{"f:k":{}}}',
    });
    r = await c.apply(cm('move'), 'applier', configMap('move', { j: 'mine', k: 'v' }));
    assert.equal(r.json().message, 'Apply failed with 1 conflict: conflict with "third" using v1: .data.k');
  });

  it('owns labels and annotations key by key (granular maps)', async () => {
    await c.apply(cm('labels'), 'a', configMap('labels', undefined, { labels: { la: '1' }, annotations: { aa: '1' } }));
    let r = await c.apply(
      cm('labels'),
      'b',
      configMap('labels', undefined, { labels: { lb: '2' }, annotations: { ab: '2' } }),
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().metadata.labels, { la: '1', lb: '2' });
    assert.deepEqual(r.json().metadata.annotations, { aa: '1', ab: '2' });
    assert.deepEqual(owners(r.json()), {
      'a/Apply': '{"f:metadata":{"f:annotations":{"f:aa":{}},"f:labels":{"f:la":{}}}}',
      'b/Apply': '{"f:metadata":{"f:annotations":{"f:ab":{}},"f:labels":{"f:lb":{}}}}',
    });
    r = await c.apply(cm('labels'), 'b', configMap('labels', undefined, { labels: { la: 'x' } }));
    assert.equal(r.status, 409);
    assert.equal(r.json().message, 'Apply failed with 1 conflict: conflict with "a": .metadata.labels.la');
  });

  it('owns a map applied as null: keys others own stay, the stored object omits the emptied map', async () => {
    await c.apply(cm('nulls'), 'a', configMap('nulls', { k: 'v' }, { labels: { la: '1' } }));
    await c.apply(cm('nulls'), 'b', configMap('nulls', undefined, { labels: { lb: '2' } }));
    let r = await c.apply(cm('nulls'), 'a', configMap('nulls', { k: 'v' }, { labels: null }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().metadata.labels, { lb: '2' });
    assert.deepEqual(owners(r.json()), {
      'a/Apply': '{"f:data":{"f:k":{}},"f:metadata":{"f:labels":{}}}',
      'b/Apply': '{"f:metadata":{"f:labels":{"f:lb":{}}}}',
    });
    // b lets go of its key: the map is emptied to null, which the stored ConfigMap omits (kube's
    // typed decoding does the same); a still owns the field.
    r = await c.apply(cm('nulls'), 'b', configMap('nulls'));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().metadata.labels, undefined);
    assert.deepEqual(owners(r.json()), { 'a/Apply': '{"f:data":{"f:k":{}},"f:metadata":{"f:labels":{}}}' });
  });

  it('merges owner references by uid (list-map of atomic structs)', async () => {
    const path = `${SA_BASE}/owners`;
    let r = await c.apply(
      path,
      'a',
      serviceAccount('owners', {}, { ownerReferences: [ownerRef('u1'), ownerRef('u2')] }),
    );
    assert.equal(r.status, 201, r.text);
    r = await c.apply(path, 'b', serviceAccount('owners', {}, { ownerReferences: [ownerRef('u3')] }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.json().metadata.ownerReferences.map((o: { uid: string }) => o.uid),
      ['u1', 'u2', 'u3'],
    );
    assert.deepEqual(owners(r.json()), {
      'a/Apply': '{"f:metadata":{"f:ownerReferences":{"k:{\\"uid\\":\\"u1\\"}":{},"k:{\\"uid\\":\\"u2\\"}":{}}}}',
      'b/Apply': '{"f:metadata":{"f:ownerReferences":{"k:{\\"uid\\":\\"u3\\"}":{}}}}',
    });
    // Each reference is atomic: changing any part of a's entry conflicts on the whole entry.
    r = await c.apply(
      path,
      'b',
      serviceAccount('owners', {}, { ownerReferences: [ownerRef('u3'), ownerRef('u1', { controller: true })] }),
    );
    assert.equal(r.status, 409);
    assert.equal(
      r.json().message,
      'Apply failed with 1 conflict: conflict with "a": .metadata.ownerReferences[uid="u1"]',
    );
    // a drops u2: removed; u3 (b's) stays.
    r = await c.apply(path, 'a', serviceAccount('owners', {}, { ownerReferences: [ownerRef('u1')] }));
    assert.deepEqual(
      r.json().metadata.ownerReferences.map((o: { uid: string }) => o.uid),
      ['u1', 'u3'],
    );
    // A third manager's strategic merge patch of one entry moves that entry to it; a, left
    // owning nothing, has no entry any more.
    r = await c.patch(path, 'gc', 'application/strategic-merge-patch+json', {
      metadata: { ownerReferences: [ownerRef('u1', { blockOwnerDeletion: true })] },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(owners(r.json()), {
      'b/Apply': '{"f:metadata":{"f:ownerReferences":{"k:{\\"uid\\":\\"u3\\"}":{}}}}',
      'gc/Update': '{"f:metadata":{"f:ownerReferences":{"k:{\\"uid\\":\\"u1\\"}":{}}}}',
    });
  });

  it('owns finalizers item by item (set)', async () => {
    const path = cm('fin');
    await c.apply(path, 'a', configMap('fin', undefined, { finalizers: ['a.orch.io/x'] }));
    let r = await c.apply(path, 'b', configMap('fin', undefined, { finalizers: ['b.orch.io/y'] }));
    assert.deepEqual(r.json().metadata.finalizers, ['a.orch.io/x', 'b.orch.io/y']);
    assert.deepEqual(owners(r.json()), {
      'a/Apply': '{"f:metadata":{"f:finalizers":{"v:\\"a.orch.io/x\\"":{}}}}',
      'b/Apply': '{"f:metadata":{"f:finalizers":{"v:\\"b.orch.io/y\\"":{}}}}',
    });
    // Both may declare the same item (shared); a releasing its own leaves b's.
    r = await c.apply(path, 'a', configMap('fin', undefined, { finalizers: ['b.orch.io/y'] }));
    assert.deepEqual(r.json().metadata.finalizers, ['b.orch.io/y']);
    r = await c.apply(path, 'b', configMap('fin'));
    assert.deepEqual(r.json().metadata.finalizers, ['b.orch.io/y'], 'a still owns it');
    r = await c.apply(path, 'a', configMap('fin'));
    assert.equal(r.json().metadata.finalizers, undefined);
  });

  it('owns an atomic list as a whole, with one manager', async () => {
    const path = `${SA_BASE}/atomic`;
    await c.apply(path, 'a', serviceAccount('atomic', { imagePullSecrets: [{ name: 'p1' }] }));
    let r = await c.apply(path, 'b', serviceAccount('atomic', { imagePullSecrets: [{ name: 'p2' }] }));
    assert.equal(r.status, 409);
    assert.equal(r.json().message, 'Apply failed with 1 conflict: conflict with "a": .imagePullSecrets');
    // The same whole list is shared.
    r = await c.apply(path, 'b', serviceAccount('atomic', { imagePullSecrets: [{ name: 'p1' }] }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(owners(r.json()), {
      'a/Apply': '{"f:imagePullSecrets":{}}',
      'b/Apply': '{"f:imagePullSecrets":{}}',
    });
    r = await c.apply(path, 'c', serviceAccount('atomic', { imagePullSecrets: [{ name: 'p1' }, { name: 'p3' }] }), {
      force: true,
    });
    assert.deepEqual(r.json().imagePullSecrets, [{ name: 'p1' }, { name: 'p3' }]);
    assert.deepEqual(owners(r.json()), { 'c/Apply': '{"f:imagePullSecrets":{}}' });
  });

  it('owns list-map entries of atomic structs by key (ServiceAccount secrets)', async () => {
    const path = `${SA_BASE}/secrets`;
    await c.apply(path, 'a', serviceAccount('secrets', { secrets: [{ name: 's1' }] }));
    let r = await c.apply(path, 'b', serviceAccount('secrets', { secrets: [{ name: 's2' }] }));
    assert.deepEqual(r.json().secrets, [{ name: 's1' }, { name: 's2' }]);
    assert.deepEqual(owners(r.json()), {
      'a/Apply': '{"f:secrets":{"k:{\\"name\\":\\"s1\\"}":{}}}',
      'b/Apply': '{"f:secrets":{"k:{\\"name\\":\\"s2\\"}":{}}}',
    });
    r = await c.apply(path, 'a', serviceAccount('secrets', {}));
    assert.deepEqual(r.json().secrets, [{ name: 's2' }]);
  });

  it('keeps status out of main-resource ownership and spec out of status ownership (namespaces)', async () => {
    const path = '/api/v1/namespaces/own-ns';
    let r = await c.apply(path, 'a', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'own-ns', labels: { team: 'x' } },
      status: { phase: 'Mine' },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().status.phase, 'Active');
    assert.deepEqual(owners(r.json()), { 'a/Apply': '{"f:metadata":{"f:labels":{"f:team":{}}}}' });
    const cond = { type: 'Custom', status: 'True', reason: 'R', message: 'm' };
    r = await c.apply(`${path}/status`, 'st', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'own-ns' },
      spec: { finalizers: ['ignored'] },
      status: { conditions: [cond] },
    });
    assert.equal(r.status, 200, r.text);
    const status = r.json();
    assert.deepEqual(status.status.conditions, [cond]);
    assert.deepEqual(status.spec.finalizers, ['orch']);
    const entry = status.metadata.managedFields.find((e: { manager: string }) => e.manager === 'st');
    assert.equal(entry.subresource, 'status');
    assert.deepEqual(Object.keys(entry.fieldsV1['f:status']), ['f:conditions'], JSON.stringify(entry.fieldsV1));
    assert.equal(entry.fieldsV1['f:spec'], undefined);
    // A status update (PUT) is recorded with its sub-resource; removing st's condition leaves st
    // owning nothing.
    const live = await c.get(path);
    const other = { type: 'Other', status: 'False', reason: 'R', message: 'm' };
    r = await c.put(`${path}/status`, 'kubelet', {
      ...live,
      status: { ...(live.status as object), conditions: [other] },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(owners(r.json())), ['a/Apply', 'kubelet/Update/status']);
    const kubelet = owners(r.json())['kubelet/Update/status'];
    assert.ok(kubelet.startsWith('{"f:status":{"f:conditions":{'), kubelet);
    assert.ok(kubelet.includes('"k:{\\"type\\":\\"Other\\"}":{".":{},'), kubelet);
  });
});
