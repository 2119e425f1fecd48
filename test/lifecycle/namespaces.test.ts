import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { type Api, eventually, lifecycleApi, withContentLength } from './lifecycle-helpers.js';

describe('namespace lifecycle over HTTP', () => {
  let server: ServerProcess;
  let api: Api;
  let h: ReturnType<typeof lifecycleApi>;
  before(async () => {
    server = await startServerProcess();
    api = withContentLength(apiOf(server).admin);
    h = lifecycleApi(api);
  });
  after(async () => server?.dispose());

  it('deletes a namespace with its content, waiting for finalizers, then removes it', async () => {
    await h.createNamespace('doomed');
    await h.createConfigMap('doomed', 'plain');
    await h.createConfigMap('doomed', 'held', { finalizers: ['example.com/hold'] });
    const lease = await api('POST', '/apis/coordination.orch.io/v1/namespaces/doomed/leases', {
      body: { apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: {} },
    });
    assert.equal(lease.status, 201, lease.text);

    const del = await api('DELETE', '/api/v1/namespaces/doomed');
    assert.equal(del.status, 200);
    const ns = del.json();
    assert.equal(ns.kind, 'Namespace');
    assert.equal(ns.status.phase, 'Terminating');
    assert.ok(ns.metadata.deletionTimestamp);
    assert.deepEqual(ns.spec.finalizers, ['orch']);

    // No new content while terminating.
    const create = await api('POST', '/api/v1/namespaces/doomed/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } },
    });
    assert.equal(create.status, 403);
    assert.equal(create.json().reason, 'Forbidden');
    assert.equal(
      create.json().message,
      'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    );

    await h.gone('/api/v1/namespaces/doomed/configmaps/plain');
    await h.gone('/apis/coordination.orch.io/v1/namespaces/doomed/leases/l');
    const terminating = await eventually('the namespace conditions', async () => {
      const n = await h.find('/api/v1/namespaces/doomed');
      const c = n?.status?.conditions?.find((x: { type: string }) => x.type === 'NamespaceFinalizersRemaining');
      return c?.status === 'True' ? n : undefined;
    });
    const byType = Object.fromEntries(
      terminating.status.conditions.map((c: { type: string; message: string }) => [c.type, c.message]),
    );
    assert.equal(
      byType.NamespaceContentRemaining,
      'Some resources are remaining: configmaps. has 1 resource instances',
    );
    assert.equal(
      byType.NamespaceFinalizersRemaining,
      'Some finalizers are remaining: example.com/hold in 1 resource instances',
    );
    assert.equal(byType.NamespaceDeletionDiscoveryFailure, 'All resources successfully discovered');

    assert.equal((await h.removeFinalizers('/api/v1/namespaces/doomed/configmaps/held')).status, 200);
    await h.gone('/api/v1/namespaces/doomed', 20_000);
  });

  it('kubectl delete namespace waits until the namespace is gone', async () => {
    const k = (...args: string[]) => kubectl(server.kubeconfig, args);
    let r = await k('create', 'namespace', 'kdoomed');
    assert.equal(r.code, 0, r.stderr);
    await h.createConfigMap('kdoomed', 'c1');
    r = await k('delete', 'namespace', 'kdoomed', '--timeout=30s');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /namespace "kdoomed" deleted/);
    assert.equal((await api('GET', '/api/v1/namespaces/kdoomed')).status, 404);
  });

  it('refuses to delete the system namespaces', async () => {
    for (const name of ['default', 'orch-system', 'orch-public']) {
      const r = await api('DELETE', `/api/v1/namespaces/${name}`);
      assert.equal(r.status, 403);
      assert.deepEqual(r.json(), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `namespaces "${name}" is forbidden: this namespace may not be deleted`,
        reason: 'Forbidden',
        details: { name, kind: 'namespaces' },
        code: 403,
      });
    }
    // Namespaces have no deletecollection.
    const all = await api('DELETE', '/api/v1/namespaces');
    assert.equal(all.status, 405);
    assert.equal(all.json().reason, 'MethodNotAllowed');
    const k = await kubectl(server.kubeconfig, ['delete', 'namespace', 'default']);
    assert.notEqual(k.code, 0);
    assert.match(
      k.stderr,
      /Error from server \(Forbidden\): namespaces "default" is forbidden: this namespace may not be deleted/,
    );
  });
});

describe('orch-apiserver --run-controllers=false', () => {
  let server: ServerProcess;
  let api: Api;
  before(async () => {
    server = await startServerProcess({ args: ['--run-controllers=false'] });
    api = withContentLength(apiOf(server).admin);
  });
  after(async () => server?.dispose());

  it('leaves a deleted namespace Terminating and dependents in place', async () => {
    const h = lifecycleApi(api);
    await h.createNamespace('stays');
    const owner = await h.createConfigMap('stays', 'owner');
    await h.createConfigMap('stays', 'dep', {
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }],
    });
    assert.equal((await api('DELETE', '/api/v1/namespaces/stays/configmaps/owner')).status, 200);
    assert.equal((await api('DELETE', '/api/v1/namespaces/stays')).status, 200);
    await new Promise((r) => setTimeout(r, 1500));
    const ns = await h.find('/api/v1/namespaces/stays');
    assert.equal(ns.status.phase, 'Terminating');
    assert.deepEqual(ns.spec.finalizers, ['orch']);
    assert.equal(ns.status.conditions, undefined);
    assert.ok(await h.find('/api/v1/namespaces/stays/configmaps/dep'), 'no garbage collection');

    // Finalizing by hand (what a controller manager would do) removes it.
    const fin = { ...ns, spec: { finalizers: [] } };
    const r = await api('PUT', '/api/v1/namespaces/stays/finalize', { body: fin });
    assert.equal(r.status, 200, r.text);
    assert.equal((await api('GET', '/api/v1/namespaces/stays')).status, 404);
  });
});
