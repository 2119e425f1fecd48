import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { registryFixture } from '../resource-set/testing/registry-fixture.js';

type Ns = ApiObject & { spec?: { finalizers?: string[] }; status?: { phase?: string } };

async function failure(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail('expected a rejection');
}

describe('namespace deletion (registry)', () => {
  it('marks the namespace Terminating, keeps it until finalized, then removes it', async () => {
    const f = await registryFixture();
    const nss = f.registry('namespaces');
    const created = await f.createNamespace('doomed');
    const r = await nss.delete(f.ctx(), 'doomed', { dryRun: false });
    assert.equal(r.deleted, false);
    const marked = r.obj as Ns;
    assert.ok(marked.metadata.deletionTimestamp);
    assert.equal(marked.metadata.deletionGracePeriodSeconds, undefined);
    assert.equal(marked.status?.phase, 'Terminating');
    assert.deepEqual(marked.spec?.finalizers, ['orch']);

    // Creating content now is forbidden.
    const e = await failure(
      f
        .registry('configmaps')
        .create(f.ctx('doomed'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, { dryRun: false }),
    );
    assert.equal(e.code, 403);
    assert.equal(
      e.message,
      'configmaps "x" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    );

    // A second delete changes nothing while spec.finalizers is not empty.
    const again = await nss.delete(f.ctx(), 'doomed', { dryRun: false });
    assert.equal(again.deleted, false);
    assert.equal(again.obj.metadata.resourceVersion, marked.metadata.resourceVersion);

    const wrongUid = await failure(nss.delete(f.ctx(), 'doomed', { dryRun: false, preconditions: { uid: 'nope' } }));
    assert.equal(wrongUid.code, 409);
    assert.equal(
      wrongUid.message,
      `Operation cannot be fulfilled on namespaces "doomed": Precondition failed: UID in precondition: nope, UID in object meta: ${created.metadata.uid}`,
    );

    // Finalizing (spec.finalizers emptied through namespaces/finalize) removes it.
    const fin = await nss.update(
      f.ctx(),
      'doomed',
      {
        retryOnConflict: true,
        compute: (live) => ({ ...(live as Ns), spec: { finalizers: [] } }),
      },
      { dryRun: false, subresource: 'finalize' },
    );
    assert.deepEqual((fin.obj as Ns).spec?.finalizers, []);
    assert.equal((await failure(nss.get(f.ctx(), 'doomed', {}))).code, 404);
  });

  it('keeps a finalized namespace while metadata.finalizers remain', async () => {
    const f = await registryFixture();
    const nss = f.registry('namespaces');
    await nss.create(
      f.ctx(),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'held', finalizers: ['example.com/hold'] } },
      { dryRun: false },
    );
    await nss.delete(f.ctx(), 'held', { dryRun: false });
    await nss.update(
      f.ctx(),
      'held',
      { retryOnConflict: true, compute: (live) => ({ ...(live as Ns), spec: { finalizers: [] } }) },
      { dryRun: false, subresource: 'finalize' },
    );
    const still = (await nss.get(f.ctx(), 'held', {})) as Ns;
    assert.deepEqual(still.spec?.finalizers, []);
    // Now the metadata finalizer is the last thing holding it.
    await nss.update(
      f.ctx(),
      'held',
      { retryOnConflict: true, compute: (live) => ({ ...live!, metadata: { ...live!.metadata, finalizers: [] } }) },
      { dryRun: false },
    );
    assert.equal((await failure(nss.get(f.ctx(), 'held', {}))).code, 404);
  });

  it('refuses to delete the system namespaces', async () => {
    const f = await registryFixture();
    const nss = f.registry('namespaces');
    for (const name of ['default', 'orch-system', 'orch-public']) {
      await f.createNamespace(name);
      const e = await failure(nss.delete(f.ctx(), name, { dryRun: false }));
      assert.equal(e.code, 403);
      assert.equal(e.reason, 'Forbidden');
      assert.equal(e.message, `namespaces "${name}" is forbidden: this namespace may not be deleted`);
      assert.equal(((await nss.get(f.ctx(), name, {})) as Ns).status?.phase, 'Active');
    }
    await f.createNamespace('orch-node-lease');
    assert.equal((await nss.delete(f.ctx(), 'orch-node-lease', { dryRun: false })).deleted, false);
  });

  it('records the GC finalizers the options ask for, and honours dry run', async () => {
    const f = await registryFixture();
    const nss = f.registry('namespaces');
    await f.createNamespace('fg');
    const dry = await nss.delete(f.ctx(), 'fg', { dryRun: true, propagationPolicy: 'Foreground' });
    assert.deepEqual(dry.obj.metadata.finalizers, ['foregroundDeletion']);
    assert.equal(((await nss.get(f.ctx(), 'fg', {})) as Ns).status?.phase, 'Active');
    const r = await nss.delete(f.ctx(), 'fg', { dryRun: false, orphanDependents: true });
    assert.deepEqual(r.obj.metadata.finalizers, ['orphan']);
  });
});
