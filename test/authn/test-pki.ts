import { createPrivateKey, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import type { PeerCertificate } from '../../src/authn/authenticator.js';
import {
  type CertificateKeyPair,
  createCertificateAuthority,
  type IssueTiming,
  issueClientCertificate,
} from '../../src/server/tls/certificate-factory.js';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

export type { CertificateKeyPair };
export { createCertificateAuthority };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A client certificate for `cn` in `orgs` from `ca`, valid now unless `timing` says otherwise. */
export function clientCert(
  ca: CertificateKeyPair,
  cn: string,
  orgs: readonly string[] = [],
  timing: IssueTiming = {},
): Promise<CertificateKeyPair> {
  return issueClientCertificate({ ca, commonName: cn, organizations: orgs, ...timing });
}

/** Timing of a certificate that expired yesterday. */
export const EXPIRED: IssueTiming = { now: new Date(Date.now() - 2 * DAY), validityMs: DAY };
/** Timing of a certificate valid only from an hour from now. */
export const NOT_YET_VALID: IssueTiming = { now: new Date(Date.now() + 2 * HOUR), validityMs: DAY };

/** An intermediate CA signed by `root` (EC P-256), as PEM pair. */
export async function intermediateCa(root: CertificateKeyPair, cn: string): Promise<CertificateKeyPair> {
  const rootCert = new x509.X509Certificate(root.cert);
  const der = createPrivateKey(root.key).export({ type: 'pkcs8', format: 'der' });
  const signingKey = await webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
  ]);
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const serial = randomBytes(16);
  serial[0] = (serial[0] as number) & 0x7f || 1;
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serial.toString('hex'),
      subject: [{ CN: [cn] }],
      issuer: rootCert.subjectName,
      notBefore: new Date(Date.now() - HOUR),
      notAfter: new Date(Date.now() + 30 * DAY),
      publicKey: keys.publicKey,
      signingKey,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
        await x509.AuthorityKeyIdentifierExtension.create(rootCert, false, webcrypto),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, webcrypto),
      ],
    },
    webcrypto,
  );
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { cert: `${cert.toString('pem')}\n`, key: `${x509.PemConverter.encode(pkcs8, 'PRIVATE KEY')}\n` };
}

/** A `PeerCertificate` as the TLS layer would build it for `leafPem` presented with `chainPems`. */
export function peerOf(leafPem: string, chainPems: readonly string[] = []): PeerCertificate {
  const leaf = new X509Certificate(leafPem);
  const subject = Object.fromEntries(
    leaf.subject.split('\n').reduce<[string, string[]][]>((acc, line) => {
      const [k, v] = line.split('=') as [string, string];
      const found = acc.find(([key]) => key === k);
      if (found) found[1].push(v);
      else acc.push([k, [v]]);
      return acc;
    }, []),
  );
  return {
    authorized: true,
    authorizationError: undefined,
    commonName: subject.CN?.[0],
    organizations: subject.O ?? [],
    notBefore: new Date(leaf.validFrom),
    notAfter: new Date(leaf.validTo),
    serialNumber: leaf.serialNumber,
    fingerprint256: leaf.fingerprint256,
    raw: leaf.raw,
    issuerChain: chainPems.map((p) => new X509Certificate(p).raw),
  };
}
