// @peculiar/x509 resolves its algorithm providers through tsyringe, which needs the
// reflect-metadata polyfill evaluated first.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

/** A PEM certificate and its PKCS#8 PEM private key. */
export interface ServingCertificate {
  readonly cert: string;
  readonly key: string;
}

const HOUR_MS = 3_600_000;
const YEAR_MS = 365 * 24 * HOUR_MS;
const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

/**
 * A self-signed serving certificate kept in memory, as kube-controller-manager makes when no
 * `--tls-cert-file` is given (kube: `localhost@<unix seconds>` signed by a throw-away
 * `localhost-ca@<unix seconds>`; here one self-signed certificate of that name), valid for
 * `localhost` and `127.0.0.1` plus `hostNames`, for a year (EC P-256, SHA-256).
 */
export async function selfSignedServingCertificate(
  options: { readonly now?: Date; readonly hostNames?: readonly string[] } = {},
): Promise<ServingCertificate> {
  const now = options.now?.getTime() ?? Date.now();
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const serial = randomBytes(16);
  serial[0] = serial[0] & 0x7f || 0x01;
  const names = [...new Set(['localhost', '127.0.0.1', ...(options.hostNames ?? [])])];
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial.toString('hex'),
      name: [{ CN: [`localhost@${Math.floor(now / 1000)}`] }],
      notBefore: new Date(now - HOUR_MS),
      notAfter: new Date(now + YEAR_MS),
      keys,
      signingAlgorithm: SIGNING,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
        new x509.SubjectAlternativeNameExtension(
          names.map((value) => ({ type: isIP(value) ? ('ip' as const) : ('dns' as const), value })),
          false,
        ),
      ],
    },
    webcrypto,
  );
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { cert: `${cert.toString('pem')}\n`, key: `${x509.PemConverter.encode(pkcs8, 'PRIVATE KEY')}\n` };
}
