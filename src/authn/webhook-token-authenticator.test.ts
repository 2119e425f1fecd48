import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../apis/api-domain.js';
import type { TokenRequestContext } from './token-authenticator.js';
import { type TokenReviewVersion, webhookTokenAuthenticator } from './webhook-token-authenticator.js';

/** What the loopback webhook answers: status code, body and headers per call (the last one repeats). */
type Reply = { status: number; body: unknown; headers?: Record<string, string> };

const received: { body: Record<string, unknown>; headers: IncomingMessage['headers']; path: string }[] = [];
let replies: Reply[] = [];
let server: Server;
let url: URL;

before(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: JSON.parse(Buffer.concat(chunks).toString()), headers: req.headers, path: req.url ?? '' });
      const reply = replies.length > 1 ? (replies.shift() as Reply) : (replies[0] as Reply);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/authenticate`);
});
after(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  received.length = 0;
});

const FAST = { durationMs: 1, factor: 1.5, jitter: 0.2, steps: 5 };
const noAudiences: TokenRequestContext = { audiences: [], signal: new AbortController().signal };

function review(version: TokenReviewVersion, status: Record<string, unknown>, domain = ORCH_DOMAIN) {
  return { apiVersion: `${domain.group('authentication')}/${version}`, kind: 'TokenReview', status };
}

function authenticator(
  version: TokenReviewVersion = 'v1',
  over: { implicit?: string[]; errors?: string[]; token?: string } = {},
) {
  return webhookTokenAuthenticator({
    config: { server: url, insecureSkipTlsVerify: false, token: over.token },
    version,
    domain: ORCH_DOMAIN,
    implicitAudiences: over.implicit ?? [],
    retryBackoff: FAST,
    logger: { info() {}, warn() {}, error: (_m, f) => over.errors?.push(String(f?.error)) },
  });
}

describe('webhookTokenAuthenticator', () => {
  for (const version of ['v1', 'v1beta1'] as const) {
    it(`sends and accepts ${version} TokenReviews`, async () => {
      replies = [
        {
          status: 200,
          body: review(version, {
            authenticated: true,
            user: { username: 'alice', uid: '42', groups: ['dev'], extra: { scopes: ['a', 'b'] } },
          }),
        },
      ];
      const r = await authenticator(version).authenticateToken('the-token', noAudiences);
      assert.deepEqual(r, {
        kind: 'user',
        user: { name: 'alice', uid: '42', groups: ['dev'], extra: { scopes: ['a', 'b'] } },
      });
      assert.equal(received.length, 1);
      assert.equal(received[0]?.path, '/authenticate');
      assert.equal(received[0]?.headers['content-type'], 'application/json');
      assert.deepEqual(received[0]?.body.apiVersion, `authentication.orch.io/${version}`);
      assert.deepEqual(received[0]?.body.kind, 'TokenReview');
      assert.deepEqual(received[0]?.body.spec, { token: 'the-token' });
    });
  }

  it('uses the group of its API domain and sends its own credentials', async () => {
    const kube = apiDomain('k8s.io');
    replies = [{ status: 200, body: review('v1', { authenticated: true, user: { username: 'u' } }, kube) }];
    const authn = webhookTokenAuthenticator({
      config: { server: url, insecureSkipTlsVerify: false, token: 'apiserver-token' },
      version: 'v1',
      domain: kube,
      implicitAudiences: [],
    });
    const r = await authn.authenticateToken('t', noAudiences);
    assert.equal(r.kind, 'user');
    assert.equal(received[0]?.body.apiVersion, `${kube.group('authentication')}/v1`);
    assert.equal(received[0]?.headers.authorization, 'Bearer apiserver-token');
  });

  const outcomes: { name: string; reply: Reply; want: unknown }[] = [
    {
      name: 'not authenticated with an error',
      reply: { status: 200, body: review('v1', { authenticated: false, error: 'token revoked' }) },
      want: { kind: 'error', message: 'token revoked' },
    },
    {
      name: 'not authenticated without an error',
      reply: { status: 200, body: review('v1', { authenticated: false }) },
      want: { kind: 'no-opinion' },
    },
    {
      name: 'another apiVersion',
      reply: { status: 200, body: review('v1beta1', { authenticated: true, user: { username: 'x' } }) },
      want: {
        kind: 'error',
        message:
          'the webhook answered authentication.orch.io/v1beta1, Kind=TokenReview; expected authentication.orch.io/v1, Kind=TokenReview',
      },
    },
    {
      name: 'no JSON',
      reply: { status: 200, body: 'hello' },
      want: { kind: 'error', message: 'invalid response body: not JSON (post tokenreviews.authentication.orch.io)' },
    },
    {
      name: 'a 401',
      reply: { status: 401, body: 'no' },
      want: {
        kind: 'error',
        message:
          'the server has asked for the client to provide credentials (post tokenreviews.authentication.orch.io)',
      },
    },
    {
      name: 'a Status answer',
      reply: { status: 403, body: { kind: 'Status', apiVersion: 'v1', message: 'forbidden: no' } },
      want: { kind: 'error', message: 'forbidden: no' },
    },
  ];
  for (const c of outcomes) {
    it(`maps ${c.name}`, async () => {
      replies = [c.reply];
      assert.deepEqual(await authenticator().authenticateToken('tok', noAudiences), c.want);
      assert.equal(received.length, 1, 'not retried');
    });
  }

  const audienceCases: {
    name: string;
    requested: string[];
    implicit: string[];
    answered?: string[];
    want: string[] | undefined;
  }[] = [
    { name: 'answer’s audiences intersect', requested: ['api', 'x'], implicit: [], answered: ['api'], want: ['api'] },
    {
      name: 'answer’s audiences do not intersect',
      requested: ['api'],
      implicit: ['api'],
      answered: ['other'],
      want: undefined,
    },
    { name: 'no answered audiences: the implicit ones', requested: ['api', 'x'], implicit: ['api'], want: ['api'] },
    { name: 'no answered audiences, no implicit match', requested: ['x'], implicit: ['api'], want: undefined },
  ];
  for (const c of audienceCases) {
    it(`audiences: ${c.name}`, async () => {
      replies = [
        {
          status: 200,
          body: review('v1', {
            authenticated: true,
            user: { username: 'u' },
            ...(c.answered ? { audiences: c.answered } : {}),
          }),
        },
      ];
      const r = await authenticator('v1', { implicit: c.implicit }).authenticateToken('t', {
        audiences: c.requested,
        signal: new AbortController().signal,
      });
      assert.deepEqual(received[0]?.body.spec, { token: 't', audiences: c.requested });
      if (c.want === undefined) assert.deepEqual(r, { kind: 'no-opinion' });
      else assert.deepEqual(r, { kind: 'user', user: { name: 'u', groups: [] }, audiences: c.want });
    });
  }

  it('retries 500 and 429 with backoff, then succeeds', async () => {
    replies = [
      { status: 500, body: 'oops' },
      { status: 429, body: 'slow down' },
      { status: 200, body: review('v1', { authenticated: true, user: { username: 'u' } }) },
    ];
    const r = await authenticator().authenticateToken('t', noAudiences);
    assert.equal(r.kind, 'user');
    assert.equal(received.length, 3);
  });

  it('gives up after the backoff’s steps with an error that never contains the token', async () => {
    replies = [{ status: 500, body: 'cannot check token secret-token-value' }];
    const errors: string[] = [];
    const r = await authenticator('v1', { errors }).authenticateToken('secret-token-value', noAudiences);
    assert.equal(received.length, 5);
    assert.deepEqual(r, {
      kind: 'error',
      message:
        'an error on the server ("cannot check token [redacted]") has prevented the request from succeeding (post tokenreviews.authentication.orch.io)',
    });
    assert.equal(errors.length, 1);
    assert.ok(!errors[0]?.includes('secret-token-value'));
  });

  it('does not retry a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const authn = webhookTokenAuthenticator({
      config: { server: new URL(`http://127.0.0.1:${port}/`), insecureSkipTlsVerify: false },
      version: 'v1',
      domain: ORCH_DOMAIN,
      implicitAudiences: [],
      retryBackoff: { ...FAST, durationMs: 10_000 },
    });
    const started = Date.now();
    const r = await authn.authenticateToken('t', noAudiences);
    assert.equal(r.kind, 'error');
    assert.match(r.kind === 'error' ? r.message : '', /^Post "http:\/\/127\.0\.0\.1:\d+\/": connect ECONNREFUSED/);
    assert.ok(Date.now() - started < 5_000);
  });

  it('stops waiting when the request goes away', async () => {
    replies = [{ status: 500, body: 'x' }];
    const controller = new AbortController();
    const authn = webhookTokenAuthenticator({
      config: { server: url, insecureSkipTlsVerify: false },
      version: 'v1',
      domain: ORCH_DOMAIN,
      implicitAudiences: [],
      retryBackoff: { ...FAST, durationMs: 60_000 },
    });
    const pending = authn.authenticateToken('t', { audiences: [], signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const r = await pending;
    assert.equal(r.kind, 'error');
    assert.ok(Date.now() - started < 5_000);
    assert.equal(received.length, 1);
  });
});
