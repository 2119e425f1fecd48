import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { openWatch } from '../support/watch-client.js';

describe('watch', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof apiOf>['admin'];
  const ns = 'watched';
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  const cm = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels },
    data,
  });
  const w = (path: string) => openWatch(server.url, path, server.admin);
  before(async () => {
    server = await startServerProcess();
    api = apiOf(server).admin;
    await api('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
  });
  after(async () => server?.dispose());

  it('streams ADDED, MODIFIED and DELETED after a resourceVersion, with watch=true and watch=1', async () => {
    const rv = (await api('GET', base)).json().metadata.resourceVersion;
    for (const flag of ['true', '1']) {
      const watch = await w(`${base}?watch=${flag}&resourceVersion=${rv}`);
      assert.equal(watch.status, 200);
      assert.match(String(watch.headers['content-type']), /application\/json/);
      if (flag === 'true') {
        await api('POST', base, { body: cm('a') });
        await api('PATCH', `${base}/a`, {
          body: { data: { k: 'v' } },
          headers: { 'content-type': 'application/merge-patch+json' },
        });
        await api('DELETE', `${base}/a`);
      }
      const events = await watch.waitFor(3);
      assert.deepEqual(
        events.map((e) => e.type),
        ['ADDED', 'MODIFIED', 'DELETED'],
      );
      assert.equal(events[1].object.data.k, 'v');
      assert.equal(events[0].object.kind, 'ConfigMap');
      assert.ok(BigInt(events[2].object.metadata.resourceVersion) > BigInt(events[1].object.metadata.resourceVersion));
      watch.close();
    }
  });

  it('sends the current state first when no resourceVersion is given', async () => {
    await api('POST', base, { body: cm('existing') });
    const watch = await w(`${base}?watch=true`);
    const [first] = await watch.waitFor(1);
    assert.equal(first.type, 'ADDED');
    assert.equal(first.object.metadata.name, 'existing');
    watch.close();
  });

  it('serves the legacy /watch/ paths', async () => {
    const rv = (await api('GET', base)).json().metadata.resourceVersion;
    const watch = await w(`/api/v1/watch/namespaces/${ns}/configmaps?resourceVersion=${rv}`);
    await api('POST', base, { body: cm('legacy') });
    const [ev] = await watch.waitFor(1);
    assert.equal(ev.object.metadata.name, 'legacy');
    watch.close();
    const leases = await w(`/apis/coordination.orch.io/v1/watch/namespaces/${ns}/leases?resourceVersion=${rv}`);
    assert.equal(leases.status, 200);
    leases.close();
  });

  it('watches one object through fieldSelector=metadata.name', async () => {
    const rv = (await api('GET', base)).json().metadata.resourceVersion;
    const watch = await w(`${base}?watch=1&fieldSelector=metadata.name%3Done&resourceVersion=${rv}`);
    await api('POST', base, { body: cm('other') });
    await api('POST', base, { body: cm('one') });
    const [ev] = await watch.waitFor(1);
    assert.equal(ev.object.metadata.name, 'one');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(watch.events.length, 1);
    watch.close();
  });

  it('lists and watches one name in every namespace through fieldSelector=metadata.name', async () => {
    const all = '/api/v1/configmaps';
    await api('POST', base, { body: cm('everywhere') });
    await api('POST', '/api/v1/namespaces/default/configmaps', { body: cm('everywhere') });
    await api('POST', '/api/v1/namespaces/default/configmaps', { body: cm('not-selected') });
    const list = await api('GET', `${all}?fieldSelector=metadata.name%3Deverywhere`);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.json().items.map((i: { metadata: { namespace: string } }) => i.metadata.namespace),
      ['default', ns],
    );
    const watch = await w(`${all}?watch=true&fieldSelector=metadata.name%3Deverywhere`);
    assert.equal(watch.status, 200);
    const events = await watch.waitFor(2);
    assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name}`).sort(), [
      'ADDED default/everywhere',
      `ADDED ${ns}/everywhere`,
    ]);
    watch.close();
    // A name in the path still needs the namespace.
    assert.equal((await api('GET', `${all}/everywhere`)).status, 404);
    assert.equal((await api('GET', '/api/v1/watch/configmaps/everywhere')).status, 404);
  });

  it('turns selector transitions into ADDED and DELETED', async () => {
    await api('POST', base, { body: cm('flip', { color: 'red' }) });
    const rv = (await api('GET', base)).json().metadata.resourceVersion;
    const watch = await w(`${base}?watch=1&labelSelector=color%3Dblue&resourceVersion=${rv}`);
    const patch = (color: string) =>
      api('PATCH', `${base}/flip`, {
        body: { metadata: { labels: { color } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
    await patch('blue');
    await patch('green');
    const events = await watch.waitFor(2);
    assert.deepEqual(
      events.map((e) => e.type),
      ['ADDED', 'DELETED'],
    );
    assert.equal(events[1].object.metadata.labels.color, 'green');
    watch.close();
  });

  it('ends the stream after timeoutSeconds', async () => {
    const watch = await w(`${base}?watch=1&timeoutSeconds=1&resourceVersion=1`);
    const t0 = Date.now();
    await watch.ended;
    assert.ok(Date.now() - t0 < 5000);
  });

  it('sends bookmarks carrying only the resourceVersion when allowed', async () => {
    const rv = (await api('GET', base)).json().metadata.resourceVersion;
    const watch = await w(`${base}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`);
    await api('POST', base, { body: cm('bm') });
    // A change this watch does not see moves the server's resourceVersion past the watcher's.
    await api('POST', '/api/v1/namespaces/default/configmaps', { body: cm('elsewhere') });
    const deadline = Date.now() + 20000;
    while (!watch.events.some((e) => e.type === 'BOOKMARK') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    const bm = watch.events.find((e) => e.type === 'BOOKMARK');
    assert.ok(bm, 'a bookmark arrived');
    assert.equal(bm.object.kind, 'ConfigMap');
    assert.deepEqual(Object.keys(bm.object.metadata), ['resourceVersion']);
    watch.close();
  });

  it('streams initial events then a bookmark marked as their end with sendInitialEvents', async () => {
    const watch = await w(
      `${base}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    const count = (await api('GET', base)).json().items.length;
    const events = await watch.waitFor(count + 1);
    assert.ok(events.slice(0, count).every((e) => e.type === 'ADDED'));
    const end = events[count];
    assert.equal(end.type, 'BOOKMARK');
    assert.equal(end.object.metadata.annotations['orch.io/initial-events-end'], 'true');
    watch.close();
    const invalid = await api('GET', `${base}?watch=1&sendInitialEvents=true`);
    assert.equal(invalid.status, 422);
    assert.equal(
      invalid.json().message,
      'ListOptions.meta.orch.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
    const match = await api('GET', `${base}?watch=1&resourceVersionMatch=Exact`);
    assert.equal(match.status, 422);
    assert.deepEqual(
      match.json().details.causes.map((c: { message: string }) => c.message),
      [
        'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        'Unsupported value: "Exact": supported values: "NotOlderThan"',
      ],
    );
  });
});

describe('watch from a compacted resourceVersion', () => {
  it('sends an ERROR event with a 410 Expired Status inside a 200 stream', async () => {
    const server = await startServerProcess({ args: ['--etcd-compaction-interval=1s'] });
    try {
      const api = apiOf(server).admin;
      const oldRv = (await api('GET', '/api/v1/namespaces/default/configmaps')).json().metadata.resourceVersion;
      for (let i = 0; i < 6; i++) {
        await api('POST', '/api/v1/namespaces/default/configmaps', {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'c-' } },
        });
        await new Promise((r) => setTimeout(r, 700));
      }
      const watch = await openWatch(
        server.url,
        `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${oldRv}`,
        server.admin,
      );
      assert.equal(watch.status, 200);
      const [ev] = await watch.waitFor(1);
      assert.equal(ev.type, 'ERROR');
      assert.equal(ev.object.kind, 'Status');
      assert.equal(ev.object.code, 410);
      assert.equal(ev.object.reason, 'Expired');
      assert.match(ev.object.message, /too old resource version/);
      watch.close();
    } finally {
      await server.dispose();
    }
  });
});
