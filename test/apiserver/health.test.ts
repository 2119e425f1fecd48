import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import { request } from '../support/http-client.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

describe('health endpoints', () => {
  let server: ServerProcess;
  let client: ReturnType<typeof apiOf>['admin'];
  before(async () => {
    server = await startServerProcess();
    client = apiOf(server).admin;
  });
  after(async () => server?.dispose());

  it('answers ok on /healthz, /livez and /readyz', async () => {
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const r = await client('GET', p);
      assert.equal(r.status, 200);
      assert.equal(r.text, 'ok');
    }
  });

  it('prints one line per check with ?verbose', async () => {
    const r = await client('GET', '/readyz?verbose');
    assert.equal(r.status, 200);
    const lines = r.text.trim().split('\n');
    for (const c of ['ping', 'log', 'etcd', 'poststarthook/bootstrap-namespaces', 'shutdown']) {
      assert.ok(lines.includes(`[+]${c} ok`), `${c} in ${r.text}`);
    }
    assert.equal(lines[lines.length - 1], 'readyz check passed');
    const live = await client('GET', '/livez?verbose');
    assert.ok(!live.text.includes('[+]shutdown'), 'shutdown is a readyz check only');
    assert.match(live.text, /livez check passed/);
    const hz = await client('GET', '/healthz?verbose');
    assert.match(hz.text, /healthz check passed/);
  });

  it('excludes checks with ?exclude', async () => {
    const r = await client('GET', '/livez?verbose&exclude=etcd&exclude=log');
    assert.equal(r.status, 200);
    assert.match(r.text, /\[\+\]etcd excluded: ok/);
    assert.match(r.text, /\[\+\]log excluded: ok/);
  });

  it('serves single checks and 404 for unknown ones', async () => {
    const r = await client('GET', '/readyz/etcd');
    assert.equal(r.status, 200);
    assert.equal(r.text, 'ok');
    const ping = await client('GET', '/livez/ping');
    assert.equal(ping.status, 200);
    const unknown = await client('GET', '/livez/nope');
    assert.equal(unknown.status, 404);
  });
});

describe('graceful shutdown', () => {
  it('fails readyz at once on SIGTERM, keeps serving for the shutdown delay, then exits 0', async () => {
    const server = await startServerProcess({ args: ['--shutdown-delay-duration=2s'] });
    try {
      const api = apiOf(server);
      assert.equal((await api.admin('GET', '/readyz')).status, 200);
      const exit = server.stop('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      const ready = await api.admin('GET', '/readyz?verbose');
      assert.equal(ready.status, 500);
      assert.match(ready.text, /\[-\]shutdown failed: reason withheld/);
      const live = await api.admin('GET', '/livez');
      assert.equal(live.status, 200);
      const stillServing = await api.admin('GET', '/api/v1/namespaces/default');
      assert.equal(stillServing.status, 200);
      assert.equal(await exit, 0);
      await assert.rejects(request(server.url, '/livez', { ca: server.admin.ca }));
    } finally {
      await server.dispose();
    }
  });
});
