import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync, webcrypto, X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  type CertificateKeyPair,
  createCertificateAuthority,
  issueClientCertificate,
  issueServingCertificate,
} from './certificate-factory.js';
import { TlsConfigError } from './errors.js';
import { x509 } from './x509-runtime.js';

/** The certificate as an independent parser (@peculiar/x509) reads it. */
function parsed(pem: string) {
  return new (x509().X509Certificate)(pem);
}

function extensionOf<T>(pem: string, type: new (...args: never[]) => T): T {
  const ext = parsed(pem).getExtension(type as never) as T | null;
  assert.ok(ext, `missing ${type.name}`);
  return ext;
}

/** An RSA CA made with the independent library, to issue from. */
async function rsaCa(): Promise<CertificateKeyPair> {
  const lib = x509();
  const alg = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await lib.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: '01',
      name: 'CN=rsa-ca',
      keys,
      signingAlgorithm: alg,
      extensions: [new lib.BasicConstraintsExtension(true, undefined, true)],
    },
    webcrypto,
  );
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { cert: cert.toString('pem'), key: lib.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

describe('certificate factory', () => {
  it('creates a self-signed EC CA with the CA extensions', async () => {
    const now = new Date(Date.UTC(2026, 5, 1, 12, 0, 0, 123));
    const ca = await createCertificateAuthority({ now, commonName: 'test-ca' });
    const cert = new X509Certificate(ca.cert);
    assert.equal(cert.subject, `CN=test-ca@${Math.floor(now.getTime() / 1000)}`);
    assert.equal(cert.issuer, cert.subject);
    assert.equal(cert.ca, true);
    assert.ok(cert.verify(cert.publicKey), 'self-signature verifies');
    assert.equal(new Date(cert.validFrom).getTime(), now.getTime() - 123 - 3_600_000);
    assert.equal(cert.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.match(ca.key, /^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
    assert.match(
      ca.cert,
      /^-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{64}\n)*[A-Za-z0-9+/=]{1,64}\n-----END CERTIFICATE-----\n$/,
    );
    const lib = x509();
    const bc = extensionOf(ca.cert, lib.BasicConstraintsExtension);
    assert.deepEqual([bc.ca, bc.critical, bc.pathLength], [true, true, undefined]);
    const ku = extensionOf(ca.cert, lib.KeyUsagesExtension);
    const F = lib.KeyUsageFlags;
    assert.deepEqual([ku.usages, ku.critical], [F.keyCertSign | F.cRLSign | F.digitalSignature, true]);
    const ski = extensionOf(ca.cert, lib.SubjectKeyIdentifierExtension);
    const expected = await (await parsed(ca.cert).publicKey).getKeyIdentifier(webcrypto);
    assert.equal(ski.keyId, Buffer.from(expected).toString('hex'));
  });

  const leaves: [string, (ca: CertificateKeyPair) => Promise<CertificateKeyPair>, string, string][] = [
    [
      'a serving certificate with DNS and IP SANs',
      (ca) =>
        issueServingCertificate({ ca, hostNames: ['localhost', 'orch.example', '127.0.0.1', '::1', 'fd00::a:1'] }),
      'CN=orch-apiserver',
      '1.3.6.1.5.5.7.3.1',
    ],
    [
      'a client certificate with one O per group',
      (ca) => issueClientCertificate({ ca, commonName: 'jane', organizations: ['system:masters', 'dev team'] }),
      'CN=jane\nO=system:masters\nO=dev team',
      '1.3.6.1.5.5.7.3.2',
    ],
  ];
  for (const [name, issue, subject, eku] of leaves) {
    for (const [caKind, makeCa] of [
      ['EC', () => createCertificateAuthority()],
      ['RSA', rsaCa],
    ] as const) {
      it(`issues ${name} from an ${caKind} CA`, async () => {
        const ca = await makeCa();
        const leaf = await issue(ca);
        const caCert = new X509Certificate(ca.cert);
        const cert = new X509Certificate(leaf.cert);
        assert.ok(cert.checkIssued(caCert) && cert.verify(caCert.publicKey), 'signed by the CA');
        assert.equal(cert.subject, subject);
        assert.equal(cert.ca, false);
        assert.deepEqual(cert.keyUsage, [eku]);
        assert.ok(cert.checkPrivateKey(createPrivateKey(leaf.key)));
        const lib = x509();
        const bc = extensionOf(leaf.cert, lib.BasicConstraintsExtension);
        assert.deepEqual([bc.ca, bc.critical], [false, true]);
        const ku = extensionOf(leaf.cert, lib.KeyUsagesExtension);
        assert.deepEqual([ku.usages, ku.critical], [lib.KeyUsageFlags.digitalSignature, true]);
        // The authority key identifier is the issuer's key identifier, as the library computes it.
        const aki = extensionOf(leaf.cert, lib.AuthorityKeyIdentifierExtension);
        const issuerId = await (await parsed(ca.cert).publicKey).getKeyIdentifier(webcrypto);
        assert.equal(aki.keyId, Buffer.from(issuerId).toString('hex'));
        // The issuer Name bytes are the CA's subject bytes.
        assert.equal(
          Buffer.from(parsed(leaf.cert).issuerName.toArrayBuffer()).toString('hex'),
          Buffer.from(parsed(ca.cert).subjectName.toArrayBuffer()).toString('hex'),
        );
      });
    }
  }

  it('writes each SAN as the right general name', async () => {
    const ca = await createCertificateAuthority();
    const hostNames = ['localhost', '10.0.0.1', '::1', 'fe80::1:2', '::ffff:10.0.0.1', '2001:db8::'];
    const cert = new X509Certificate((await issueServingCertificate({ ca, hostNames })).cert);
    assert.equal(
      cert.subjectAltName,
      'DNS:localhost, IP Address:10.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:FE80:0:0:0:0:0:1:2, IP Address:0:0:0:0:0:FFFF:A00:1, IP Address:2001:DB8:0:0:0:0:0:0',
    );
  });

  const badCas: [string, () => CertificateKeyPair][] = [
    ['a certificate that is not PEM', () => ({ cert: 'nope', key: 'nope' })],
    [
      'an Ed25519 key',
      () => ({
        cert: '',
        key: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      }),
    ],
  ];
  for (const [name, make] of badCas) {
    it(`refuses to sign with ${name}`, async () => {
      const ca = make();
      const good = await createCertificateAuthority();
      const withCert = ca.cert === '' ? { ...ca, cert: good.cert } : ca;
      await assert.rejects(
        issueClientCertificate({ ca: withCert, commonName: 'x' }),
        (e: unknown) => e instanceof TlsConfigError && /^cannot load CA for signing: /.test(e.message),
      );
    });
  }
});
