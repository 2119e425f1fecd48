import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type WebhookAttempt, webhookPoster } from './webhook-post.js';

/** What the loopback webhook does per call: answer, or wait `delayMs` first. */
type Reply = { status: number; body: string; delayMs?: number; headers?: Record<string, string> };

const received: { path: string; auth: string | undefined; body: string }[] = [];
let replies: Reply[] = [];
let server: Server;
let url: URL;

before(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', auth: req.headers.authorization, body: Buffer.concat(chunks).toString() });
      const reply = replies.length > 1 ? (replies.shift() as Reply) : (replies[0] as Reply);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/authorize?x=1`);
});
after(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  received.length = 0;
});

const FAST = { durationMs: 1, factor: 1.5, jitter: 0.2, steps: 3 };
const never = () => new AbortController().signal;

describe('webhookPoster', () => {
  it('posts the body with the token, the timeout parameter, and reports each attempt', async () => {
    replies = [
      { status: 500, body: 'broken' },
      { status: 200, body: '{"ok":true}' },
    ];
    const attempts: WebhookAttempt[] = [];
    const poster = webhookPoster(
      { server: url, insecureSkipTlsVerify: false, token: 'secret-token' },
      { resource: 'things.example', retryBackoff: FAST, attemptTimeoutMs: 1500 },
    );
    const r = await poster.post('{"a":1}', never(), (a) => attempts.push(a));
    poster.close();
    assert.deepEqual(r, { ok: true, body: { ok: true }, statusCode: 200 });
    assert.equal(received.length, 2);
    assert.equal(received[0]?.path, '/authorize?x=1&timeout=1.5s');
    assert.equal(received[0]?.auth, 'Bearer secret-token');
    assert.equal(received[0]?.body, '{"a":1}');
    assert.deepEqual(
      attempts.map((a) => [a.outcome, a.statusCode]),
      [
        ['error', 500],
        ['success', 200],
      ],
    );
  });

  const failures: { name: string; replies: Reply[]; message: RegExp; outcome: string; calls: number }[] = [
    {
      name: 'a 500 answer, retried until the attempts run out',
      replies: [{ status: 500, body: 'boom' }],
      message: /^an error on the server \("boom"\) has prevented the request from succeeding \(post things\.example\)$/,
      outcome: 'error',
      calls: 3,
    },
    {
      name: 'a Status answer, not retried',
      replies: [{ status: 403, body: '{"kind":"Status","message":"go away"}' }],
      message: /^go away$/,
      outcome: 'error',
      calls: 1,
    },
    {
      name: 'a 2xx answer that is not JSON',
      replies: [{ status: 200, body: 'not json' }],
      message: /^invalid response body: not JSON \(post things\.example\)$/,
      outcome: 'error',
      calls: 1,
    },
    {
      name: 'a 504 answer, a timeout',
      replies: [{ status: 504, body: '' }],
      message: /the server was unable to return a response in the time allotted/,
      outcome: 'timeout',
      calls: 3,
    },
    {
      name: 'an attempt that takes too long, not retried',
      replies: [{ status: 200, body: '{}', delayMs: 2_000 }],
      message: /^Post "http:\/\/127\.0\.0\.1:\d+\/authorize\?x=1&timeout=200ms": context deadline exceeded/,
      outcome: 'timeout',
      calls: 1,
    },
  ];
  for (const c of failures) {
    it(`ends with ${c.name}`, async () => {
      replies = c.replies;
      const poster = webhookPoster(
        { server: url, insecureSkipTlsVerify: false },
        { resource: 'things.example', retryBackoff: FAST, attemptTimeoutMs: 200 },
      );
      const r = await poster.post('{}', never());
      poster.close();
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.match(r.message, c.message);
      assert.equal(r.outcome, c.outcome);
      assert.equal(received.length, c.calls);
    });
  }

  it('reports a caller that went away as canceled', async () => {
    replies = [{ status: 200, body: '{}', delayMs: 2_000 }];
    const poster = webhookPoster({ server: url, insecureSkipTlsVerify: false }, { resource: 'things.example' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const r = await poster.post('{}', controller.signal);
    poster.close();
    assert.equal(r.ok, false);
    assert.equal(r.ok ? '' : r.outcome, 'canceled');
    assert.match(r.ok ? '' : r.message, /: context canceled$/);
  });
});
