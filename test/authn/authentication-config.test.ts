import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { stringify } from 'yaml';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import type { Logger } from '../../src/util/logger.js';
import { request } from '../support/http-client.js';
import { eventually, tokenReviewStatus, whoAmI } from './authn-test-support.js';
import { TestOidcProvider } from './oidc-provider.js';

const RELOADS = 'apiserver_authentication_config_controller_automatic_reloads_total';
const LAST_RELOAD = 'apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds';

/** The configuration under test: two issuers, every claim rule and mapping, anonymous on /livez. */
function configFor(a: TestOidcProvider, b: TestOidcProvider, usernamePrefix = 'oidc:') {
  return {
    apiVersion: 'apiserver.config.orch.io/v1beta1',
    kind: 'AuthenticationConfiguration',
    jwt: [
      {
        issuer: {
          url: a.issuer,
          certificateAuthority: a.ca.cert,
          audiences: ['orch', 'orch-cli'],
          audienceMatchPolicy: 'MatchAny',
        },
        claimValidationRules: [
          { claim: 'tenant', requiredValue: 'acme' },
          { expression: 'claims.email_verified == true', message: 'email must be verified' },
        ],
        claimMappings: {
          username: { expression: `'${usernamePrefix}' + claims.email` },
          groups: {
            expression: "claims.?admin.orValue(false) == true ? ['system:masters'] : claims.?roles.orValue([])",
          },
          uid: { expression: "'uid-' + claims.sub" },
          extra: [{ key: 'example.com/tenant', valueExpression: 'claims.tenant' }],
        },
        userValidationRules: [
          { expression: "!user.username.startsWith('oidc:system:')", message: 'no system users' },
          { expression: "user.extra['example.com/tenant'] == ['acme'] && user.uid.startsWith('uid-')" },
        ],
      },
      {
        issuer: {
          url: b.issuer,
          discoveryURL: `${b.origin}/custom-discovery`,
          certificateAuthority: b.ca.cert,
          audiences: ['orch'],
        },
        claimMappings: { username: { claim: 'sub', prefix: '' } },
      },
    ],
    anonymous: { enabled: true, conditions: [{ path: '/livez' }] },
  };
}

