import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openLmdbStore } from '../../src/storage/lmdb/lmdb-store.js';
import { corruptLmdbRecord } from '../../src/storage/lmdb/testing/lmdb-harness.js';
import { apiOf } from '../support/api.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { type Api, lifecycleApi, withContentLength } from './lifecycle-helpers.js';

const GATE = '--feature-gates=AllowUnsafeMalformedObjectDeletion=true';
const UNSAFE = 'ignoreStoreReadErrorWithClusterBreakingPotential=true';
const KEY = (name: string) => `/registry/core/configmaps/u/${name}`;

/** Damages the stored record of `key` in the server's embedded store (the server is stopped). */
async function corrupt(dataDir: string, key: string): Promise<void> {
  const store = await openLmdbStore({ path: join(dataDir, 'store') });
  try {
    await corruptLmdbRecord(store, key);
  } finally {
    await store.close();
  }
}

describe('unsafe deletion of corrupt objects (embedded store, real damage, restarts)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-unsafe-'));
  let server: ServerProcess | undefined;
  let api: Api;
  const start = async (args: string[]) => {
    server = await startServerProcess({ dataDir, args });
    api = withContentLength(apiOf(server).admin);
  };
  after(async () => {
    await server?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports, refuses and finally deletes a corrupt object as kube does', async () => {
    await start([GATE]);
    const h = lifecycleApi(api);
    await h.createNamespace('u');
    await h.createConfigMap('u', 'good');
    await h.createConfigMap('u', 'bad', { finalizers: ['example.com/hold'] });
    await h.createConfigMap('u', 'later');
    await server!.stop();
    await corrupt(dataDir, KEY('bad'));
    await start([GATE]);

    const get = await api('GET', h.cmPath('u', 'bad'));
    assert.equal(get.status, 500);
    assert.equal(get.json().reason, 'InternalError');
    assert.match(
      get.json().message,
      /^Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/registry\/core\/configmaps\/u\/bad, ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: /,
    );

    const list = await api('GET', h.cmPath('u'));
    assert.equal(list.status, 500);
    assert.equal(list.json().reason, 'StorageReadError');
    assert.equal(list.json().message, 'failed to read one or more configmaps from the storage');
    assert.deepEqual(
      list.json().details.causes.map((c: { field: string }) => c.field),
      [KEY('bad')],
    );

    assert.equal((await api('DELETE', h.cmPath('u', 'bad'))).status, 500, 'a normal delete fails');

    const withOthers = await api('DELETE', `${h.cmPath('u', 'bad')}?${UNSAFE}&dryRun=All&gracePeriodSeconds=0`);
    assert.equal(withOthers.status, 422);
    assert.equal(
      withOthers.json().message,
      'DeleteOptions.meta.orch.io "" is invalid: [ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .dryRun, ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .gracePeriodSeconds]',
    );

    const readable = await api('DELETE', h.cmPath('u', 'good'), {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', ignoreStoreReadErrorWithClusterBreakingPotential: true },
    });
    assert.equal(readable.status, 422);
    assert.equal(
      readable.json().message,
      'configmaps "good" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option',
    );

    const unsafe = await api('DELETE', `${h.cmPath('u', 'bad')}?${UNSAFE}`);
    assert.equal(unsafe.status, 200, unsafe.text);
    assert.equal(unsafe.json().status, 'Success');
    assert.equal((await api('GET', h.cmPath('u', 'bad'))).status, 404);
    const after = await api('GET', h.cmPath('u'));
    assert.equal(after.status, 200);
    assert.deepEqual(
      after.json().items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['good', 'later'],
    );
  });

  it('with the gate off, the option is ignored and the object stays', async () => {
    await server!.stop();
    await corrupt(dataDir, KEY('later'));
    await start([]);
    const get = await api('GET', '/api/v1/namespaces/u/configmaps/later');
    assert.equal(get.status, 500);
    assert.match(
      get.json().message,
      /^Internal error occurred: corrupt value for \/registry\/core\/configmaps\/u\/later/,
    );
    const r = await api('DELETE', `/api/v1/namespaces/u/configmaps/later?${UNSAFE}`);
    assert.equal(r.status, 500);
    assert.equal((await api('GET', '/api/v1/namespaces/u/configmaps/later')).status, 500);
    // The option does not stop a normal delete of a readable object either.
    assert.equal((await api('DELETE', `/api/v1/namespaces/u/configmaps/good?${UNSAFE}&dryRun=All`)).status, 200);
  });
});
