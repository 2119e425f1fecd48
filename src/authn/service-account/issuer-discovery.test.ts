import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IssuerDiscoveryError, issuerDiscoveryDocuments } from './issuer-discovery.js';
import { newSigningKey } from './testing/fixtures.js';

describe('issuerDiscoveryDocuments', () => {
  it("renders kube's configuration and a key set of every public key", () => {
    const ec = newSigningKey('ec');
    const rsa = newSigningKey('rsa');
    const docs = issuerDiscoveryDocuments('https://issuer.example/path', '10.0.0.1:6443', [ec, rsa, ec]);
    assert.deepEqual(JSON.parse(docs.configuration), {
      issuer: 'https://issuer.example/path',
      jwks_uri: 'https://10.0.0.1:6443/openid/v1/jwks',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256', 'RS256'],
    });
    const keys = JSON.parse(docs.jwks).keys as Record<string, string>[];
    assert.deepEqual(
      keys.map((k) => [k.kid, k.alg, k.use]),
      [
        [ec.kid, 'ES256', 'sig'],
        [rsa.kid, 'RS256', 'sig'],
        [ec.kid, 'ES256', 'sig'],
      ],
    );
    assert.ok(
      keys.every((k) => k.d === undefined && k.p === undefined),
      'no private members',
    );
  });

  const refused: [string, string][] = [
    ['http://issuer', 'issuer URL must use https scheme, got: http://issuer'],
    ['orch/serviceaccount', 'issuer URL must use https scheme, got: orch/serviceaccount'],
    ['https://issuer?x=1', 'issuer URL may not include a query, got: https://issuer?x=1'],
  ];
  for (const [issuer, message] of refused) {
    it(`refuses ${issuer}`, () => {
      assert.throws(
        () => issuerDiscoveryDocuments(issuer, 'h:1', [newSigningKey()]),
        (e: unknown) => e instanceof IssuerDiscoveryError && e.message === message,
      );
    });
  }
});
