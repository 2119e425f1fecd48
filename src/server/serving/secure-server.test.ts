import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { issueServingCertificate } from '../tls/certificate-factory.js';
import { createTestPki, type TestPki } from '../tls/testing/test-pki.js';
import { RequestBodyTooLargeError, ResponseStateError } from './errors.js';
import type { HttpExchange } from './exchange.js';
import { startSecureServer } from './secure-server.js';
import { type ClientTls, h1Request, h2Connect, h2Request, type TestResponse } from './testing/clients.js';
import { clientTls, eventually, recordingLogger, withServer } from './testing/server-fixture.js';

let pki: TestPki;
before(async () => {
  pki = await createTestPki();
});
after(() => pki.cleanup());

async function echo(ex: HttpExchange): Promise<void> {
  const body = await ex.readBody(1024);
  const view = {
    protocol: ex.protocol,
    method: ex.method,
    url: ex.url,
    contentType: ex.headers['content-type'],
    multi: ex.headerValues('X-Multi'),
    body: body.toString(),
  };
  ex.respond(200, { 'content-type': 'application/json' }, JSON.stringify(view));
}

/** Reads up to 16 bytes; answers 413 on overflow. */
async function limited(ex: HttpExchange): Promise<void> {
  try {
    const body = await ex.readBody(16);
    ex.respond(200, { 'content-type': 'text/plain' }, `got ${body.length}`);
  } catch (err) {
    if (!(err instanceof RequestBodyTooLargeError)) throw err;
    ex.respond(413, { 'content-type': 'text/plain' }, `limit ${err.limitBytes}`);
  }
}

/** HTTP/1.1 POST with a chunked body (no Content-Length), written in pieces. */
function h1Chunked(url: string, tls: ClientTls, pieces: string[]): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const r = httpsRequest(url, { method: 'POST', agent: false, ca: tls.ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    // The server may answer and close before every piece is sent.
    r.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    for (const p of pieces) r.write(p);
    r.end();
  });
}

