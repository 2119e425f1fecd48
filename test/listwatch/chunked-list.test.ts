import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { apiOf } from '../support/api.js';
import { h2request } from '../support/http-client.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/**
 * A list from the watch cache larger than a megabyte is sent in chunks made while it goes out,
 * with its Content-Length: the same bytes a one-buffer answer has, over HTTP/1.1 and HTTP/2,
 * compressed or not, from objects written in this run and from objects read back after a restart.
 */
describe('large lists from the watch cache, sent in chunks', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-chunked-list-'));
  const ns = 'chunked';
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  const count = 1_100;
  let server: ServerProcess;

  before(async () => {
    server = await startServerProcess({ dataDir });
    const api = apiOf(server).admin;
    await api('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    const names = Array.from({ length: count }, (_, i) => `cm-${String(i).padStart(5, '0')}`);
    for (let i = 0; i < names.length; i += 25) {
      await Promise.all(
        names.slice(i, i + 25).map(async (name, j) => {
          const r = await api('POST', base, {
            body: {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name },
              data: { v: `${'é'.repeat(400)}${i + j}` },
            },
          });
          assert.equal(r.status, 201, r.text);
        }),
      );
    }
  });
  after(async () => {
    await server?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The bytes of a list from `"items"` on: background writes to other resources (leases) may
   * move the list's resourceVersion between two requests, never its items.
   */
  const itemsPart = (body: Buffer): Buffer => body.subarray(body.indexOf('"items":['));

  /** The cached list three ways; all three must be the same bytes. */
  async function listThreeWays(): Promise<Buffer> {
    const api = apiOf(server).admin;
    const plain = await api('GET', `${base}?resourceVersion=0`);
    assert.equal(plain.status, 200, plain.text);
    assert.ok(plain.body.length > 1 << 20, `list of ${plain.body.length} bytes`);
    assert.equal(plain.headers['content-length'], String(plain.body.length));
    assert.equal(plain.headers['transfer-encoding'], undefined);
    assert.equal(plain.headers['content-type'], 'application/json');
    assert.ok(plain.body.subarray(-3).equals(Buffer.from(']}\n')));
    const list = plain.json();
    assert.equal(list.items.length, count);
    assert.equal(list.items[0].metadata.name, 'cm-00000');
    assert.equal(list.items[count - 1].data.v, `${'é'.repeat(400)}${count - 1}`);

    const h2 = await h2request(server.url, `${base}?resourceVersion=0`, {
      ca: server.admin.ca,
      as: server.admin,
    });
    assert.equal(h2.alpn, 'h2');
    assert.equal(h2.headers['content-length'], String(h2.body.length));
    assert.ok(itemsPart(h2.body).equals(itemsPart(plain.body)), 'HTTP/2 body equals the HTTP/1.1 body');

    const gz = await api('GET', `${base}?resourceVersion=0`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(itemsPart(gunzipSync(gz.body)).equals(itemsPart(plain.body)), 'the compressed list is the same list');
    return plain.body;
  }

  it('sends the list with its length, the same bytes on both protocols and compressed', async () => {
    const before = JSON.parse((await listThreeWays()).toString()).items;
    // The same items as the store reads them, page by page.
    const api = apiOf(server).admin;
    const stored: unknown[] = [];
    let cont = '';
    do {
      const page = (await api('GET', `${base}?limit=400${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`)).json();
      stored.push(...page.items);
      cont = page.metadata.continue ?? '';
    } while (cont);
    assert.deepEqual(before, stored);
  });

  it('sends the same items after a restart, when the cache reads values back from the store', async () => {
    const items = JSON.parse((await listThreeWays()).toString()).items;
    await server.stop('SIGTERM');
    server = await startServerProcess({ dataDir });
    const again = JSON.parse((await listThreeWays()).toString()).items;
    assert.deepEqual(again, items);
  });
});
