import { createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import { TlsConfigError } from './errors.js';
import { type X509Module, x509 } from './x509-runtime.js';

/** A certificate and its private key, both PEM (the key as PKCS#8). */
export interface CertificateKeyPair {
  readonly cert: string;
  readonly key: string;
}

/** Validity and clock settings shared by every issuing function. */
export interface IssueTiming {
  /** Issuing time; default now. `notBefore` is one hour earlier to tolerate clock skew between hosts. */
  readonly now?: Date;
  /** Lifetime measured from `now`. */
  readonly validityMs?: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Default lifetime of a generated CA. */
export const DEFAULT_CA_VALIDITY_MS = 10 * 365 * DAY_MS;
/** Default lifetime of generated serving and client certificates. */
export const DEFAULT_LEAF_VALIDITY_MS = 365 * DAY_MS;

const EC_KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const EC_SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;
const RSA_SIGNING_ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
type SigningAlgorithm = typeof EC_SIGNING_ALGORITHM | typeof RSA_SIGNING_ALGORITHM;

interface Issuer {
  readonly cert: InstanceType<X509Module['X509Certificate']>;
  readonly key: CryptoKey;
  readonly algorithm: SigningAlgorithm;
}

/**
 * A positive 127-bit serial. Why the top bit is cleared: DER integers are signed, and Go's x509
 * parser (kubectl, client-go) rejects certificates whose serial encodes as negative.
 */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0] & 0x7f || 0x01;
  return bytes.toString('hex');
}

function validity(timing: IssueTiming, defaultMs: number): { now: number; notBefore: Date; notAfter: Date } {
  const now = timing.now?.getTime() ?? Date.now();
  return { now, notBefore: new Date(now - HOUR_MS), notAfter: new Date(now + (timing.validityMs ?? defaultMs)) };
}

