import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { type Api, eventually, lifecycleApi, ownerRef, withContentLength } from './lifecycle-helpers.js';

const NS = 'life';

describe('deletion lifecycle over HTTP (finalizers, preconditions, propagation, garbage collection)', () => {
  let server: ServerProcess;
  let api: Api;
  let h: ReturnType<typeof lifecycleApi>;
  before(async () => {
    server = await startServerProcess();
    api = withContentLength(apiOf(server).admin);
    h = lifecycleApi(api);
    await h.createNamespace(NS);
  });
  after(async () => server?.dispose());

  it('deletes in two phases: deletionTimestamp first, removal when the last finalizer goes', async () => {
    const path = h.cmPath(NS, 'two-phase');
    await h.createConfigMap(NS, 'two-phase', { finalizers: ['example.com/hold', 'example.com/second'] });
    const first = await api('DELETE', path);
    assert.equal(first.status, 200);
    const marked = first.json();
    assert.equal(marked.kind, 'ConfigMap');
    assert.match(marked.metadata.deletionTimestamp, /Z$/);
    assert.equal(marked.metadata.deletionGracePeriodSeconds, 0);

    const again = await api('DELETE', path, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 5 },
    });
    assert.equal(again.status, 200);
    assert.equal(again.json().metadata.deletionTimestamp, marked.metadata.deletionTimestamp);
    assert.equal(again.json().metadata.resourceVersion, marked.metadata.resourceVersion);

    // No new finalizers once deletion started.
    const live = (await api('GET', path)).json();
    live.metadata.finalizers = ['example.com/hold', 'example.com/second', 'example.com/new'];
    const added = await api('PUT', path, { body: live });
    assert.equal(added.status, 422);
    assert.match(added.json().message, /no new finalizers can be added if the object is being deleted/);

    // Removing one finalizer keeps it; removing the last removes it.
    const one = (await api('GET', path)).json();
    one.metadata.finalizers = ['example.com/second'];
    assert.equal((await api('PUT', path, { body: one })).status, 200);
    assert.ok(await h.find(path));
    const last = await h.removeFinalizers(path);
    assert.equal(last.status, 200);
    assert.deepEqual(last.json().metadata.finalizers, []);
    assert.equal((await api('GET', path)).status, 404);
  });

  it('checks preconditions (409 with kube wording) and answers 202 for orphanDependents=false', async () => {
    const obj = await h.createConfigMap(NS, 'pre');
    const path = h.cmPath(NS, 'pre');
    const uid = await api('DELETE', path, { body: { kind: 'DeleteOptions', preconditions: { uid: 'wrong' } } });
    assert.equal(uid.status, 409);
    assert.equal(uid.json().reason, 'Conflict');
    assert.equal(
      uid.json().message,
      `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (wrong) does not match the UID in record (${obj.metadata.uid}). The object might have been deleted and then recreated`,
    );
    const rv = await api('DELETE', path, { body: { kind: 'DeleteOptions', preconditions: { resourceVersion: '1' } } });
    assert.equal(rv.status, 409);
    assert.match(rv.json().message, /the ResourceVersion in the precondition \(1\) does not match/);
    const both = await api('DELETE', `${path}?propagationPolicy=Orphan&orphanDependents=true`);
    assert.equal(both.status, 422);
    assert.equal(
      both.json().message,
      'DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );

    await h.createConfigMap(NS, 'held', { finalizers: ['example.com/hold'] });
    const accepted = await api('DELETE', `${h.cmPath(NS, 'held')}?orphanDependents=false`);
    assert.equal(accepted.status, 202);
    assert.ok(accepted.json().metadata.deletionTimestamp);
    assert.equal((await h.removeFinalizers(h.cmPath(NS, 'held'))).status, 200);

    const ok = await api('DELETE', path, {
      body: {
        kind: 'DeleteOptions',
        preconditions: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion },
      },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.json().status, 'Success');
  });

  it('garbage-collects dependents in the background (the default)', async () => {
    const owner = await h.createConfigMap(NS, 'bg-owner');
    await h.createConfigMap(NS, 'bg-dep', { ownerReferences: [ownerRef(owner)] });
    const secret = await api('POST', `/api/v1/namespaces/${NS}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'bg-dep-secret', ownerReferences: [ownerRef(owner)] },
      },
    });
    assert.equal(secret.status, 201);
    assert.equal((await api('DELETE', h.cmPath(NS, 'bg-owner'))).status, 200);
    await h.gone(h.cmPath(NS, 'bg-dep'));
    await h.gone(`/api/v1/namespaces/${NS}/secrets/bg-dep-secret`);
  });

  it('orphans dependents with propagationPolicy=Orphan', async () => {
    const owner = await h.createConfigMap(NS, 'or-owner');
    await h.createConfigMap(NS, 'or-dep', { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] });
    const r = await api('DELETE', h.cmPath(NS, 'or-owner'), {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json().metadata.finalizers, ['orphan']);
    await h.gone(h.cmPath(NS, 'or-owner'));
    const dep = await h.find(h.cmPath(NS, 'or-dep'));
    assert.equal(dep.metadata.ownerReferences, undefined);
  });

  it('deletes in the foreground: the owner stays until its blocking dependents are gone', async () => {
    const owner = await h.createConfigMap(NS, 'fg-owner');
    await h.createConfigMap(NS, 'fg-dep', {
      ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })],
      finalizers: ['example.com/slow'],
    });
    const r = await api('DELETE', `${h.cmPath(NS, 'fg-owner')}?propagationPolicy=Foreground`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json().metadata.finalizers, ['foregroundDeletion']);
    await eventually(
      'the dependent to be deleting',
      async () => (await h.find(h.cmPath(NS, 'fg-dep')))?.metadata.deletionTimestamp,
    );
    await new Promise((res) => setTimeout(res, 500));
    assert.ok(await h.find(h.cmPath(NS, 'fg-owner')), 'the owner waits');
    await h.removeFinalizers(h.cmPath(NS, 'fg-dep'));
    await h.gone(h.cmPath(NS, 'fg-dep'));
    await h.gone(h.cmPath(NS, 'fg-owner'));
  });

  it('kubectl delete --cascade=foreground and --cascade=orphan', async () => {
    const k = (...args: string[]) => kubectl(server.kubeconfig, args);
    const owner1 = await h.createConfigMap(NS, 'k-fg');
    await h.createConfigMap(NS, 'k-fg-dep', { ownerReferences: [ownerRef(owner1, { blockOwnerDeletion: true })] });
    let out = await k('delete', 'configmap', 'k-fg', '-n', NS, '--cascade=foreground', '--timeout=30s');
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /configmap "k-fg" deleted/);
    // kubectl waited for the owner, which went only after its blocking dependent.
    assert.equal((await api('GET', h.cmPath(NS, 'k-fg'))).status, 404);
    assert.equal((await api('GET', h.cmPath(NS, 'k-fg-dep'))).status, 404);

    const owner2 = await h.createConfigMap(NS, 'k-or');
    await h.createConfigMap(NS, 'k-or-dep', { ownerReferences: [ownerRef(owner2)] });
    out = await k('delete', 'configmap', 'k-or', '-n', NS, '--cascade=orphan', '--timeout=30s');
    assert.equal(out.code, 0, out.stderr);
    assert.equal((await api('GET', h.cmPath(NS, 'k-or'))).status, 404);
    const dep = await h.find(h.cmPath(NS, 'k-or-dep'));
    assert.equal(dep.metadata.ownerReferences, undefined);
  });
});
