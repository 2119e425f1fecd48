import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompactSign } from 'jose';
import { apiDomain, ORCH_DOMAIN } from '../../apis/api-domain.js';
import { LegacyServiceAccountTokenAuthenticator } from './legacy-token-authenticator.js';
import { newSigningKey, object, tableObjectReader } from './testing/fixtures.js';
import { ServiceAccountTokenSigner } from './token-signer.js';

const signal = new AbortController().signal;
const AUD = 'https://orch.test';

describe('legacy service-account tokens', () => {
  const key = newSigningKey();
  const signer = new ServiceAccountTokenSigner({
    issuer: ORCH_DOMAIN.legacyServiceAccountIssuer,
    key,
    claimName: ORCH_DOMAIN.serviceAccountClaim,
  });
  const input = { namespace: 'ns', serviceAccount: { name: 'sa', uid: 'sa-uid' }, secretName: 'sa-token' };

  it('names claims as kube does, under the domain', () => {
    assert.deepEqual(signer.legacyClaims(input), {
      iss: 'orch/serviceaccount',
      'orch.io/serviceaccount/namespace': 'ns',
      'orch.io/serviceaccount/secret.name': 'sa-token',
      'orch.io/serviceaccount/service-account.name': 'sa',
      'orch.io/serviceaccount/service-account.uid': 'sa-uid',
      sub: 'system:serviceaccount:ns:sa',
    });
    const kube = apiDomain('k8s.io');
    const kubeSigner = new ServiceAccountTokenSigner({
      issuer: kube.legacyServiceAccountIssuer,
      key,
      claimName: kube.serviceAccountClaim,
    });
    assert.deepEqual(Object.keys(kubeSigner.legacyClaims(input)), [
      'iss',
      'kubernetes.io/serviceaccount/namespace',
      'kubernetes.io/serviceaccount/secret.name',
      'kubernetes.io/serviceaccount/service-account.name',
      'kubernetes.io/serviceaccount/service-account.uid',
      'sub',
    ]);
    assert.equal(kubeSigner.legacyClaims(input).iss, 'kubernetes/serviceaccount');
  });

  const setup = async (o: { lookup?: boolean; labels?: Record<string, string>; storedToken?: string } = {}) => {
    const token = await signer.signLegacy(input);
    const objects = tableObjectReader();
    objects.put('serviceaccounts', object('ServiceAccount', 'ns', 'sa', 'sa-uid'));
    objects.put(
      'secrets',
      object('Secret', 'ns', 'sa-token', 'secret-uid', {
        data: { token: Buffer.from(o.storedToken ?? token).toString('base64') },
      }),
    );
    if (o.labels) {
      const s = await objects.get({ group: '', version: 'v1', resource: 'secrets' }, 'ns', 'sa-token', signal);
      objects.put('secrets', { ...s!, metadata: { ...s!.metadata, labels: o.labels } });
    }
    const authn = new LegacyServiceAccountTokenAuthenticator({
      keys: [key],
      implicitAudiences: [AUD],
      lookup: o.lookup ?? true,
      objects,
      domain: ORCH_DOMAIN,
    });
    return { token, objects, authn };
  };

  it('authenticates the token stored in its Secret as the service account', async () => {
    const { token, authn } = await setup();
    assert.deepEqual(await authn.authenticateToken(token, { audiences: [], signal }), {
      kind: 'user',
      user: {
        name: 'system:serviceaccount:ns:sa',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
      },
      audiences: [AUD],
    });
  });

  it('refuses revoked, replaced, mismatched and invalidated tokens (kube messages)', async () => {
    const cases: [
      string,
      Parameters<typeof setup>[0],
      ((o: ReturnType<typeof tableObjectReader>) => void) | undefined,
      string,
    ][] = [
      ['secret deleted', {}, (o) => o.remove('secrets', 'ns', 'sa-token'), 'Token has been invalidated'],
      ['secret holds another token', { storedToken: 'other' }, undefined, "Token does not match server's copy"],
      [
        'account recreated',
        {},
        (o) => o.put('serviceaccounts', object('ServiceAccount', 'ns', 'sa', 'new-uid')),
        'ServiceAccount UID (new-uid) does not match claim (sa-uid)',
      ],
      ['account deleted', {}, (o) => o.remove('serviceaccounts', 'ns', 'sa'), 'serviceaccounts "sa" not found'],
      [
        'marked invalid',
        { labels: { 'orch.io/legacy-token-invalid-since': '2025-01-01' } },
        undefined,
        "the token in secret ns/sa-token for service account ns/sa has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the 'orch.io/legacy-token-invalid-since' label from the secret to temporarily allow use of this token",
      ],
    ];
    for (const [what, o, change, message] of cases) {
      const { token, objects, authn } = await setup(o);
      change?.(objects);
      assert.deepEqual(
        await authn.authenticateToken(token, { audiences: [], signal }),
        { kind: 'error', message },
        what,
      );
    }
  });

  it('skips the lookups without --service-account-lookup', async () => {
    const { token, objects, authn } = await setup({ lookup: false });
    objects.remove('secrets', 'ns', 'sa-token');
    assert.equal((await authn.authenticateToken(token, { audiences: [], signal })).kind, 'user');
  });

  it('has no opinion on other issuers; refuses foreign signatures, other audiences and inconsistent claims', async () => {
    const { authn } = await setup();
    const bound = new ServiceAccountTokenSigner({ issuer: AUD, key, claimName: 'orch.io' });
    const boundToken = (
      await bound.sign({
        namespace: 'ns',
        serviceAccount: { name: 'sa', uid: 'u' },
        audiences: [AUD],
        expirationSeconds: 60,
      })
    ).token;
    assert.deepEqual(await authn.authenticateToken(boundToken, { audiences: [], signal }), { kind: 'no-opinion' });
    assert.deepEqual(await authn.authenticateToken('not-a-jwt', { audiences: [], signal }), { kind: 'no-opinion' });

    const foreign = new ServiceAccountTokenSigner({
      issuer: 'orch/serviceaccount',
      key: newSigningKey(),
      claimName: 'orch.io',
    });
    const r = await authn.authenticateToken(await foreign.signLegacy(input), { audiences: [], signal });
    assert.deepEqual(r, { kind: 'error', message: 'go-jose/go-jose: error in cryptographic primitive' });

    const { token } = await setup();
    assert.deepEqual(await authn.authenticateToken(token, { audiences: ['elsewhere'], signal }), {
      kind: 'error',
      message: 'token audiences ["https://orch.test"] is invalid for the target audiences ["elsewhere"]',
    });

    const claims = { ...signer.legacyClaims(input), sub: 'system:serviceaccount:ns:someone-else' };
    const forged = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: key.alg, kid: key.kid })
      .sign(key.privateKey);
    assert.deepEqual(await authn.authenticateToken(forged, { audiences: [], signal }), {
      kind: 'error',
      message: 'sub claim is invalid',
    });
  });

  it('records the day of use in the last-used label unless it says today or tomorrow', async () => {
    const writes: string[] = [];
    const cases: [string | undefined, boolean][] = [
      [undefined, true],
      ['2025-06-01', true],
      ['2025-06-09', false],
      ['2025-06-10', false],
    ];
    for (const [lastUsed, written] of cases) {
      const { token, objects } = await setup({
        labels: lastUsed ? { 'orch.io/legacy-token-last-used': lastUsed } : {},
      });
      writes.length = 0;
      const authn = new LegacyServiceAccountTokenAuthenticator({
        keys: [key],
        implicitAudiences: [AUD],
        lookup: true,
        objects,
        domain: ORCH_DOMAIN,
        clock: { now: () => new Date('2025-06-09T23:30:00Z') },
        secretLabels: {
          async setLabels(namespace, name, uid, labels) {
            writes.push(`${namespace}/${name}/${uid} ${JSON.stringify(labels)}`);
          },
        },
      });
      assert.equal((await authn.authenticateToken(token, { audiences: [], signal })).kind, 'user');
      assert.deepEqual(
        writes,
        written ? ['ns/sa-token/secret-uid {"orch.io/legacy-token-last-used":"2025-06-09"}'] : [],
        String(lastUsed),
      );
    }
  });

  it('authenticates even when the label write fails', async () => {
    const { token, objects } = await setup();
    const authn = new LegacyServiceAccountTokenAuthenticator({
      keys: [key],
      implicitAudiences: [AUD],
      lookup: true,
      objects,
      domain: ORCH_DOMAIN,
      secretLabels: {
        setLabels: () => Promise.reject(new Error('etcd down')),
      },
    });
    assert.equal((await authn.authenticateToken(token, { audiences: [], signal })).kind, 'user');
  });
});
