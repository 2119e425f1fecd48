// The x509 authenticator end to end: real TLS handshakes against a real server, for both protocols.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Authenticator, AuthResult } from '../../authn/authenticator.js';
import { buildRequestAuthenticator } from '../../authn/request-authenticator.js';
import { X509Authenticator } from '../../authn/x509-authenticator.js';
import { createTestPki, type TestPki } from '../tls/testing/test-pki.js';
import type { HttpExchange } from './exchange.js';
import { h1Request, h2Connect, h2Request } from './testing/clients.js';
import { clientTls, withServer } from './testing/server-fixture.js';

let pki: TestPki;
before(async () => {
  pki = await createTestPki();
});
after(() => pki.cleanup());

function authHandler(authn: Authenticator) {
  return async (ex: HttpExchange): Promise<void> => {
    const result = await authn.authenticate(ex);
    ex.respond(200, { 'content-type': 'application/json' }, JSON.stringify(result));
  };
}

/** Authenticates one request over each protocol with the given client certificate; both must agree. */
async function authenticateOverBoth(authn: Authenticator, client?: { cert: string; key: string }): Promise<AuthResult> {
  let result: AuthResult | undefined;
  await withServer(pki.certs, authHandler(authn), async (server) => {
    const tls = clientTls(pki.certs, client);
    const r1 = JSON.parse((await h1Request(server.url, tls, { path: '/api' })).body.toString());
    const session = await h2Connect(server.url, tls);
    const r2 = JSON.parse((await h2Request(session, { path: '/api' })).body.toString());
    session.close();
    assert.deepEqual(r1, r2, 'HTTP/1.1 and HTTP/2 see the same identity');
    result = r1;
  });
  return result!;
}

const requestAuthn = () => buildRequestAuthenticator({ authenticators: [new X509Authenticator()] });

function withoutCredentialId(result: AuthResult): AuthResult {
  if (result.kind !== 'user') return result;
  const { extra, ...user } = result.user;
  assert.match(extra?.['authentication.orch.io/credential-id']?.[0] ?? '', /^X509SHA256=[0-9a-f]{64}$/);
  return { kind: 'user', user };
}

describe('client certificate authentication over the secure server', () => {
  it('maps the admin certificate to orch-admin in system:masters', async () => {
    const result = await authenticateOverBoth(requestAuthn(), pki.certs.admin);
    assert.deepEqual(withoutCredentialId(result), {
      kind: 'user',
      user: { name: 'orch-admin', groups: ['system:masters', 'system:authenticated'] },
    });
  });

  it('turns every O into a group and a single O into a one-element list', async () => {
    const alice = await pki.issueClient('alice', ['dev', 'ops']);
    const bob = await pki.issueClient('bob', ['dev']);
    const carol = await pki.issueClient('carol');
    const x509 = new X509Authenticator();
    assert.deepEqual(withoutCredentialId(await authenticateOverBoth(x509, alice)), {
      kind: 'user',
      user: { name: 'alice', groups: ['dev', 'ops'] },
    });
    assert.deepEqual(withoutCredentialId(await authenticateOverBoth(x509, bob)), {
      kind: 'user',
      user: { name: 'bob', groups: ['dev'] },
    });
    assert.deepEqual(withoutCredentialId(await authenticateOverBoth(x509, carol)), {
      kind: 'user',
      user: { name: 'carol', groups: [] },
    });
  });

  it('treats a request without a certificate as anonymous', async () => {
    assert.deepEqual(await authenticateOverBoth(requestAuthn()), {
      kind: 'user',
      user: { name: 'system:anonymous', groups: ['system:unauthenticated'] },
    });
    const noAnonymous = buildRequestAuthenticator({ authenticators: [new X509Authenticator()], anonymous: false });
    assert.deepEqual(await authenticateOverBoth(noAnonymous), { kind: 'no-opinion' });
  });

  it('rejects a certificate from a foreign CA even though its subject is readable', async () => {
    const mallory = await pki.issueForeignClient('orch-admin', ['system:masters']);
    const result = await authenticateOverBoth(requestAuthn(), mallory);
    assert.equal(result.kind, 'error');
    assert.match(result.kind === 'error' ? result.message : '', /signed by unknown authority/);
  });

  it('rejects an expired certificate from the right CA', async () => {
    const past = new Date(Date.now() - 10 * 24 * 3_600_000);
    const expired = await pki.issueClient('old', ['dev'], { now: past, validityMs: 24 * 3_600_000 });
    const result = await authenticateOverBoth(requestAuthn(), expired);
    assert.equal(result.kind, 'error');
    assert.match(result.kind === 'error' ? result.message : '', /expired or is not yet valid/);
  });

  it('rejects a certificate that expired after the handshake', async () => {
    const twoYearsLater = new Date(Date.now() + 2 * 365 * 24 * 3_600_000);
    const later = new X509Authenticator({ clock: { now: () => twoYearsLater } });
    const result = await authenticateOverBoth(later, pki.certs.admin);
    assert.equal(result.kind, 'error');
    assert.match(result.kind === 'error' ? result.message : '', /expired or is not yet valid: current time/);
  });
});
