import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { type RegistryFixture, registryFixture } from '../resource-set/testing/registry-fixture.js';
import type { DeleteOptions } from '../types.js';

const NS = 'team';

function cm(name: string, meta: Record<string, unknown> = {}): ApiObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data: { a: '1' } };
}

async function rejects(p: Promise<unknown>, code: number, message?: string | RegExp): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StatusError, `expected a StatusError, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (typeof message === 'string') assert.equal(e.message, message);
    else if (message) assert.match(e.message, message);
    return e;
  }
  assert.fail('expected a rejection');
}

describe('generic delete', () => {
  let f: RegistryFixture;
  const opts = (o: Partial<DeleteOptions> = {}): DeleteOptions => ({ dryRun: false, ...o });
  const cms = () => f.registry('configmaps');
  const create = (obj: ApiObject) => cms().create(f.ctx(NS), obj, { dryRun: false });
  const get = (name: string) => cms().get(f.ctx(NS), name, {});
  const del = (name: string, o: Partial<DeleteOptions> = {}) => cms().delete(f.ctx(NS), name, opts(o));
  const removeFinalizers = (name: string) =>
    cms().update(
      f.ctx(NS),
      name,
      { retryOnConflict: true, compute: (live) => ({ ...live!, metadata: { ...live!.metadata, finalizers: [] } }) },
      { dryRun: false },
    );

  beforeEach(async () => {
    f = await registryFixture();
    await f.createNamespace(NS);
  });

  it('removes an object without finalizers at once', async () => {
    await create(cm('plain'));
    const r = await del('plain');
    assert.equal(r.deleted, true);
    assert.equal(r.obj.metadata.name, 'plain');
    await rejects(get('plain'), 404, 'configmaps "plain" not found');
  });

  it('marks an object with finalizers once, and removes it when an update drops the last finalizer', async () => {
    await create(cm('fin', { finalizers: ['example.com/hold'] }));
    const first = await del('fin');
    assert.equal(first.deleted, false);
    const ts = first.obj.metadata.deletionTimestamp;
    assert.match(ts ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(first.obj.metadata.deletionGracePeriodSeconds, 0);
    assert.equal((await get('fin')).metadata.deletionTimestamp, ts);

    await new Promise((r) => setTimeout(r, 1100));
    const second = await del('fin', { gracePeriodSeconds: 30 });
    assert.equal(second.deleted, false);
    assert.equal(second.obj.metadata.deletionTimestamp, ts, 'a later delete keeps the timestamp');
    assert.equal(second.obj.metadata.deletionGracePeriodSeconds, 0);
    assert.equal(second.obj.metadata.resourceVersion, first.obj.metadata.resourceVersion, 'nothing written');

    const updated = await removeFinalizers('fin');
    assert.deepEqual(updated.obj.metadata.finalizers, []);
    await rejects(get('fin'), 404);
  });

  it('forbids new finalizers once deletion started', async () => {
    await create(cm('nonew', { finalizers: ['example.com/a'] }));
    await del('nonew');
    const e = await rejects(
      cms().update(
        f.ctx(NS),
        'nonew',
        {
          retryOnConflict: true,
          compute: (live) => ({
            ...live!,
            metadata: { ...live!.metadata, finalizers: ['example.com/a', 'example.com/b'] },
          }),
        },
        { dryRun: false },
      ),
      422,
    );
    assert.match(e.message, /no new finalizers can be added if the object is being deleted/);
  });

  it('checks preconditions with kube wording', async () => {
    const obj = await create(cm('pre'));
    await rejects(
      del('pre', { preconditions: { uid: 'not-it' } }),
      409,
      `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (not-it) does not match the UID in record (${obj.metadata.uid}). The object might have been deleted and then recreated`,
    );
    await rejects(
      del('pre', { preconditions: { resourceVersion: '1' } }),
      409,
      `Operation cannot be fulfilled on ConfigMap "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${obj.metadata.resourceVersion}). The object might have been modified`,
    );
    const ok = await del('pre', {
      preconditions: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion },
    });
    assert.equal(ok.deleted, true);
  });

  it('sets the garbage-collection finalizers per propagation policy', async () => {
    await create(cm('orphan'));
    const o = await del('orphan', { propagationPolicy: 'Orphan' });
    assert.equal(o.deleted, false);
    assert.deepEqual(o.obj.metadata.finalizers, ['orphan']);

    await create(cm('fg', { finalizers: ['example.com/x'] }));
    const fg = await del('fg', { propagationPolicy: 'Foreground' });
    assert.deepEqual(fg.obj.metadata.finalizers, ['example.com/x', 'foregroundDeletion']);
    // A later delete may switch the policy (kube rewrites the GC finalizers on every delete).
    const switched = await del('fg', { orphanDependents: true });
    assert.deepEqual(switched.obj.metadata.finalizers, ['example.com/x', 'orphan']);

    await create(cm('legacy'));
    assert.deepEqual((await del('legacy', { orphanDependents: true })).obj.metadata.finalizers, ['orphan']);
    await create(cm('bg'));
    assert.equal((await del('bg', { propagationPolicy: 'Background' })).deleted, true);
    await create(cm('legacy-bg'));
    assert.equal((await del('legacy-bg', { orphanDependents: false })).deleted, true);
  });

  it('removes at once an object whose only finalizer the options clear', async () => {
    await create(cm('was-orphan', { finalizers: ['orphan'] }));
    const r = await del('was-orphan', { propagationPolicy: 'Background' });
    assert.equal(r.deleted, true);
    await rejects(get('was-orphan'), 404);
  });

  it('validates delete options as kube does', async () => {
    await create(cm('v'));
    const e = await rejects(
      del('v', { propagationPolicy: 'Orphan', orphanDependents: true }),
      422,
      'DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
    assert.deepEqual(e.details?.kind, 'DeleteOptions');
    assert.equal(e.details?.name, undefined);
    await rejects(
      del('v', { propagationPolicy: 'Sideways' as DeleteOptions['propagationPolicy'] }),
      422,
      'DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
  });

  it('writes nothing on a dry run', async () => {
    await create(cm('dry', { finalizers: ['example.com/x'] }));
    const marked = await del('dry', { dryRun: true });
    assert.ok(marked.obj.metadata.deletionTimestamp);
    assert.equal((await get('dry')).metadata.deletionTimestamp, undefined);
    await create(cm('dry2'));
    assert.equal((await del('dry2', { dryRun: true })).deleted, true);
    assert.equal((await get('dry2')).metadata.name, 'dry2');
  });

  it('deletes a collection and returns the objects as listed', async () => {
    await create(cm('c1'));
    await create(cm('c2', { finalizers: ['example.com/x'] }));
    const list = await cms().deleteCollection(f.ctx(NS), opts(), {});
    assert.deepEqual(
      list.items.map((i) => i.metadata.name),
      ['c1', 'c2'],
    );
    assert.equal(list.items[1].metadata.deletionTimestamp, undefined);
    await rejects(get('c1'), 404);
    assert.ok((await get('c2')).metadata.deletionTimestamp);
    await rejects(
      cms().deleteCollection(f.ctx(NS), opts({ propagationPolicy: 'Orphan', orphanDependents: false }), {}),
      422,
    );
  });
});
