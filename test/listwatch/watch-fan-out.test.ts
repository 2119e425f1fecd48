import assert from 'node:assert/strict';
import { type ClientHttp2Session, connect } from 'node:http2';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import type { ClientWatchEvent } from '../../src/client/api/api-client.js';
import { watchDecoderFor } from '../../src/client/wire/watch-decoders.js';
import { WireCodecs } from '../../src/client/wire/wire-codecs.js';
import { apiOf } from '../support/api.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

const PB = 'application/vnd.kubernetes.protobuf';
const TABLE = `application/json;as=Table;g=${ORCH_DOMAIN.metaGroup};v=v1`;

/** One watch over a shared HTTP/2 connection, decoded as the client library decodes it. */
interface H2Watch {
  readonly contentType: string;
  readonly events: ClientWatchEvent[];
  waitFor(n: number): Promise<ClientWatchEvent[]>;
  close(): void;
}

function openH2Watch(session: ClientHttp2Session, path: string, accept: string): Promise<H2Watch> {
  const codecs = new WireCodecs(ORCH_DOMAIN);
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path, accept });
    const events: ClientWatchEvent[] = [];
    stream.on('error', reject);
    stream.on('response', (headers) => {
      const contentType = String(headers['content-type']);
      if (headers[':status'] !== 200) return reject(new Error(`watch ${path}: ${headers[':status']}`));
      const decoder = watchDecoderFor(contentType, codecs);
      stream.on('data', (chunk: Buffer) => events.push(...decoder.push(chunk)));
      resolve({
        contentType,
        events,
        async waitFor(n) {
          const deadline = Date.now() + 10_000;
          while (events.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
          assert.ok(events.length >= n, `${path} (${accept}): ${events.length} of ${n} events`);
          return events;
        },
        close: () => stream.close(),
      });
    });
  });
}

const summary = (events: readonly ClientWatchEvent[]) =>
  events.map((e) => `${e.type} ${e.object.kind} ${e.object.metadata?.name} ${JSON.stringify(e.object.data ?? {})}`);

describe('watch fan-out of one change to watches in several media types over one connection', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof apiOf>['admin'];
  let session: ClientHttp2Session;
  const ns = 'fan-out';
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  const cm = (name: string, labels: Record<string, string>, data: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels },
    data,
  });

  before(async () => {
    server = await startServerProcess({ args: ['--feature-gates=CBORServingAndStorage=true'] });
    api = apiOf(server).admin;
    await api('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    session = connect(server.url, { ca: server.admin.ca, cert: server.admin.cert, key: server.admin.key });
  });
  after(async () => {
    session?.destroy();
    await server?.dispose();
  });

  it('gives each watch the same changes in its own encoding, selected by its own selector', async () => {
    const rv = (await api('GET', base)).json().metadata.resourceVersion;
    const all = `${base}?watch=1&resourceVersion=${rv}`;
    const selected = `${all}&labelSelector=tier%3Dfront`;
    const watches = await Promise.all([
      openH2Watch(session, all, 'application/json'),
      openH2Watch(session, all, 'application/json'),
      openH2Watch(session, all, PB),
      openH2Watch(session, all, PB),
      openH2Watch(session, all, 'application/cbor'),
      openH2Watch(session, selected, 'application/json'),
      openH2Watch(session, selected, PB),
    ]);
    await api('POST', base, { body: cm('a', { tier: 'front' }, { k: 'v1' }) });
    await api('POST', base, { body: cm('b', { tier: 'back' }, { k: 'b' }) });
    await api('PATCH', `${base}/a`, {
      body: { data: { k: 'v2' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    // An update that moves `b` into the selection, then `a` out of it.
    await api('PATCH', `${base}/b`, {
      body: { metadata: { labels: { tier: 'front' } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    await api('PATCH', `${base}/a`, {
      body: { metadata: { labels: { tier: 'back' } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    await api('DELETE', `${base}/a`);
    const everything = [
      'ADDED ConfigMap a {"k":"v1"}',
      'ADDED ConfigMap b {"k":"b"}',
      'MODIFIED ConfigMap a {"k":"v2"}',
      'MODIFIED ConfigMap b {"k":"b"}',
      'MODIFIED ConfigMap a {"k":"v2"}',
      'DELETED ConfigMap a {"k":"v2"}',
    ];
    const front = [
      'ADDED ConfigMap a {"k":"v1"}',
      'MODIFIED ConfigMap a {"k":"v2"}',
      'ADDED ConfigMap b {"k":"b"}',
      'DELETED ConfigMap a {"k":"v2"}',
    ];
    const want = [everything, everything, everything, everything, everything, front, front];
    const types = ['application/json', 'application/json', PB, PB, 'application/cbor-seq', 'application/json', PB];
    for (const [i, w] of watches.entries()) {
      assert.equal(w.contentType.split(';')[0], types[i]);
      assert.deepEqual(summary(await w.waitFor(want[i].length)), want[i], `watch ${i} (${types[i]})`);
    }
    // The resourceVersions agree across encodings.
    const rvs = (w: H2Watch) => w.events.map((e) => e.object.metadata?.resourceVersion);
    for (const w of watches.slice(1, 5)) assert.deepEqual(rvs(w), rvs(watches[0]));
    for (const w of watches) w.close();
  });

  it('replays a long history in order to watches that start behind, in every encoding', async () => {
    const rv = (await api('GET', base)).json().metadata.resourceVersion;
    const names = Array.from({ length: 60 }, (_, i) => `h-${String(i).padStart(2, '0')}`);
    for (const name of names) await api('POST', base, { body: cm(name, {}, { pad: 'x'.repeat(300) }) });
    const path = `${base}?watch=1&resourceVersion=${rv}`;
    // Started after the changes: each catches up from the cache's history in batches.
    const watches = await Promise.all(
      ['application/json', PB, 'application/cbor', TABLE].map((accept) => openH2Watch(session, path, accept)),
    );
    for (const w of watches.slice(0, 3)) {
      const events = await w.waitFor(names.length);
      assert.deepEqual(
        events.map((e) => `${e.type} ${e.object.metadata?.name}`),
        names.map((n) => `ADDED ${n}`),
      );
    }
    // A Table watch sends the column definitions once, then rows only.
    const tables = await watches[3].waitFor(names.length);
    assert.equal(tables[0].object.kind, 'Table');
    assert.ok((tables[0].object.columnDefinitions as unknown[]).length > 0);
    assert.equal(tables[1].object.columnDefinitions ?? null, null);
    assert.deepEqual(
      tables.map((e) => (e.object.rows as { cells: unknown[] }[])[0].cells[0]),
      names,
    );
    for (const w of watches) w.close();
  });
});
