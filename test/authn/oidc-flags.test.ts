import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { request } from '../support/http-client.js';
import { eventually, tokenReviewStatus, whoAmI } from './authn-test-support.js';
import { TestOidcProvider } from './oidc-provider.js';

describe('OpenID Connect flags', () => {
  let idp: TestOidcProvider;
  let server: RunningServer;
  let dir: string;
  before(async () => {
    idp = await TestOidcProvider.start();
    await idp.addKey('k1');
    dir = await mkdtemp(join(tmpdir(), 'orch-oidc-flags-'));
    const caFile = join(dir, 'idp-ca.crt');
    await writeFile(caFile, idp.ca.cert);
    server = await startServer({
      dataDir: join(dir, 'data'),
      securePort: 0,
      runControllers: false,
      authorizationModes: ['AlwaysDeny'],
      authentication: {
        oidc: {
          issuerURL: idp.issuer,
          clientID: 'orch',
          caFile,
          groupsClaim: 'groups',
          groupsPrefix: 'oidc:',
          requiredClaims: { tenant: 'acme' },
        },
      },
    });
  });
  after(async () => {
    await server?.close();
    await idp?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('prefixes the default sub claim with the issuer URL and a #', async () => {
    const token = await idp.sign('k1', { sub: 'alice', aud: 'orch', tenant: 'acme' });
    // Discovery runs in the background from start-up: until it completes, tokens get 401.
    assert.equal(await eventually(() => whoAmI(server, token), `${idp.issuer}#alice`), `${idp.issuer}#alice`);
  });

  it('lets a group claim reach system:masters only through its prefix', async () => {
    const token = await idp.sign('k1', { sub: 'bob', aud: 'orch', tenant: 'acme', groups: ['system:masters'] });
    // `oidc:system:masters` is not `system:masters`: still denied.
    assert.equal(await whoAmI(server, token), `${idp.issuer}#bob`);
  });

  it('prefixes groups and adds the jti as credential id, as a TokenReview shows', async () => {
    const token = await idp.sign('k1', { sub: 'carol', aud: 'orch', tenant: 'acme', groups: ['dev'], jti: 'j-7' });
    const status = await tokenReviewStatus(server, token);
    assert.deepEqual(status.user, {
      username: `${idp.issuer}#carol`,
      groups: ['oidc:dev', 'system:authenticated'],
      extra: { 'authentication.orch.io/credential-id': ['JTI=j-7'] },
    });
  });

  it('rejects a token without the required claim value with 401', async () => {
    const token = await idp.sign('k1', { sub: 'alice', aud: 'orch', tenant: 'other' });
    assert.equal(await whoAmI(server, token), 401);
  });

  it('rejects expired, wrong-audience, unknown-issuer and badly signed tokens with a 401 Status', async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = { sub: 'alice', aud: 'orch', tenant: 'acme' };
    const expired = await idp.sign('k1', { ...good, exp: now - 60 });
    const audience = await idp.sign('k1', { ...good, aud: 'someone-else' });
    const issuer = await idp.sign('k1', { ...good, iss: 'https://elsewhere.example' });
    const [h, p] = (await idp.sign('k1', good)).split('.');
    const forged = `${h}.${p}.${Buffer.from('not the signature').toString('base64url')}`;
    for (const token of [expired, audience, issuer, forged]) {
      const r = await request(server.url, '/api/v1/namespaces', {
        ca: server.admin?.ca as string,
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(r.status, 401);
      const body = r.json();
      assert.equal(body.kind, 'Status');
      assert.equal(body.reason, 'Unauthorized');
      assert.ok(!r.text.includes(token), 'the token is not echoed');
    }
  });
});
