import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../src/apis/meta/status.js';
import { RestClient } from '../../src/client/rest/rest-client.js';
import { createCertificateAuthority, issueServingCertificate } from '../../src/server/tls/certificate-factory.js';

/** A loopback HTTPS server whose handler the tests set; it records every request. */
describe('RestClient against a loopback server', () => {
  let server: Server;
  let url: string;
  let ca: string;
  const seen: { method: string; url: string; auth?: string; agent?: string; type?: string; body: string }[] = [];
  let handle: (req: IncomingMessage, res: ServerResponse, n: number) => void = () => {};

  before(async () => {
    const authority = await createCertificateAuthority();
    const serving = await issueServingCertificate({ ca: authority, hostNames: ['127.0.0.1'] });
    ca = authority.cert;
    server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          auth: req.headers.authorization,
          agent: req.headers['user-agent'],
          type: req.headers['content-type'],
          body: Buffer.concat(chunks).toString('utf8'),
        });
        handle(req, res, seen.length);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const json = (res: ServerResponse, code: number, body: object, headers: Record<string, string> = {}) => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  it('sends the query, content type, user agent and the current bearer token', async () => {
    seen.length = 0;
    let token = 'first-token';
    const rest = new RestClient({ server: url, ca }, { userAgent: 'tester/1.0', bearerToken: () => token });
    handle = (_req, res) => json(res, 200, { ok: true });
    try {
      const signal = new AbortController().signal;
      await rest.call(
        {
          method: 'PATCH',
          path: '/api/v1/x',
          query: { a: 1, b: undefined, force: true },
          body: '{"p":1}',
          contentType: 'application/merge-patch+json',
        },
        signal,
      );
      token = 'second-token';
      await rest.request('GET', '/api/v1/y', undefined, signal);
      assert.deepEqual(
        seen.map((s) => [s.method, s.url, s.auth, s.agent, s.type, s.body]),
        [
          [
            'PATCH',
            '/api/v1/x?a=1&force=true',
            'Bearer first-token',
            'tester/1.0',
            'application/merge-patch+json',
            '{"p":1}',
          ],
          ['GET', '/api/v1/y', 'Bearer second-token', 'tester/1.0', undefined, ''],
        ],
      );
    } finally {
      rest.close();
    }
  });

  it('retries a 429 after its Retry-After, then returns the answer; other failures are StatusErrors', async () => {
    seen.length = 0;
    const rest = new RestClient({ server: url, ca });
    handle = (_req, res, n) =>
      n < 3
        ? json(
            res,
            429,
            { kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'slow down' },
            { 'retry-after': '0' },
          )
        : json(res, 200, { kind: 'Thing' });
    try {
      const got = await rest.call<{ kind: string }>(
        { method: 'POST', path: '/t', body: { a: 1 } },
        new AbortController().signal,
      );
      assert.equal(got.kind, 'Thing');
      assert.equal(seen.length, 3);
      assert.ok(
        seen.every((s) => s.body === '{"a":1}'),
        'the body is sent again',
      );
      handle = (_req, res) =>
        json(res, 404, { kind: 'Status', code: 404, reason: 'NotFound', message: 'things "x" not found' });
      await assert.rejects(rest.call({ method: 'GET', path: '/t/x' }, new AbortController().signal), (e: unknown) => {
        assert.ok(e instanceof StatusError);
        assert.deepEqual([e.code, e.reason, e.message], [404, 'NotFound', 'things "x" not found']);
        return true;
      });
      handle = (_req, res) => {
        res.writeHead(503);
        res.end('down for maintenance');
      };
      await assert.rejects(rest.call({ method: 'GET', path: '/t' }, new AbortController().signal), (e: unknown) => {
        assert.ok(e instanceof StatusError);
        assert.deepEqual([e.code, e.message], [503, 'down for maintenance']);
        return true;
      });
    } finally {
      rest.close();
    }
  });

  it('ends a request whose signal aborts', async () => {
    const rest = new RestClient({ server: url, ca });
    handle = () => {}; // never answers
    const ac = new AbortController();
    try {
      const pending = rest.call({ method: 'GET', path: '/hang' }, ac.signal);
      setTimeout(() => ac.abort(), 50);
      await assert.rejects(pending, /GET \/hang: aborted/);
    } finally {
      rest.close();
    }
  });
});