describe('authentication configuration file', () => {
  let a: TestOidcProvider;
  let b: TestOidcProvider;
  let server: RunningServer;
  let dir: string;
  let file: string;
  const metrics = new Registry();
  const logged: string[] = [];
  const logger: Logger = {
    info: (m) => logged.push(m),
    warn: (m) => logged.push(m),
    error: (m, f) => logged.push(`${m}: ${String(f?.error)}`),
  };
  const good = { sub: 'a1', email: 'alice@example.com', email_verified: true, tenant: 'acme', aud: 'orch' };
  const reloads = async (status: string) =>
    (await metrics.getSingleMetric(RELOADS)?.get())?.values.find((v) => v.labels.status === status)?.value ?? 0;

  before(async () => {
    a = await TestOidcProvider.start({ path: '/realms/a' });
    b = await TestOidcProvider.start();
    await a.addKey('a1');
    await b.addKey('b1', { alg: 'ES256' });
    dir = await mkdtemp(join(tmpdir(), 'orch-authn-config-'));
    file = join(dir, 'authn.yaml');
    await writeFile(file, stringify(configFor(a, b)));
    server = await startServer({
      dataDir: join(dir, 'data'),
      securePort: 0,
      runControllers: false,
      authorizationModes: ['AlwaysDeny'],
      authentication: { authenticationConfigFile: file },
      metrics,
      logger,
    });
    const first = await a.sign('a1', good);
    assert.equal(await eventually(() => whoAmI(server, first), 'oidc:alice@example.com'), 'oidc:alice@example.com');
  });
  after(async () => {
    await server?.close();
    await a?.close();
    await b?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('maps the username with CEL and accepts any listed audience', async () => {
    assert.equal(
      await whoAmI(server, await a.sign('a1', { ...good, aud: ['other', 'orch-cli'] })),
      'oidc:alice@example.com',
    );
  });

  it('maps username, groups, uid and extra with CEL, as a TokenReview shows', async () => {
    const token = await a.sign('a1', { ...good, roles: ['dev', 'ops'], jti: 'id-1' });
    const status = await tokenReviewStatus(server, token);
    assert.equal(status.authenticated, true);
    assert.deepEqual(status.user, {
      username: 'oidc:alice@example.com',
      uid: 'uid-a1',
      groups: ['dev', 'ops', 'system:authenticated'],
      extra: { 'authentication.orch.io/credential-id': ['JTI=id-1'], 'example.com/tenant': ['acme'] },
    });
    // Not valid for audiences other than the server's own.
    const other = await tokenReviewStatus(server, token, ['someone-else']);
    assert.equal(other.authenticated ?? false, false);
  });

  it('maps groups with CEL: system:masters passes AlwaysDeny', async () => {
    assert.equal(await whoAmI(server, await a.sign('a1', { ...good, admin: true })), 200);
    assert.equal(await whoAmI(server, await a.sign('a1', { ...good, roles: ['dev'] })), 'oidc:alice@example.com');
  });

  it('fails claim validation rules (required value, expression) and user validation rules with 401', async () => {
    for (const claims of [
      { ...good, tenant: 'other' },
      { ...good, tenant: undefined },
      { ...good, email_verified: false },
      { ...good, email: 'system:admin' },
    ]) {
      assert.equal(await whoAmI(server, await a.sign('a1', claims)), 401, JSON.stringify(claims));
    }
  });

  it('rejects expired, not-yet-valid, wrong-audience, unknown-issuer and badly signed tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = (await a.sign('a1', good)).split('.').slice(0, 2).join('.');
    for (const token of [
      await a.sign('a1', { ...good, exp: now - 10 }),
      await a.sign('a1', { ...good, nbf: now + 600 }),
      await a.sign('a1', { ...good, aud: 'kubernetes' }),
      await a.sign('a1', { ...good, iss: 'https://127.0.0.1:1/unknown' }),
      `${forged}.${Buffer.from('x').toString('base64url')}`,
    ]) {
      const r = await request(server.url, '/api/v1/namespaces', {
        ca: server.admin?.ca as string,
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(r.status, 401);
      assert.equal(r.json().kind, 'Status');
    }
  });

  it('discovers the second issuer at its discoveryURL, with ES256 keys and an unprefixed claim', async () => {
    const token = await b.sign('b1', { sub: 'bob', aud: 'orch' });
    assert.equal(await eventually(() => whoAmI(server, token), 'bob'), 'bob');
    assert.equal(a.hits.get('/custom-discovery') ?? 0, 0);
    assert.ok((b.hits.get('/custom-discovery') ?? 0) >= 1);
  });

  it('limits anonymous requests to the configured paths', async () => {
    const ca = server.admin?.ca as string;
    // Anonymous on /livez, then denied by AlwaysDeny (403); elsewhere not authenticated (401).
    assert.equal((await request(server.url, '/livez', { ca })).status, 403);
    assert.equal((await request(server.url, '/readyz', { ca })).status, 401);
  });

  it('picks up a rotated key, refreshing the key set at most once per cooldown', async () => {
    const before = a.hits.get('/keys') ?? 0;
    await a.addKey('a2');
    const rotated = await a.sign('a2', good);
    assert.equal(await eventually(() => whoAmI(server, rotated), 'oidc:alice@example.com'), 'oidc:alice@example.com');
    a.withdraw('a1');
    await a.addKey('a3', { publish: false });
    const hidden = await a.sign('a3', good);
    for (let i = 0; i < 10; i++) assert.equal(await whoAmI(server, hidden), 401);
    const fetches = (a.hits.get('/keys') ?? 0) - before;
    assert.ok(fetches >= 1 && fetches <= 3, `key set fetched ${fetches} times`);
  });

  it('reloads a changed valid file, keeps it over a bad one, and counts both', async () => {
    assert.equal(await reloads('success'), 0);
    await writeFile(file, stringify(configFor(a, b, 'v2:')));
    const token = await a.sign('a2', { ...good, jti: 'reload' });
    assert.equal(await eventually(() => whoAmI(server, token), 'v2:alice@example.com'), 'v2:alice@example.com');
    assert.equal(await eventually(() => reloads('success'), 1), 1);

    const bad = configFor(a, b, 'v3:');
    bad.jwt[0].claimMappings.username.expression = 'claims.email +';
    await writeFile(file, stringify(bad));
    assert.equal(await eventually(() => reloads('failure'), 1), 1);
    assert.equal(await whoAmI(server, await a.sign('a2', { ...good, jti: 'after-bad' })), 'v2:alice@example.com');
    assert.ok(
      logged.some((l) => l.includes('jwt[0].claimMappings.username.expression: Invalid value')),
      logged.join('\n'),
    );

    await writeFile(file, 'jwt: [\n');
    assert.equal(await eventually(() => reloads('failure'), 2), 2);
    const changedAnonymous = { ...configFor(a, b, 'v4:'), anonymous: { enabled: false } };
    await writeFile(file, stringify(changedAnonymous));
    assert.equal(await eventually(() => reloads('failure'), 3), 3);
    assert.ok(logged.some((l) => l.includes('anonymous: Forbidden: changed from initial configuration file')));
    assert.equal(await whoAmI(server, await a.sign('a2', { ...good, jti: 'end' })), 'v2:alice@example.com');
    const stamps = (await metrics.getSingleMetric(LAST_RELOAD)?.get())?.values ?? [];
    assert.deepEqual(stamps.map((s) => s.labels.status).sort(), ['failure', 'success']);
    assert.match(String(stamps[0]?.labels.apiserver_id_hash), /^sha256:[0-9a-f]{64}$/);
  });

  it('records the latency of each issuer’s authentications by result, not of other issuers’ tokens', async () => {
    const values =
      (await metrics.getSingleMetric('apiserver_authentication_jwt_authenticator_latency_seconds')?.get())?.values ??
      [];
    const count = (issuer: string, result: string) =>
      values.find(
        (v) =>
          (v as { metricName?: string }).metricName?.endsWith('_count') === true &&
          v.labels.result === result &&
          v.labels.jwt_issuer_hash === `sha256:${createHash('sha256').update(issuer).digest('hex')}`,
      )?.value ?? 0;
    assert.ok(count(a.issuer, 'success') > 0);
    assert.ok(count(a.issuer, 'failure') > 0);
    assert.ok(count(b.issuer, 'success') > 0);
    assert.equal(count('https://127.0.0.1:1/unknown', 'failure'), 0);
  });
});
