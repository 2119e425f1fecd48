import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { httpsFetcher } from '../../src/authn/jwt/https-fetcher.js';
import { createCertificateAuthority, issueServingCertificate } from '../../src/server/tls/certificate-factory.js';

describe('httpsFetcher', () => {
  let server: Server;
  let ca: string;
  let base: string;
  before(async () => {
    const authority = await createCertificateAuthority({ commonName: 'fetcher-test-ca' });
    ca = authority.cert;
    const serving = await issueServingCertificate({ ca: authority, hostNames: ['127.0.0.1'] });
    server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      if (req.url === '/slow') return; // never answers
      if (req.url === '/big') {
        res.end('x'.repeat(2048));
        return;
      }
      res.writeHead(req.url === '/doc' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(req.url === '/doc' ? '{"a":1}' : 'missing');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const signal = new AbortController().signal;

  it('fetches with the given CA and reports the status line', async () => {
    const f = httpsFetcher({ ca });
    assert.deepEqual(await f(`${base}/doc`, signal), { status: 200, statusLine: '200 OK', body: '{"a":1}' });
    assert.deepEqual(await f(`${base}/nope`, signal), { status: 404, statusLine: '404 Not Found', body: 'missing' });
  });

  it('refuses a server the CA does not vouch for, plain HTTP, oversized bodies and slow servers', async () => {
    await assert.rejects(httpsFetcher()(`${base}/doc`, signal), /^Error: Get "https:\/\/127\.0\.0\.1:\d+\/doc": /);
    await assert.rejects(httpsFetcher({ ca })('http://127.0.0.1:1/doc', signal), {
      message: 'Get "http://127.0.0.1:1/doc": unsupported protocol scheme "http"',
    });
    await assert.rejects(
      httpsFetcher({ ca, maxBytes: 1024 })(`${base}/big`, signal),
      /response larger than 1024 bytes/,
    );
    await assert.rejects(httpsFetcher({ ca, timeoutMs: 100 })(`${base}/slow`, signal), /context deadline exceeded/);
  });
});
