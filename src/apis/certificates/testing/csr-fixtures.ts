import { webcrypto } from 'node:crypto';
import { x509 } from '../x509-runtime.js';

/** Test helpers: a PEM PKCS#10 request signed by a fresh key, base64 as the API carries it. */

export type KeyKind = 'ecdsa' | 'rsa' | 'ed25519';

const ALGORITHMS: Record<
  KeyKind,
  {
    generate: webcrypto.EcKeyGenParams | webcrypto.RsaHashedKeyGenParams | webcrypto.Algorithm;
    sign: webcrypto.Algorithm | webcrypto.EcdsaParams;
  }
> = {
  ecdsa: {
    generate: { name: 'ECDSA', namedCurve: 'P-256' },
    sign: { name: 'ECDSA', hash: 'SHA-256' } as webcrypto.EcdsaParams,
  },
  rsa: {
    generate: {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    sign: { name: 'RSASSA-PKCS1-v1_5' },
  },
  ed25519: { generate: { name: 'Ed25519' }, sign: { name: 'Ed25519' } },
};

/** A PEM certificate request for `cn` (organizations as groups). */
export async function csrPem(cn: string, kind: KeyKind = 'ecdsa', organizations: string[] = []): Promise<string> {
  const alg = ALGORITHMS[kind];
  const keys = (await webcrypto.subtle.generateKey(alg.generate, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const name = [`CN=${cn}`, ...organizations.map((o) => `O=${o}`)].join(', ');
  const req = await x509().Pkcs10CertificateRequestGenerator.create(
    { name, keys, signingAlgorithm: alg.sign },
    webcrypto,
  );
  return `${req.toString('pem')}\n`;
}

/** `spec.request` of a request for `cn`: the PEM, base64-encoded. */
export async function csrRequestField(
  cn: string,
  kind: KeyKind = 'ecdsa',
  organizations: string[] = [],
): Promise<string> {
  return Buffer.from(await csrPem(cn, kind, organizations)).toString('base64');
}

/** A PEM request whose signature no longer matches its content (one signature byte flipped). */
export async function tamperedCsrPem(cn: string): Promise<string> {
  const der = Buffer.from(x509().PemConverter.decodeFirst(await csrPem(cn)));
  der[der.length - 5] ^= 0xff;
  return `${x509().PemConverter.encode(der, 'CERTIFICATE REQUEST')}\n`;
}
