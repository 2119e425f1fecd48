import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import { type ControllerFixture, controllerFixture, waitFor } from '../testing/controller-fixture.js';
import { runDescriptors } from '../testing/run-descriptor.js';
import { garbageCollectorDescriptor } from './garbage-collector.js';

const NS = 'gc';

describe('garbage collector (in process, real registries)', () => {
  let f: ControllerFixture;
  const del = (name: string, propagationPolicy?: 'Orphan' | 'Background' | 'Foreground') =>
    f.registry('configmaps').delete(f.ctx(NS), name, { dryRun: false, propagationPolicy });
  const gone = (name: string) => waitFor(`${name} to be deleted`, async () => !(await f.find('configmaps', NS, name)));
  const dropFinalizers = (name: string) =>
    f
      .registry('configmaps')
      .update(
        f.ctx(NS),
        name,
        { retryOnConflict: true, compute: (live) => ({ ...live!, metadata: { ...live!.metadata, finalizers: [] } }) },
        { dryRun: false },
      );

  beforeEach(async () => {
    f = await controllerFixture();
    await f.createNamespace(NS);
    f.startControllers();
  });
  afterEach(async () => {
    await f.stopControllers();
  });

  it('deletes dependents in the background once their owner is gone', async () => {
    const owner = await f.configMap(NS, 'bg-owner');
    await f.configMap(NS, 'bg-dep-1', { owners: [f.ownerRef(owner)] });
    await f.configMap(NS, 'bg-dep-2', { owners: [f.ownerRef(owner, { controller: true, blockOwnerDeletion: true })] });
    const r = await del('bg-owner');
    assert.equal(r.deleted, true);
    await gone('bg-dep-1');
    await gone('bg-dep-2');
  });

  it('deletes a dependent whose owner never existed, and keeps one with any owner left', async () => {
    await f.configMap(NS, 'dangling', {
      owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '00000000-0000-0000-0000-000000000000' }],
    });
    const owner = await f.configMap(NS, 'keeper');
    const nsOwner = (await f.find('namespaces', '', NS))!;
    const ghost = { apiVersion: 'v1', kind: 'Secret', name: 'ghost', uid: '11111111-1111-1111-1111-111111111111' };
    await f.configMap(NS, 'mixed', { owners: [f.ownerRef(owner), ghost] });
    await f.configMap(NS, 'owned-by-namespace', { owners: [f.ownerRef(nsOwner)] });
    await gone('dangling');
    // The reference to the absent owner is dropped; the object stays for its live owner.
    const mixed = await waitFor('the dangling reference to be removed', async () => {
      const m = await f.find('configmaps', NS, 'mixed');
      return m?.metadata.ownerReferences?.length === 1 ? m : undefined;
    });
    assert.equal(mixed.metadata.ownerReferences?.[0].uid, owner.metadata.uid);
    assert.ok(await f.find('configmaps', NS, 'owned-by-namespace'), 'a cluster-scoped owner is found');
  });

  it('orphans dependents, then lets the owner go', async () => {
    const owner = await f.configMap(NS, 'or-owner');
    await f.configMap(NS, 'or-dep', { owners: [f.ownerRef(owner, { blockOwnerDeletion: true })] });
    const r = await del('or-owner', 'Orphan');
    assert.equal(r.deleted, false);
    assert.deepEqual(r.obj.metadata.finalizers, ['orphan']);
    await gone('or-owner');
    const dep = (await f.find('configmaps', NS, 'or-dep'))!;
    assert.equal(dep.metadata.ownerReferences, undefined);
  });

  it('deletes in the foreground: dependents first, the owner waits for blocking ones', async () => {
    const owner = await f.configMap(NS, 'fg-owner');
    const block = f.ownerRef(owner, { blockOwnerDeletion: true });
    await f.configMap(NS, 'fg-blocking', { owners: [block], finalizers: ['example.com/slow'] });
    await f.configMap(NS, 'fg-plain', { owners: [f.ownerRef(owner)] });
    const r = await del('fg-owner', 'Foreground');
    assert.deepEqual(r.obj.metadata.finalizers, ['foregroundDeletion']);
    await gone('fg-plain');
    const blocking = await waitFor('the blocking dependent to be deleting', async () => {
      const o = await f.find('configmaps', NS, 'fg-blocking');
      return o?.metadata.deletionTimestamp ? o : undefined;
    });
    assert.ok(blocking);
    // The owner waits while the blocking dependent exists.
    await new Promise((res) => setTimeout(res, 300));
    const waiting = (await f.find('configmaps', NS, 'fg-owner')) as ApiObject;
    assert.deepEqual(waiting.metadata.finalizers, ['foregroundDeletion']);
    await dropFinalizers('fg-blocking');
    await gone('fg-blocking');
    await gone('fg-owner');
  });

  it('reconciles from lists after a restart', async () => {
    const owner = await f.configMap(NS, 'rs-owner');
    await f.configMap(NS, 'rs-dep', { owners: [f.ownerRef(owner)] });
    await f.stopControllers();
    await del('rs-owner');
    await new Promise((res) => setTimeout(res, 100));
    assert.ok(await f.find('configmaps', NS, 'rs-dep'), 'nothing collects while stopped');
    f.startControllers();
    await gone('rs-dep');
  });
});

describe('garbage collector configuration (GarbageCollectorController)', () => {
  const configs: [string, Record<string, unknown>, boolean][] = [
    [
      'GCIgnoredResources leaves ignored resources alone',
      { GCIgnoredResources: [{ Group: '', Resource: 'configmaps' }] },
      false,
    ],
    ['EnableGarbageCollector false: nothing is collected', { EnableGarbageCollector: false }, false],
    ['defaults collect configmaps', {}, true],
  ];
  for (const [what, config, collects] of configs) {
    it(what, async () => {
      const f = await controllerFixture();
      await f.createNamespace(NS);
      const running = runDescriptors(f.resources, [garbageCollectorDescriptor({ syncTimeoutMs: 2000 })], {
        config: { GarbageCollectorController: config },
      });
      try {
        const owner = await f.configMap(NS, 'owner');
        await f.configMap(NS, 'dependent', { owners: [f.ownerRef(owner)] });
        // A secret owned by the same (soon absent) owner: collected unless the collector is off.
        await f
          .registry('secrets')
          .create(
            f.ctx(NS),
            { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'owned', ownerReferences: [f.ownerRef(owner)] } },
            { dryRun: false },
          );
        await f.registry('configmaps').delete(f.ctx(NS), 'owner', { dryRun: false });
        if (config.EnableGarbageCollector !== false) {
          await waitFor('the owned secret to be collected', async () => !(await f.find('secrets', NS, 'owned')));
        } else {
          await new Promise((r) => setTimeout(r, 500));
          assert.ok(await f.find('secrets', NS, 'owned'), 'the secret stays');
        }
        if (collects) {
          await waitFor('the dependent to be collected', async () => !(await f.find('configmaps', NS, 'dependent')));
        } else {
          assert.ok(await f.find('configmaps', NS, 'dependent'), 'the ignored dependent stays');
        }
      } finally {
        await running.stop();
      }
    });
  }
});
