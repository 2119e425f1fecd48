import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import { apiDomain } from '../../apis/api-domain.js';
import { manualClock, newSigningKey } from './testing/fixtures.js';
import { ServiceAccountTokenSigner } from './token-signer.js';

const clock = manualClock(new Date('2026-03-01T10:00:00.750Z'));
const NOW = Date.parse('2026-03-01T10:00:00Z') / 1000;

describe('ServiceAccountTokenSigner', () => {
  for (const type of ['ec', 'rsa'] as const) {
    it(`signs with ${type === 'ec' ? 'ES256' : 'RS256'} and kube's kid, verifiable with the public key`, async () => {
      const key = newSigningKey(type);
      const signer = new ServiceAccountTokenSigner({ issuer: 'https://issuer', key, claimName: 'orch.io', clock });
      const { token } = await signer.sign({
        namespace: 'ns',
        serviceAccount: { name: 'sa', uid: 'u1' },
        audiences: ['a'],
        expirationSeconds: 600,
      });
      assert.deepEqual(decodeProtectedHeader(token), { alg: type === 'ec' ? 'ES256' : 'RS256', kid: key.kid });
      await compactVerify(token, key.key);
    });
  }

  const cases = [
    {
      name: 'secret-bound, kube profile',
      domain: 'k8s.io' as const,
      input: { secret: { name: 's', uid: 'su' } },
      priv: { namespace: 'ns', secret: { name: 's', uid: 'su' }, serviceaccount: { name: 'sa', uid: 'u1' } },
    },
    {
      name: 'pod-bound with its node and warnafter, orch profile',
      domain: 'orch.io' as const,
      input: { pod: { name: 'p', uid: 'pu' }, node: { name: 'n', uid: '' }, warnAfterSeconds: 3607 },
      priv: {
        namespace: 'ns',
        node: { name: 'n' },
        pod: { name: 'p', uid: 'pu' },
        serviceaccount: { name: 'sa', uid: 'u1' },
        warnafter: NOW + 3607,
      },
    },
  ];
  for (const c of cases) {
    it(`claims: ${c.name}`, async () => {
      const domain = apiDomain(c.domain);
      const signer = new ServiceAccountTokenSigner({
        issuer: 'https://issuer',
        key: newSigningKey(),
        claimName: domain.serviceAccountClaim,
        clock,
        newId: () => 'id-1',
      });
      const { token, issuedAt } = await signer.sign({
        namespace: 'ns',
        serviceAccount: { name: 'sa', uid: 'u1' },
        audiences: ['a', 'b'],
        expirationSeconds: 3600,
        ...c.input,
      });
      assert.equal(issuedAt.getTime(), NOW * 1000);
      const claims = decodeJwt(token);
      assert.deepEqual(claims, {
        aud: ['a', 'b'],
        exp: NOW + 3600,
        iat: NOW,
        iss: 'https://issuer',
        jti: 'id-1',
        [c.domain === 'k8s.io' ? 'kubernetes.io' : 'orch.io']: c.priv,
        nbf: NOW,
        sub: 'system:serviceaccount:ns:sa',
      });
      // Go's encoder writes object keys sorted.
      assert.deepEqual(Object.keys(claims), [...Object.keys(claims)].sort());
    });
  }

  it('refuses a token bound to a secret and a pod at once', () => {
    const signer = new ServiceAccountTokenSigner({ issuer: 'i', key: newSigningKey(), claimName: 'orch.io' });
    assert.throws(
      () =>
        signer.claims({
          namespace: 'ns',
          serviceAccount: { name: 'sa', uid: 'u' },
          secret: { name: 's', uid: 'x' },
          pod: { name: 'p', uid: 'y' },
          audiences: [],
          expirationSeconds: 600,
        }),
      /token can only be bound to one object type/,
    );
  });
});
