import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type RunningServer, RuntimeConfigError, startServer } from '../../src/index.js';
import type { Store } from '../../src/storage/store.js';
import { request } from '../support/http-client.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'orch-embed-'));
  dirs.push(d);
  return d;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('embedding with startServer', () => {
  it('rejects a runtime config naming a group version that is not served, before serving', async () => {
    await assert.rejects(
      startServer({ dataDir: tempDir(), securePort: 0, runtimeConfig: 'extensions/v1beta1=false' }),
      (e) => {
        assert.ok(e instanceof RuntimeConfigError);
        assert.equal(e.message, 'unknown api groups extensions');
        return true;
      },
    );
    await assert.rejects(startServer({ dataDir: tempDir(), securePort: 0, runtimeConfig: '/v1/widgets' }), {
      message: 'resource widgets of group version v1 that has not been registered',
    });
  });

  it('starts on the embedded store, serves, and closes', async () => {
    const server = await startServer({ dataDir: tempDir(), securePort: 0 });
    try {
      assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(server.admin);
      assert.ok(server.kubeconfigPath);
      const r = await request(server.url, '/api/v1/namespaces/default', { ca: server.admin.ca, as: server.admin });
      assert.equal(r.status, 200);
      assert.equal(r.json().metadata.name, 'default');
    } finally {
      await server.close();
    }
    await assert.rejects(request(server.url, '/livez', { ca: server.admin!.ca }));
  });

  it('keeps data across a close and a restart on the same data directory', async () => {
    const dataDir = tempDir();
    let server: RunningServer = await startServer({ dataDir, securePort: 0 });
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { a: 'b' } };
    const created = await request(server.url, '/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      body,
      ca: server.admin!.ca,
      as: server.admin!,
    });
    assert.equal(created.status, 201);
    await server.close();
    server = await startServer({ dataDir, securePort: 0 });
    try {
      const r = await request(server.url, '/api/v1/namespaces/default/configmaps/kept', {
        ca: server.admin!.ca,
        as: server.admin!,
      });
      assert.equal(r.status, 200);
      assert.equal(r.json().metadata.uid, created.json().metadata.uid);
    } finally {
      await server.close();
    }
  });

  it('answers 500 Status for an exception inside a handler and keeps serving', async () => {
    const dataDir = tempDir();
    const { openLmdbStore } = await import('../../src/storage/lmdb/lmdb-store.js');
    const real = await openLmdbStore({ path: join(dataDir, 'store') });
    // A real store with one fault injected: reading the key "explode" throws a programming error.
    const faulty: Store = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop === 'get') {
          return (key: string, o?: object) => {
            if (key.endsWith('/explode')) throw new TypeError('boom: injected fault');
            return target.get(key, o);
          };
        }
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const server = await startServer({ dataDir, securePort: 0, store: faulty });
    try {
      const auth = { ca: server.admin!.ca, as: server.admin! };
      const [bad, good] = await Promise.all([
        request(server.url, '/api/v1/namespaces/default/configmaps/explode', auth),
        request(server.url, '/api/v1/namespaces/default', auth),
      ]);
      assert.equal(bad.status, 500);
      assert.equal(bad.json().kind, 'Status');
      assert.equal(bad.json().reason, 'InternalError');
      assert.match(bad.json().message, /boom: injected fault/);
      assert.equal(good.status, 200);
      const after500 = await request(server.url, '/api/v1/namespaces/orch-system', auth);
      assert.equal(after500.status, 200);
    } finally {
      await server.close();
      await real.close();
    }
  });
});
