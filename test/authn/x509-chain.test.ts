// Chain verification of client certificates against one trust bundle (unit table).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { TrustBundle, UNKNOWN_AUTHORITY } from '../../src/authn/x509-chain.js';
import { issueServingCertificate } from '../../src/server/tls/certificate-factory.js';
import {
  type CertificateKeyPair,
  clientCert,
  createCertificateAuthority,
  EXPIRED,
  intermediateCa,
  peerOf,
} from './test-pki.js';

describe('TrustBundle.verifyPeer', () => {
  let caA: CertificateKeyPair;
  let caB: CertificateKeyPair;
  let foreign: CertificateKeyPair;
  let inter: CertificateKeyPair;
  before(async () => {
    [caA, caB, foreign] = await Promise.all([
      createCertificateAuthority({ commonName: 'a' }),
      createCertificateAuthority({ commonName: 'b' }),
      createCertificateAuthority({ commonName: 'foreign' }),
    ]);
    inter = await intermediateCa(caA, 'intermediate');
  });

  const cases: {
    name: string;
    peer: () => Promise<ReturnType<typeof peerOf>>;
    bundle: () => string;
    ok: boolean | string;
  }[] = [
    {
      name: 'a leaf of the only CA',
      peer: async () => peerOf((await clientCert(caA, 'u')).cert),
      bundle: () => caA.cert,
      ok: true,
    },
    {
      name: 'a leaf of the second CA of a bundle',
      peer: async () => peerOf((await clientCert(caB, 'u')).cert),
      bundle: () => caA.cert + caB.cert,
      ok: true,
    },
    {
      name: 'a leaf of a foreign CA',
      peer: async () => peerOf((await clientCert(foreign, 'u')).cert),
      bundle: () => caA.cert + caB.cert,
      ok: UNKNOWN_AUTHORITY,
    },
    {
      name: 'a leaf of a foreign CA presenting that CA',
      peer: async () => peerOf((await clientCert(foreign, 'u')).cert, [foreign.cert]),
      bundle: () => caA.cert,
      ok: UNKNOWN_AUTHORITY,
    },
    {
      name: 'a leaf through a presented intermediate',
      peer: async () => peerOf((await clientCert(inter, 'u')).cert, [inter.cert]),
      bundle: () => caA.cert,
      ok: true,
    },
    {
      name: 'a leaf of an intermediate not presented',
      peer: async () => peerOf((await clientCert(inter, 'u')).cert),
      bundle: () => caA.cert,
      ok: UNKNOWN_AUTHORITY,
    },
    {
      name: 'a serving certificate (no clientAuth usage)',
      peer: async () => peerOf((await issueServingCertificate({ ca: caA, hostNames: ['localhost'] })).cert),
      bundle: () => caA.cert,
      ok: 'x509: certificate specifies an incompatible key usage',
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.ok === true ? 'verified' : c.ok}`, async () => {
      const result = new TrustBundle(c.bundle()).verifyPeer(await c.peer());
      if (c.ok === true) assert.equal(result.ok, true);
      else assert.deepEqual(result, { ok: false, message: c.ok });
    });
  }

  it('reports the chain’s validity window, leaf included', async () => {
    const leaf = await clientCert(caA, 'u', [], EXPIRED);
    const result = new TrustBundle(caA.cert).verifyPeer(peerOf(leaf.cert));
    assert.equal(result.ok, true);
    if (result.ok) assert.ok(result.validTo < Date.now());
  });

  it('rejects a bundle block that does not parse', () => {
    assert.throws(
      () => new TrustBundle('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'),
      /certificate 1 of the bundle does not parse/,
    );
  });
});
