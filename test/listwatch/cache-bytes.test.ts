import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { openWatch } from '../support/watch-client.js';

/**
 * The watch cache keeps objects as their stored bytes (read again from the embedded store's
 * pages for what it loaded at start-up) and answers JSON from them: every answer must be the
 * one a decoded object gives, byte for byte.
 */
describe('answers from the watch cache after a restart (objects kept as stored bytes)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-cache-bytes-'));
  let server: ServerProcess;
  const ns = 'bytes';
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  const objects = [
    { name: 'plain', labels: { app: 'x' }, data: { k: 'v ü ✓' } },
    // Go's encoder escapes these: the answer is encoded, not copied.
    { name: 'escaped', labels: { app: 'x' }, data: { html: '<b>a & b</b>', sep: 'a\u2028b' } },
    { name: 'other', labels: { app: 'y' }, data: {} },
    { name: 'rv-label', labels: { resourceVersion: 'kept' }, data: { big: '9' } },
  ];

  before(async () => {
    const first = await startServerProcess({ dataDir });
    const api = apiOf(first).admin;
    await api('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    for (const o of objects) {
      const r = await api('POST', base, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: o.name, labels: o.labels }, data: o.data },
      });
      assert.equal(r.status, 201, r.text);
    }
    await first.stop('SIGTERM');
    server = await startServerProcess({ dataDir });
  });
  after(async () => {
    await server?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves GETs and lists from the cache byte for byte as the store reads decode them', async () => {
    const api = apiOf(server).admin;
    for (const o of objects) {
      const fromStore = await api('GET', `${base}/${o.name}`);
      const fromCache = await api('GET', `${base}/${o.name}?resourceVersion=0`);
      assert.equal(fromCache.status, 200);
      assert.equal(fromCache.text, fromStore.text, o.name);
    }
    const cached = (await api('GET', `${base}?resourceVersion=0`)).json();
    const stored = (await api('GET', `${base}?limit=10`)).json();
    assert.deepEqual(
      cached.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['escaped', 'other', 'plain', 'rv-label'],
    );
    assert.deepEqual(cached.items, stored.items);
    const selected = (await api('GET', `${base}?resourceVersion=0&labelSelector=app%3Dx`)).json();
    assert.deepEqual(
      selected.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['escaped', 'plain'],
    );
  });

  it('turns an update that drops a watched label into DELETED, reading the replaced object', async () => {
    const api = apiOf(server).admin;
    const rv = (await api('GET', base)).json().metadata.resourceVersion;
    const watch = await openWatch(
      server.url,
      `${base}?watch=1&labelSelector=app%3Dx&resourceVersion=${rv}`,
      server.admin,
    );
    try {
      const r = await api('PATCH', `${base}/plain`, {
        body: { metadata: { labels: { app: null } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      assert.equal(r.status, 200, r.text);
      const [ev] = await watch.waitFor(1);
      assert.equal(ev?.type, 'DELETED');
      assert.equal(ev?.object.metadata.name, 'plain');
      assert.equal(ev?.object.metadata.resourceVersion, r.json().metadata.resourceVersion);
    } finally {
      watch.close();
    }
  });
});