async function generateEcKeyPair(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC_KEY_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

/** PEM text ending in a newline, so files and concatenated bundles stay well-formed. */
function withNewline(pem: string): string {
  return pem.endsWith('\n') ? pem : `${pem}\n`;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', key);
  return withNewline(x509().PemConverter.encode(pkcs8, 'PRIVATE KEY'));
}

/** Loads a CA pair (EC P-256/P-384 or RSA key, any PEM private-key encoding) for signing. */
async function loadIssuer(ca: CertificateKeyPair): Promise<Issuer> {
  try {
    const cert = new (x509().X509Certificate)(ca.cert);
    const keyObject = createPrivateKey(ca.key);
    const der = keyObject.export({ type: 'pkcs8', format: 'der' });
    if (keyObject.asymmetricKeyType === 'ec') {
      const curve = keyObject.asymmetricKeyDetails?.namedCurve;
      const namedCurve = curve === 'prime256v1' ? 'P-256' : curve === 'secp384r1' ? 'P-384' : undefined;
      if (!namedCurve) throw new Error(`unsupported EC curve ${curve}`);
      const key = await webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve }, false, ['sign']);
      return { cert, key, algorithm: EC_SIGNING_ALGORITHM };
    }
    if (keyObject.asymmetricKeyType === 'rsa') {
      const key = await webcrypto.subtle.importKey('pkcs8', der, RSA_SIGNING_ALGORITHM, false, ['sign']);
      return { cert, key, algorithm: RSA_SIGNING_ALGORITHM };
    }
    throw new Error(`unsupported CA key type ${keyObject.asymmetricKeyType}`);
  } catch (err) {
    throw new TlsConfigError(`cannot load CA for signing: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Creates a self-signed CA (EC P-256, SHA-256) able to sign serving and client certificates.
 * The subject is `CN=<commonName>@<unix seconds>` so a regenerated CA is distinguishable from its predecessor.
 */
export async function createCertificateAuthority(
  options: IssueTiming & { readonly commonName?: string } = {},
): Promise<CertificateKeyPair> {
  const keys = await generateEcKeyPair();
  const { now, notBefore, notAfter } = validity(options, DEFAULT_CA_VALIDITY_MS);
  const cn = `${options.commonName ?? 'orch-ca'}@${Math.floor(now / 1000)}`;
  const cert = await x509().X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name: [{ CN: [cn] }],
      notBefore,
      notAfter,
      keys,
      signingAlgorithm: EC_SIGNING_ALGORITHM,
      extensions: [
        new (x509().BasicConstraintsExtension)(true, undefined, true),
        new (x509().KeyUsagesExtension)(
          x509().KeyUsageFlags.keyCertSign | x509().KeyUsageFlags.cRLSign | x509().KeyUsageFlags.digitalSignature,
          true,
        ),
        await x509().SubjectKeyIdentifierExtension.create(keys.publicKey, false, webcrypto),
      ],
    },
    webcrypto,
  );
  return { cert: withNewline(cert.toString('pem')), key: await privateKeyPem(keys.privateKey) };
}

interface LeafSpec {
  readonly subject: Record<string, string[]>[];
  readonly usage: 'server' | 'client';
  readonly sans?: readonly string[];
}

async function issueLeaf(ca: CertificateKeyPair, spec: LeafSpec, timing: IssueTiming): Promise<CertificateKeyPair> {
  const issuer = await loadIssuer(ca);
  const keys = await generateEcKeyPair();
  const { notBefore, notAfter } = validity(timing, DEFAULT_LEAF_VALIDITY_MS);
  const extensions: InstanceType<X509Module['Extension']>[] = [
    new (x509().BasicConstraintsExtension)(false, undefined, true),
    new (x509().KeyUsagesExtension)(x509().KeyUsageFlags.digitalSignature, true),
    new (x509().ExtendedKeyUsageExtension)(
      [spec.usage === 'server' ? x509().ExtendedKeyUsage.serverAuth : x509().ExtendedKeyUsage.clientAuth],
      false,
    ),
    await x509().AuthorityKeyIdentifierExtension.create(issuer.cert, false, webcrypto),
    await x509().SubjectKeyIdentifierExtension.create(keys.publicKey, false, webcrypto),
  ];
  if (spec.sans && spec.sans.length > 0) {
    const names = spec.sans.map((value) => ({ type: isIP(value) ? ('ip' as const) : ('dns' as const), value }));
    extensions.push(new (x509().SubjectAlternativeNameExtension)(names, false));
  }
  const cert = await x509().X509CertificateGenerator.create(
    {
      serialNumber: serialNumber(),
      subject: spec.subject,
      // The issuer's encoded Name is reused as is: chain builders compare DN bytes.
      issuer: issuer.cert.subjectName,
      notBefore,
      notAfter,
      publicKey: keys.publicKey,
      signingKey: issuer.key,
      signingAlgorithm: issuer.algorithm,
      extensions,
    },
    webcrypto,
  );
  return { cert: withNewline(cert.toString('pem')), key: await privateKeyPem(keys.privateKey) };
}

/**
 * Issues a TLS serving certificate (EKU serverAuth) signed by `ca`. Each entry of `hostNames` becomes an
 * IP SAN when it parses as an IPv4/IPv6 address, otherwise a DNS SAN.
 */
export async function issueServingCertificate(
  options: IssueTiming & {
    readonly ca: CertificateKeyPair;
    readonly hostNames: readonly string[];
    readonly commonName?: string;
  },
): Promise<CertificateKeyPair> {
  return issueLeaf(
    options.ca,
    { subject: [{ CN: [options.commonName ?? 'orch-apiserver'] }], usage: 'server', sans: options.hostNames },
    options,
  );
}

/**
 * Issues a client certificate (EKU clientAuth) signed by `ca`: subject CN = `commonName` (the user name
 * the x509 authenticator derives) and one O attribute per entry of `organizations` (its groups).
 */
export async function issueClientCertificate(
  options: IssueTiming & {
    readonly ca: CertificateKeyPair;
    readonly commonName: string;
    readonly organizations?: readonly string[];
  },
): Promise<CertificateKeyPair> {
  const subject: Record<string, string[]>[] = [{ CN: [options.commonName] }];
  for (const o of options.organizations ?? []) subject.push({ O: [o] });
  return issueLeaf(options.ca, { subject, usage: 'client' }, options);
}
