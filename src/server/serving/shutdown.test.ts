import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { createTestPki, type TestPki } from '../tls/testing/test-pki.js';
import type { HttpExchange } from './exchange.js';
import { startSecureServer } from './secure-server.js';
import { h1Request, h2Connect, h2Request, latch } from './testing/clients.js';
import { clientTls } from './testing/server-fixture.js';

let pki: TestPki;
before(async () => {
  pki = await createTestPki();
});
after(() => pki.cleanup());

function start(handler: (ex: HttpExchange) => Promise<void> | void) {
  return startSecureServer({
    host: '127.0.0.1',
    port: 0,
    tls: { cert: pki.certs.cert, key: pki.certs.key, ca: pki.certs.clientCa },
    handler,
  });
}

describe('SecureServer.close', () => {
  it('lets in-flight HTTP/1.1 and HTTP/2 requests finish, then refuses connections', { timeout: 10_000 }, async () => {
    let started = 0;
    const bothStarted = latch();
    const server = await start(async (ex) => {
      if (++started === 2) bothStarted.settle();
      await new Promise((r) => setTimeout(r, 150));
      ex.respond(200, { 'content-type': 'text/plain' }, `done ${ex.protocol}`);
    });
    const tls = clientTls(pki.certs);
    const session = await h2Connect(server.url, tls);
    const h1 = h1Request(server.url, tls, { path: '/slow' });
    const h2 = h2Request(session, { path: '/slow' });
    await bothStarted.promise;
    const closing = server.close({ drainTimeoutMs: 5000 });
    assert.equal(server.shuttingDown.aborted, true);
    const [r1, r2] = await Promise.all([h1, h2]);
    assert.equal(r1.body.toString(), 'done http/1.1');
    assert.equal(r1.headers.connection, 'close');
    assert.equal(r2.body.toString(), 'done h2');
    const t0 = Date.now();
    await closing;
    assert.ok(Date.now() - t0 < 2000, 'connections close once drained, not at the deadline');
    assert.equal(server.inFlight, 0);
    await assert.rejects(h1Request(server.url, tls, { path: '/' }), { code: 'ECONNREFUSED' });
    assert.equal(server.close(), server.close(), 'close is idempotent');
  });

  it('closes idle keep-alive connections and HTTP/2 sessions without waiting for the deadline', async () => {
    const server = await start((ex) => ex.respond(200, {}, 'ok'));
    const tls = clientTls(pki.certs);
    const agent = new Agent({ keepAlive: true, ca: tls.ca });
    const session = await h2Connect(server.url, tls);
    await h1Request(server.url, tls, { path: '/' }, agent);
    await h2Request(session, { path: '/' });
    const goaway = once(session, 'goaway');
    const t0 = Date.now();
    await server.close({ drainTimeoutMs: 10_000 });
    assert.ok(Date.now() - t0 < 2000, `close took ${Date.now() - t0} ms`);
    await goaway;
    agent.destroy();
  });

  it('destroys connections whose requests outlive the drain timeout', { timeout: 10_000 }, async () => {
    const aborted = latch<boolean>();
    const started = latch();
    const server = await start(async (ex) => {
      const out = ex.stream(200, { 'content-type': 'application/json' });
      out.write('{"type":"ADDED"}\n');
      started.settle();
      // A watch that ignores shuttingDown: only the deadline ends it.
      await once(ex.signal, 'abort');
      aborted.settle(ex.closed);
    });
    const tls = clientTls(pki.certs);
    const session = await h2Connect(server.url, tls);
    session.on('error', () => {});
    const stream = session.request({ ':path': '/watch' });
    stream.on('error', () => {});
    stream.resume();
    await started.promise;
    const t0 = Date.now();
    await server.close({ drainTimeoutMs: 100 });
    const elapsed = Date.now() - t0;
    assert.ok(elapsed >= 100 && elapsed < 2000, `close took ${elapsed} ms`);
    assert.equal(await aborted.promise, true);
  });
});
