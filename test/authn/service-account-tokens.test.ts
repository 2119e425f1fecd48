import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { apiDomain } from '../../src/apis/api-domain.js';
import { parseSigningKey } from '../../src/authn/service-account/service-account-keys.js';
import { ServiceAccountTokenSigner } from '../../src/authn/service-account/token-signer.js';
import { waitFor } from '../../src/controllers/testing/controller-fixture.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';

// Service-account tokens against a real server: TokenRequest, the token as a bearer credential,
// audiences, expiry, revocation by lookup, issuer discovery and the default service accounts.
// Under RBAC a token user without bindings is refused with a 403 naming who the request came from
// (the in-process serviceaccount controller acts under its own default role).

const AUTHN = 'authentication.orch.io/v1';

describe('service-account tokens', () => {
  let s: InProcessServer;
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-sa-tokens-'));
    s = await startInProcess({ dataDir, authorizationModes: ['RBAC'] });
  });
  after(() => s.stop());

  const tokenPath = (ns: string, name: string) => `/api/v1/namespaces/${ns}/serviceaccounts/${name}/token`;
  const requestToken = async (ns: string, name: string, spec: object = {}) => {
    const r = await s.api.admin('POST', tokenPath(ns, name), {
      body: { apiVersion: AUTHN, kind: 'TokenRequest', spec },
    });
    assert.equal(r.status, 201, r.text);
    return r.json() as { spec: { audiences: string[]; expirationSeconds: number }; status: Record<string, string> };
  };
  const asBearer = (token: string, path = '/api/v1/namespaces/default/configmaps') =>
    s.api.anonymous('GET', path, { headers: { authorization: `Bearer ${token}` } });
  const createSa = async (ns: string, name: string) => {
    const r = await s.api.admin('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
    });
    assert.equal(r.status, 201, r.text);
    return r.json();
  };
  /** Waits until the watch caches the authenticator reads no longer hold the object. */
  const goneFromCache = (path: string) =>
    waitFor(`${path} gone`, async () => (await s.api.admin('GET', `${path}?resourceVersion=0`)).status === 404);

  it('gives every namespace a default ServiceAccount, new ones too', async () => {
    for (const ns of ['default', 'orch-system', 'orch-public', 'orch-node-lease']) {
      await waitFor(`default in ${ns}`, async () => {
        const r = await s.api.admin('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`);
        return r.status === 200;
      });
    }
    const ns = await s.api.admin('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } },
    });
    assert.equal(ns.status, 201);
    await waitFor('default in fresh', async () => {
      return (await s.api.admin('GET', '/api/v1/namespaces/fresh/serviceaccounts/default')).status === 200;
    });
  });

  it('issues a token with TokenRequest that authenticates as the service account', async () => {
    await waitFor('default SA', async () => {
      return (await s.api.admin('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200;
    });
    const tr = await requestToken('default', 'default');
    assert.deepEqual(tr.spec.audiences, [s.url]);
    assert.equal(tr.spec.expirationSeconds, 3600);
    const claims = decodeJwt(tr.status.token);
    assert.equal(claims.sub, 'system:serviceaccount:default:default');
    assert.equal(claims.iss, s.url);
    assert.equal((claims.exp as number) - (claims.iat as number), 3600);
    assert.equal(Date.parse(tr.status.expirationTimestamp) / 1000, claims.exp);

    const r = await asBearer(tr.status.token);
    assert.equal(r.status, 403, r.text);
    assert.equal(
      r.json().message,
      'configmaps is forbidden: User "system:serviceaccount:default:default" cannot list resource "configmaps" in API group "" in the namespace "default"',
    );
  });

  it('answers TokenReview for a service-account token with the user and its audiences', async () => {
    const { status } = await requestToken('default', 'default');
    const sa = (await s.api.admin('GET', '/api/v1/namespaces/default/serviceaccounts/default')).json();
    const r = await s.api.admin('POST', `/apis/${AUTHN}/tokenreviews`, {
      body: { apiVersion: AUTHN, kind: 'TokenReview', spec: { token: status.token } },
    });
    assert.equal(r.status, 201, r.text);
    const review = r.json().status;
    assert.equal(review.authenticated, true);
    assert.deepEqual(review.audiences, [s.url]);
    assert.deepEqual(
      { ...review.user, extra: undefined },
      {
        username: 'system:serviceaccount:default:default',
        uid: sa.metadata.uid,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
        extra: undefined,
      },
    );
    assert.match(review.user.extra['authentication.orch.io/credential-id'][0], /^JTI=[0-9a-f-]{36}$/);
  });

  it('lists serviceaccounts/token in discovery as a TokenRequest of the authentication group', async () => {
    const legacy = (await s.api.admin('GET', '/api/v1')).json().resources as Record<string, unknown>[];
    assert.deepEqual(
      legacy.find((r) => r.name === 'serviceaccounts/token'),
      {
        name: 'serviceaccounts/token',
        singularName: '',
        namespaced: true,
        group: 'authentication.orch.io',
        version: 'v1',
        kind: 'TokenRequest',
        verbs: ['create'],
      },
    );
    const aggregated = await s.api.admin('GET', '/api', {
      headers: { accept: 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList' },
    });
    const core = aggregated.json().items[0].versions[0].resources as Record<string, unknown>[];
    const sa = core.find((r) => r.resource === 'serviceaccounts') as { subresources: unknown[] };
    assert.deepEqual(sa.subresources, [
      {
        subresource: 'token',
        responseKind: { group: 'authentication.orch.io', version: 'v1', kind: 'TokenRequest' },
        verbs: ['create'],
      },
    ]);
  });

  it("refuses lifetimes under 10 minutes with kube's 422", async () => {
    const r = await s.api.admin('POST', tokenPath('default', 'default'), {
      body: { apiVersion: AUTHN, kind: 'TokenRequest', spec: { expirationSeconds: 60 } },
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.json().message,
      'TokenRequest.authentication.orch.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
  });

  it('answers 404 for a missing service account and a missing bound pod (pods are not served)', async () => {
    const missing = await s.api.admin('POST', tokenPath('default', 'ghost'), {
      body: { apiVersion: AUTHN, kind: 'TokenRequest', spec: {} },
    });
    assert.equal(missing.status, 404, missing.text);
    assert.equal(missing.json().message, 'serviceaccounts "ghost" not found');
    const pod = await s.api.admin('POST', tokenPath('default', 'default'), {
      body: {
        apiVersion: AUTHN,
        kind: 'TokenRequest',
        spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-0' } },
      },
    });
    assert.equal(pod.status, 404, pod.text);
    assert.equal(pod.json().message, 'pods "web-0" not found');
  });

  it('refuses a token for another audience with 401', async () => {
    const { status } = await requestToken('default', 'default', { audiences: ['vault'] });
    const r = await asBearer(status.token);
    assert.equal(r.status, 401, r.text);
    assert.equal(r.json().reason, 'Unauthorized');
  });

  it('refuses an expired token with 401', async () => {
    const sa = (await s.api.admin('GET', '/api/v1/namespaces/default/serviceaccounts/default')).json();
    const signer = new ServiceAccountTokenSigner({
      issuer: s.url,
      key: parseSigningKey(readFileSync(join(dataDir, 'pki', 'apiserver.key'), 'utf8')),
      claimName: apiDomain().serviceAccountClaim,
      clock: { now: () => new Date(Date.now() - 2 * 3600_000) },
    });
    const make = async () =>
      (
        await signer.sign({
          namespace: 'default',
          serviceAccount: { name: 'default', uid: sa.metadata.uid },
          audiences: [s.url],
          expirationSeconds: 3600,
        })
      ).token;
    assert.equal((await asBearer(await make())).status, 401, 'expired an hour ago');
  });

  it('revokes the tokens of a deleted service account', async () => {
    await createSa('default', 'robot');
    const { status } = await requestToken('default', 'robot');
    const del = await s.api.admin('DELETE', '/api/v1/namespaces/default/serviceaccounts/robot');
    assert.equal(del.status, 200, del.text);
    await goneFromCache('/api/v1/namespaces/default/serviceaccounts/robot');
    assert.equal((await asBearer(status.token)).status, 401);
  });

  it('revokes a token bound to a Secret when the Secret is deleted', async () => {
    await createSa('default', 'bound');
    const secret = await s.api.admin('POST', '/api/v1/namespaces/default/secrets', {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'holder' } },
    });
    assert.equal(secret.status, 201);
    const ref = { kind: 'Secret', apiVersion: 'v1', name: 'holder', uid: secret.json().metadata.uid };
    const kept = await requestToken('default', 'bound', { boundObjectRef: ref });
    const revoked = await requestToken('default', 'bound', { boundObjectRef: ref });
    assert.equal((await asBearer(kept.status.token)).status, 403, 'valid while the secret exists');
    await s.api.admin('DELETE', '/api/v1/namespaces/default/secrets/holder');
    await goneFromCache('/api/v1/namespaces/default/secrets/holder');
    assert.equal((await asBearer(revoked.status.token)).status, 401);
  });

  it('serves the issuer discovery documents; tokens verify against the published keys', async () => {
    const config = await s.api.admin('GET', '/.well-known/openid-configuration');
    assert.equal(config.status, 200);
    assert.equal(config.headers['content-type'], 'application/json');
    assert.equal(config.headers['cache-control'], 'public, max-age=3600');
    assert.deepEqual(config.json(), {
      issuer: s.url,
      jwks_uri: `${s.url}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
    const jwks = await s.api.admin('GET', new URL(config.json().jwks_uri).pathname);
    assert.equal(jwks.status, 200);
    assert.equal(jwks.headers['content-type'], 'application/jwk-set+json');
    assert.equal(jwks.headers['cache-control'], 'public, max-age=3600');
    const { status } = await requestToken('default', 'default', { audiences: ['vault'] });
    const verified = await jwtVerify(status.token, createLocalJWKSet(jwks.json()), {
      issuer: s.url,
      audience: 'vault',
    });
    assert.equal(verified.payload.sub, 'system:serviceaccount:default:default');
    assert.equal((await s.api.admin('POST', '/openid/v1/jwks')).status, 405);
    const index = (await s.api.admin('GET', '/')).json().paths as string[];
    assert.ok(index.includes('/.well-known/openid-configuration') && index.includes('/openid/v1/jwks'));
  });
});

describe('serviceaccount controller off', () => {
  it('creates no default ServiceAccount with runControllers: false', async () => {
    const s = await startInProcess({ runControllers: false });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const r = await s.api.admin('GET', '/api/v1/namespaces/default/serviceaccounts/default');
      assert.equal(r.status, 404);
    } finally {
      await s.stop();
    }
  });
});

describe('service-account tokens with configured issuers and keys', () => {
  let s: InProcessServer;
  let dir: string;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const old = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-sa-keys-'));
    const signing = join(dir, 'sa.key');
    const verify = join(dir, 'sa.pub');
    writeFileSync(signing, rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }));
    writeFileSync(
      verify,
      `${rsa.publicKey.export({ type: 'spki', format: 'pem' })}${old.publicKey.export({ type: 'spki', format: 'pem' })}`,
    );
    s = await startInProcess({
      authorizationModes: ['RBAC'],
      authentication: {
        serviceAccountIssuers: ['https://issuer.example', 'https://old.example'],
        serviceAccountSigningKeyFile: signing,
        serviceAccountKeyFiles: [verify],
        serviceAccountMaxTokenExpirationSeconds: 7200,
      },
    });
    await waitFor('default SA', async () => {
      return (await s.api.admin('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200;
    });
  });
  after(async () => {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs with the first issuer and the signing key (RS256), capping the lifetime with a warning', async () => {
    const r = await s.api.admin('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
      body: { apiVersion: AUTHN, kind: 'TokenRequest', spec: { expirationSeconds: 86400 } },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.warning, '299 - "requested expiration of 86400 seconds shortened to 7200 seconds"');
    const tr = r.json();
    assert.deepEqual(tr.spec.audiences, ['https://issuer.example', 'https://old.example']);
    const claims = decodeJwt(tr.status.token);
    assert.equal(claims.iss, 'https://issuer.example');
    assert.equal((claims.exp as number) - (claims.iat as number), 7200);
    const config = (await s.api.admin('GET', '/.well-known/openid-configuration')).json();
    assert.equal(config.issuer, 'https://issuer.example');
    assert.equal(config.jwks_uri, `${s.url}/openid/v1/jwks`);
    assert.deepEqual(config.id_token_signing_alg_values_supported, ['ES256', 'RS256']);
    const r403 = await s.api.anonymous('GET', '/api/v1/namespaces/default/configmaps', {
      headers: { authorization: `Bearer ${tr.status.token}` },
    });
    assert.equal(r403.status, 403);
  });

  it('accepts tokens of every issuer and key; a token of another issuer is a 401', async () => {
    const sa = (await s.api.admin('GET', '/api/v1/namespaces/default/serviceaccounts/default')).json();
    const sign = (issuer: string) =>
      new ServiceAccountTokenSigner({
        issuer,
        key: parseSigningKey(old.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
        claimName: apiDomain().serviceAccountClaim,
      }).sign({
        namespace: 'default',
        serviceAccount: { name: 'default', uid: sa.metadata.uid },
        audiences: ['https://issuer.example'],
        expirationSeconds: 600,
      });
    const status = async (issuer: string) =>
      (
        await s.api.anonymous('GET', '/api/v1/namespaces/default/configmaps', {
          headers: { authorization: `Bearer ${(await sign(issuer)).token}` },
        })
      ).status;
    assert.equal(await status('https://old.example'), 403, 'the old issuer and the old key still authenticate');
    assert.equal(await status('https://elsewhere.example'), 401);
  });
});
