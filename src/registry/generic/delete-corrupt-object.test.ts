import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { registryFixture } from '../resource-set/testing/registry-fixture.js';
import type { DeleteOptions } from '../types.js';

const NS = 'team';
const KEY = (name: string) => `/registry/core/configmaps/${NS}/${name}`;

async function failure(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail('expected a rejection');
}

async function setup(gate: boolean) {
  const f = await registryFixture({ allowUnsafeMalformedObjectDeletion: gate });
  await f.createNamespace(NS);
  const cms = f.registry('configmaps');
  const create = (name: string, meta: Record<string, unknown> = {}): Promise<ApiObject> =>
    cms.create(f.ctx(NS), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta } }, { dryRun: false });
  const unsafe = (name: string, o: Partial<DeleteOptions> = {}) =>
    cms.delete(f.ctx(NS), name, { dryRun: false, ignoreStoreReadErrorWithClusterBreakingPotential: true, ...o });
  return { f, cms, create, unsafe };
}

describe('corrupt objects and unsafe deletion', () => {
  it('with the gate on: reports corrupt objects as kube does and deletes them unsafely', async () => {
    const { f, cms, create, unsafe } = await setup(true);
    await create('good');
    await create('bad', { finalizers: ['example.com/hold'] });
    await create('bad2');
    f.store.corruptRecord(KEY('bad'));
    f.store.corruptRecord(KEY('bad2'), { inPlace: true });

    const get = await failure(cms.get(f.ctx(NS), 'bad', {}));
    assert.equal(get.code, 500);
    assert.equal(get.reason, 'InternalError');
    assert.match(
      get.message,
      /^Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/registry\/core\/configmaps\/team\/bad, ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: /,
    );

    const list = await failure(cms.list(f.ctx(NS), {}));
    assert.equal(list.code, 500);
    assert.equal(list.reason, 'StorageReadError');
    assert.equal(list.message, 'failed to read one or more configmaps from the storage');
    assert.equal(list.details?.name, 'list');
    assert.deepEqual(
      list.details?.causes?.map((c) => [c.reason, c.field]),
      [
        ['UnexpectedServerResponse', KEY('bad')],
        ['UnexpectedServerResponse', KEY('bad2')],
      ],
    );

    // A normal delete of a corrupt object fails like the read.
    assert.equal((await failure(cms.delete(f.ctx(NS), 'bad', { dryRun: false }))).code, 500);

    // The unsafe delete refuses readable and absent objects, and other options.
    const readable = await failure(unsafe('good'));
    assert.equal(readable.code, 422);
    assert.equal(
      readable.message,
      'configmaps "good" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option',
    );
    assert.equal((await failure(unsafe('absent'))).code, 422);
    const combined = await failure(
      unsafe('bad', { dryRun: true, gracePeriodSeconds: 0, preconditions: { uid: 'x' }, propagationPolicy: 'Orphan' }),
    );
    assert.equal(combined.code, 422);
    assert.equal(
      combined.message,
      'DeleteOptions.meta.orch.io "" is invalid: [ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .dryRun, ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .propagationPolicy, ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .gracePeriodSeconds, ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .preconditions]',
    );
    assert.match(
      (await failure(unsafe('bad', { orphanDependents: true }))).message,
      /cannot be set together with \.orphanDependents$/,
    );

    // Finalizers do not hold an unsafe delete.
    const r = await unsafe('bad');
    assert.equal(r.deleted, true);
    assert.deepEqual(r.obj.metadata, { name: 'bad', namespace: NS });
    assert.equal((await unsafe('bad2')).deleted, true);
    assert.equal((await failure(cms.get(f.ctx(NS), 'bad', {}))).code, 404);
    assert.deepEqual(
      (await cms.list(f.ctx(NS), {})).items.map((i) => i.metadata.name),
      ['good'],
    );

    const coll = await failure(
      cms.deleteCollection(f.ctx(NS), { dryRun: false, ignoreStoreReadErrorWithClusterBreakingPotential: true }, {}),
    );
    assert.equal(
      coll.message,
      'DeleteOptions.meta.orch.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option',
    );
  });

  it('with the gate off: the option is ignored and errors carry only their cause', async () => {
    const { f, cms, create, unsafe } = await setup(false);
    await create('good');
    await create('bad');
    f.store.corruptRecord(KEY('bad'));
    const get = await failure(cms.get(f.ctx(NS), 'bad', {}));
    assert.equal(get.code, 500);
    assert.match(get.message, /^Internal error occurred: corrupt value for \/registry\/core\/configmaps\/team\/bad: /);
    const list = await failure(cms.list(f.ctx(NS), {}));
    assert.equal(list.reason, 'InternalError');
    assert.equal((await failure(unsafe('bad'))).code, 500, 'the normal delete runs, and fails');
    // On a readable object the option (and its conflicts) are ignored: a normal delete.
    assert.equal((await unsafe('good', { dryRun: true })).deleted, true);
    assert.equal((await unsafe('good')).deleted, true);
  });
});