describe('startSecureServer', () => {
  it('serves HTTP/1.1 and HTTP/2 on one port through the same exchange view', async () => {
    let calls = 0;
    const counted = (ex: HttpExchange) => {
      calls++;
      return echo(ex);
    };
    await withServer(pki.certs, counted, async (server) => {
      assert.ok(server.port > 0);
      assert.equal(server.url, `https://127.0.0.1:${server.port}`);
      const tls = clientTls(pki.certs);
      const req = {
        method: 'POST',
        path: '/echo?a=1&b=2',
        headers: { 'content-type': 'text/plain', 'x-multi': ['one', 'two'] },
        body: 'hello',
      };
      const r1 = await h1Request(server.url, tls, req);
      const session = await h2Connect(server.url, tls);
      const r2 = await h2Request(session, req);
      session.close();
      assert.equal(calls, 2, 'each request reaches the handler once (no compatibility-API double dispatch)');
      for (const [r, protocol] of [
        [r1, 'http/1.1'],
        [r2, 'h2'],
      ] as const) {
        assert.equal(r.status, 200);
        assert.equal(r.headers['content-length'], String(r.body.length));
        assert.deepEqual(JSON.parse(r.body.toString()), {
          protocol,
          method: 'POST',
          url: '/echo?a=1&b=2',
          contentType: 'text/plain',
          multi: ['one', 'two'],
          body: 'hello',
        });
      }
    });
  });

  it('enforces the body limit by Content-Length and by counting, then keeps serving', async () => {
    await withServer(pki.certs, limited, async (server) => {
      const tls = clientTls(pki.certs);
      const small = await h1Request(server.url, tls, { method: 'POST', path: '/', body: 'x'.repeat(16) });
      assert.equal(small.body.toString(), 'got 16');

      const declared = await h1Request(server.url, tls, { method: 'POST', path: '/', body: 'x'.repeat(100) });
      assert.equal(declared.status, 413);
      assert.equal(declared.body.toString(), 'limit 16');
      assert.equal(declared.headers.connection, 'close', 'the unread body must not be parsed as the next request');

      const counted = await h1Chunked(`${server.url}/`, tls, ['x'.repeat(10), 'y'.repeat(10), 'z'.repeat(10)]);
      assert.equal(counted.status, 413);

      const session = await h2Connect(server.url, tls);
      const h2big = await h2Request(session, { method: 'POST', path: '/', body: Buffer.alloc(200_000) });
      assert.equal(h2big.status, 413);
      const h2small = await h2Request(session, { method: 'POST', path: '/', body: 'abc' });
      assert.equal(h2small.body.toString(), 'got 3');
      session.close();
      await eventually(() => server.inFlight === 0);
    });
  });

  it('answers HEAD with headers only and 204 without Content-Length', async () => {
    const handler = (ex: HttpExchange): void => {
      if (ex.url === '/empty') ex.respond(204, {});
      else ex.respond(200, { 'content-type': 'text/plain' }, 'twelve bytes');
    };
    await withServer(pki.certs, handler, async (server) => {
      const tls = clientTls(pki.certs);
      const session = await h2Connect(server.url, tls);
      for (const send of [
        (r: { method: string; path: string }) => h1Request(server.url, tls, r),
        (r: { method: string; path: string }) => h2Request(session, r),
      ]) {
        const head = await send({ method: 'HEAD', path: '/x' });
        assert.equal(head.status, 200);
        assert.equal(head.headers['content-length'], '12');
        assert.equal(head.body.length, 0);
        const empty = await send({ method: 'GET', path: '/empty' });
        assert.equal(empty.status, 204);
        assert.equal(empty.headers['content-length'], undefined);
      }
      session.close();
    });
  });

  it('turns handler failures into 500 and keeps running', async () => {
    const logger = recordingLogger();
    const stateErrors: unknown[] = [];
    const handler = async (ex: HttpExchange): Promise<void> => {
      if (ex.url === '/sync') throw new Error('sync boom');
      if (ex.url === '/async') {
        await new Promise((r) => setTimeout(r, 5));
        throw new Error('async boom');
      }
      if (ex.url === '/silent') return;
      ex.respond(200, {}, 'ok');
      try {
        ex.respond(200, {}, 'twice');
      } catch (err) {
        stateErrors.push(err);
      }
    };
    await withServer(
      pki.certs,
      handler,
      async (server) => {
        const tls = clientTls(pki.certs);
        const session = await h2Connect(server.url, tls);
        for (const path of ['/sync', '/async', '/silent']) {
          for (const r of [await h1Request(server.url, tls, { path }), await h2Request(session, { path })]) {
            assert.equal(r.status, 500, path);
            const status = JSON.parse(r.body.toString());
            assert.equal(status.kind, 'Status');
            assert.equal(status.reason, 'InternalError');
          }
        }
        assert.equal((await h2Request(session, { path: '/ok' })).body.toString(), 'ok');
        session.close();
        assert.ok(stateErrors[0] instanceof ResponseStateError);
        assert.equal(logger.entries.filter((e) => e.level === 'error').length, 6);
      },
      logger,
    );
  });

  it('serves new connections with TLS material swapped by updateTls', async () => {
    await withServer(pki.certs, echo, async (server) => {
      const serialOfNextConnection = () =>
        new Promise<string>((resolve, reject) => {
          const r = httpsRequest(`${server.url}/`, { agent: false, ca: pki.certs.servingCa }, (res) => {
            resolve((res.socket as TLSSocket).getPeerCertificate().serialNumber);
            res.resume();
          });
          r.on('error', reject);
          r.end();
        });
      const before = await serialOfNextConnection();
      const renewed = await issueServingCertificate({ ca: pki.ca, hostNames: ['127.0.0.1'] });
      server.updateTls({ cert: renewed.cert, key: renewed.key, ca: pki.certs.clientCa });
      const afterSwap = await serialOfNextConnection();
      assert.notEqual(afterSwap, before);
      assert.equal(afterSwap, new X509Certificate(renewed.cert).serialNumber);
    });
  });

  it('closes when the start signal aborts', async () => {
    const controller = new AbortController();
    const server = await startSecureServer({
      host: '127.0.0.1',
      port: 0,
      tls: { cert: pki.certs.cert, key: pki.certs.key },
      handler: echo,
      signal: controller.signal,
    });
    controller.abort();
    assert.equal(server.shuttingDown.aborted, true);
    await server.close();
    await assert.rejects(h1Request(server.url, clientTls(pki.certs), { path: '/' }), { code: 'ECONNREFUSED' });
  });

  it('rejects start on an address in use with ServerStartError', async () => {
    await withServer(pki.certs, echo, async (server) => {
      await assert.rejects(
        startSecureServer({
          host: '127.0.0.1',
          port: server.port,
          tls: { cert: pki.certs.cert, key: pki.certs.key },
          handler: echo,
        }),
        { name: 'ServerStartError' },
      );
    });
  });
});
