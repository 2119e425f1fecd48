// The token webhook end to end: a loopback HTTPS TokenReview service, both API versions, caching,
// failures and audiences.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { stringify } from 'yaml';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { AuthenticationConfigError } from '../../src/authn/authentication-config-error.js';
import { issueServingCertificate } from '../../src/server/tls/certificate-factory.js';
import type { InProcessServer } from '../pipeline/server-fixture.js';
import { startDenyingServer, tempDir, tokenReview, whoAmI } from './authn-fixture.js';
import { clientCert, createCertificateAuthority } from './test-pki.js';

interface Review {
  apiVersion: string;
  kind: string;
  spec: { token: string; audiences?: string[] };
}

/** The webhook's behaviour per token. */
function answer(review: Review): { status: number; body: unknown } {
  const ok = (status: Record<string, unknown>) => ({
    status: 200,
    body: { apiVersion: review.apiVersion, kind: 'TokenReview', status },
  });
  switch (review.spec.token) {
    case 'good-alice-token':
      return ok({ authenticated: true, user: { username: 'wh-alice', uid: '7', groups: ['dev'] } });
    case 'good-admin-token':
      return ok({ authenticated: true, user: { username: 'wh-admin', groups: ['system:masters'] } });
    case 'denied-token':
      return ok({ authenticated: false });
    case 'revoked-token':
      return ok({ authenticated: false, error: 'token revoked' });
    case 'other-audience-token':
      return ok({ authenticated: true, user: { username: 'wh-other' }, audiences: ['somebody-else'] });
    case 'own-audience-token':
      return ok({ authenticated: true, user: { username: 'wh-aud' }, audiences: ['orch-api'] });
    case 'broken-token':
      return { status: 500, body: 'internal error' };
    case 'unauthorized-token':
      return { status: 401, body: 'who are you' };
    default:
      return ok({ authenticated: false });
  }
}

describe('token webhook', () => {
  let files: Awaited<ReturnType<typeof tempDir>>;
  let webhook: Server;
  const calls: { review: Review; clientCn: string | undefined }[] = [];
  const servers: Record<string, InProcessServer> = {};

  before(async () => {
    files = await tempDir('orch-token-webhook-');
    const webhookCa = await createCertificateAuthority({ commonName: 'webhook-ca' });
    const serving = await issueServingCertificate({ ca: webhookCa, hostNames: ['127.0.0.1'] });
    const callerCa = await createCertificateAuthority({ commonName: 'caller-ca' });
    const caller = await clientCert(callerCa, 'orch-apiserver');
    webhook = createServer(
      { ...serving, ca: callerCa.cert, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const review = JSON.parse(Buffer.concat(chunks).toString()) as Review;
          const peer = (req.socket as TLSSocket).getPeerCertificate();
          calls.push({ review, clientCn: peer?.subject?.CN as string | undefined });
          const a = answer(review);
          res.writeHead(a.status, { 'content-type': 'application/json' });
          res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
        });
      },
    );
    await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
    const port = (webhook.address() as AddressInfo).port;
    await files.write('webhook-ca.crt', webhookCa.cert);
    await files.write('caller.crt', caller.cert);
    await files.write('caller.key', caller.key);
    const config = await files.write(
      'webhook.yaml',
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'authn',
            cluster: { server: `https://127.0.0.1:${port}/authenticate`, 'certificate-authority': 'webhook-ca.crt' },
          },
        ],
        users: [{ name: 'apiserver', user: { 'client-certificate': 'caller.crt', 'client-key': 'caller.key' } }],
        contexts: [{ name: 'webhook', context: { cluster: 'authn', user: 'apiserver' } }],
        'current-context': 'webhook',
      }),
    );
    for (const version of ['v1', 'v1beta1'] as const) {
      servers[version] = await startDenyingServer({
        authentication: { tokenWebhook: { configFile: config, version }, apiAudiences: ['orch-api'] },
      });
    }
  });
  after(async () => {
    for (const s of Object.values(servers)) await s.stop();
    await new Promise<void>((r) => webhook?.close(() => r()));
    await files?.remove();
  });
  beforeEach(() => {
    calls.length = 0;
  });

  for (const version of ['v1', 'v1beta1'] as const) {
    it(`authenticates through ${version} TokenReviews`, async () => {
      assert.equal(await whoAmI(servers[version] as InProcessServer, { token: 'good-alice-token' }), 'wh-alice');
      assert.equal(calls.length, 1);
      const call = calls[0];
      assert.equal(call?.clientCn, 'orch-apiserver', 'the server presents its client certificate');
      assert.equal(call?.review.apiVersion, `${ORCH_DOMAIN.group('authentication')}/${version}`);
      assert.equal(call?.review.kind, 'TokenReview');
      assert.deepEqual(call?.review.spec, { token: 'good-alice-token', audiences: ['orch-api'] });
    });
  }

  it('reports the webhook’s user and audiences in a TokenReview', async () => {
    const status = await tokenReview(servers.v1 as InProcessServer, 'good-alice-token', ['orch-api', 'elsewhere']);
    assert.equal(status.authenticated, true);
    assert.equal(status.user.username, 'wh-alice');
    assert.equal(status.user.uid, '7');
    assert.deepEqual(status.user.groups.slice(0, 1), ['dev']);
    assert.deepEqual(status.audiences, ['orch-api']);
    assert.deepEqual(calls.at(-1)?.review.spec.audiences, ['orch-api', 'elsewhere']);
  });

  it('passes the groups the webhook returns', async () => {
    assert.equal(await whoAmI(servers.v1 as InProcessServer, { token: 'good-admin-token' }), '200');
  });

  it('caches answers within the TTL, errors excepted', async () => {
    const server = servers.v1beta1 as InProcessServer;
    assert.equal(await whoAmI(server, { token: 'denied-token' }), '401');
    assert.equal(await whoAmI(server, { token: 'denied-token' }), '401');
    assert.equal(calls.filter((c) => c.review.spec.token === 'denied-token').length, 1);
    assert.equal(await whoAmI(server, { token: 'revoked-token' }), '401');
    assert.equal(await whoAmI(server, { token: 'revoked-token' }), '401');
    assert.equal(calls.filter((c) => c.review.spec.token === 'revoked-token').length, 2);
  });

  it('answers 401 when the webhook fails, without retrying a 401', async () => {
    assert.equal(await whoAmI(servers.v1 as InProcessServer, { token: 'unauthorized-token' }), '401');
    assert.equal(calls.length, 1);
  });

  it('retries a 500 with backoff, then answers 401', async () => {
    assert.equal(await whoAmI(servers.v1 as InProcessServer, { token: 'broken-token' }), '401');
    assert.equal(calls.length, 5);
  });

  it('honours status.audiences', async () => {
    const server = servers.v1 as InProcessServer;
    assert.equal(await whoAmI(server, { token: 'other-audience-token' }), '401');
    assert.equal(await whoAmI(server, { token: 'own-audience-token' }), 'wh-aud');
  });

  it('fails start-up on an invalid configuration file', async () => {
    const bad = await files.write(
      'bad.yaml',
      stringify({ clusters: [{ name: 'x', cluster: {} }], 'current-context': 'c' }),
    );
    await assert.rejects(
      startDenyingServer({ dataDir: `${files.dir}/bad-data`, authentication: { tokenWebhook: { configFile: bad } } }),
      (e: unknown) => {
        assert.ok(e instanceof AuthenticationConfigError);
        assert.deepEqual(e.problems, [
          '--authentication-token-webhook-config-file: current-context: context was not found for specified context: c',
        ]);
        return true;
      },
    );
  });
});
