import {
  createHash,
  createPrivateKey,
  generateKeyPair,
  type KeyObject,
  randomBytes,
  sign,
  X509Certificate,
} from 'node:crypto';
import { isIP } from 'node:net';
import {
  bitString,
  boolean,
  children,
  contextTag,
  type Der,
  directoryString,
  namedBits,
  nullValue,
  octetString,
  oid,
  readElement,
  sequence,
  setOf,
  smallInteger,
  time,
  unsignedInteger,
} from './der.js';
import { TlsConfigError } from './errors.js';

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

/*
 * Certificates are encoded here (der.ts) and signed with node:crypto: issuing loads no ASN.1
 * library, which matters on a first start, when the CA, serving and admin certificates are made.
 */
const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  authorityKeyIdentifier: '2.5.29.35',
  subjectKeyIdentifier: '2.5.29.14',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

/** RFC 5280 KeyUsage bit numbers. */
const KEY_USAGE = { digitalSignature: 0, keyCertSign: 5, cRLSign: 6 } as const;

/** How a key signs: the AlgorithmIdentifier written into the certificate. */
interface Signer {
  readonly key: KeyObject;
  readonly algorithm: Der;
}

interface Issuer {
  /** The issuer certificate's subject Name, as encoded there. */
  readonly name: Der;
  /** RFC 5280 key identifier (SHA-1 of the subjectPublicKey bits) of the issuer's public key. */
  readonly keyId: Buffer;
  readonly signer: Signer;
}

const ECDSA_SHA256 = sequence(oid(OID.ecdsaWithSha256));
const RSA_SHA256 = sequence(oid(OID.sha256WithRsa), nullValue());

/**
 * A positive 127-bit serial. Why the top bit is cleared: DER integers are signed, and Go's x509
 * parser (kubectl, client-go) rejects certificates whose serial encodes as negative.
 */
function serialNumber(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f || 0x01;
  return bytes;
}

function validity(timing: IssueTiming, defaultMs: number): { now: number; notBefore: Date; notAfter: Date } {
  const now = timing.now?.getTime() ?? Date.now();
  return { now, notBefore: new Date(now - HOUR_MS), notAfter: new Date(now + (timing.validityMs ?? defaultMs)) };
}

function generateEcKeyPair(): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  return new Promise((resolve, reject) =>
    generateKeyPair('ec', { namedCurve: 'prime256v1' }, (err, publicKey, privateKey) =>
      err ? reject(err) : resolve({ publicKey, privateKey }),
    ),
  );
}

/** PEM text ending in a newline, so files and concatenated bundles stay well-formed. */
function withNewline(pem: string): string {
  return pem.endsWith('\n') ? pem : `${pem}\n`;
}

function certificatePem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function privateKeyPem(key: KeyObject): string {
  return withNewline(key.export({ type: 'pkcs8', format: 'pem' }) as string);
}

/** The SubjectPublicKeyInfo (DER) of a public key, and its RFC 5280 key identifier. */
function publicKeyInfo(key: KeyObject): { spki: Buffer; keyId: Buffer } {
  const spki = key.export({ type: 'spki', format: 'der' });
  const bits = children(readElement(spki).contents)[1];
  if (bits?.tag !== 0x03) throw new TlsConfigError('public key without a subjectPublicKey bit string');
  // Method 1 of RFC 5280 4.2.1.2: SHA-1 of the key bits, without the unused-bits count.
  return { spki, keyId: createHash('sha1').update(bits.contents.subarray(1)).digest() };
}

/** A Name of one single-valued RDN per attribute, in order. */
function name(attributes: readonly (readonly [string, string])[]): Der {
  return sequence(...attributes.map(([type, value]) => setOf(sequence(oid(type), directoryString(value)))));
}

function extension(id: string, critical: boolean, value: Der): Der {
  return critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value));
}

/** An IP address as the 4 or 16 bytes of an iPAddress general name. */
function ipBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail] = address.split('%')[0]!.split('::') as [string, string | undefined];
  const groups = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((g) => {
      if (!g.includes('.')) return [Number.parseInt(g, 16)];
      const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const out = Buffer.alloc(16);
  for (let i = 0; i < all.length; i++) out.writeUInt16BE(all[i]!, 2 * i);
  return out;
}

interface CertificateSpec {
  readonly subject: Der;
  readonly issuer: Der;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly spki: Buffer;
  readonly extensions: readonly Der[];
  readonly signer: Signer;
}

/** A signed X.509 v3 certificate (DER). */
function certificate(spec: CertificateSpec): Buffer {
  const tbs = sequence(
    contextTag(0, smallInteger(2), true),
    unsignedInteger(serialNumber()),
    spec.signer.algorithm,
    spec.issuer,
    sequence(time(spec.notBefore), time(spec.notAfter)),
    spec.subject,
    spec.spki,
    contextTag(3, sequence(...spec.extensions), true),
  );
  const signature = sign('sha256', tbs, spec.signer.key);
  return sequence(tbs, spec.signer.algorithm, bitString(signature));
}

/** Loads a CA pair (EC P-256/P-384 or RSA key, any PEM private-key encoding) for signing. */
function loadIssuer(ca: CertificateKeyPair): Issuer {
  try {
    const cert = new X509Certificate(ca.cert);
    const tbs = children(readElement(cert.raw).contents)[0];
    if (!tbs) throw new Error('certificate without a TBSCertificate');
    const fields = children(tbs.contents);
    // version [0] (optional), serialNumber, signature, issuer, validity, subject.
    const subject = fields[fields[0]?.tag === 0xa0 ? 5 : 4];
    if (!subject) throw new Error('certificate without a subject');
    const key = createPrivateKey(ca.key);
    let algorithm: Der;
    if (key.asymmetricKeyType === 'ec') {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      if (curve !== 'prime256v1' && curve !== 'secp384r1') throw new Error(`unsupported EC curve ${curve}`);
      algorithm = ECDSA_SHA256;
    } else if (key.asymmetricKeyType === 'rsa') {
      algorithm = RSA_SHA256;
    } else {
      throw new Error(`unsupported CA key type ${key.asymmetricKeyType}`);
    }
    return { name: subject.encoded, keyId: publicKeyInfo(cert.publicKey).keyId, signer: { key, algorithm } };
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
  const subject = name([[OID.commonName, `${options.commonName ?? 'orch-ca'}@${Math.floor(now / 1000)}`]]);
  const { spki, keyId } = publicKeyInfo(keys.publicKey);
  const der = certificate({
    subject,
    issuer: subject,
    notBefore,
    notAfter,
    spki,
    extensions: [
      extension(OID.basicConstraints, true, sequence(boolean(true))),
      extension(OID.keyUsage, true, namedBits([KEY_USAGE.digitalSignature, KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign])),
      extension(OID.subjectKeyIdentifier, false, octetString(keyId)),
    ],
    signer: { key: keys.privateKey, algorithm: ECDSA_SHA256 },
  });
  return { cert: certificatePem(der), key: privateKeyPem(keys.privateKey) };
}

interface LeafSpec {
  readonly subject: readonly (readonly [string, string])[];
  readonly usage: 'server' | 'client';
  readonly sans?: readonly string[];
}

async function issueLeaf(ca: CertificateKeyPair, spec: LeafSpec, timing: IssueTiming): Promise<CertificateKeyPair> {
  const issuer = loadIssuer(ca);
  const keys = await generateEcKeyPair();
  const { notBefore, notAfter } = validity(timing, DEFAULT_LEAF_VALIDITY_MS);
  const { spki, keyId } = publicKeyInfo(keys.publicKey);
  const extensions = [
    // cA FALSE is the default, so DER leaves it out: an empty SEQUENCE.
    extension(OID.basicConstraints, true, sequence()),
    extension(OID.keyUsage, true, namedBits([KEY_USAGE.digitalSignature])),
    extension(OID.extKeyUsage, false, sequence(oid(spec.usage === 'server' ? OID.serverAuth : OID.clientAuth))),
    extension(OID.authorityKeyIdentifier, false, sequence(contextTag(0, issuer.keyId, false))),
    extension(OID.subjectKeyIdentifier, false, octetString(keyId)),
  ];
  if (spec.sans && spec.sans.length > 0) {
    // dNSName [2] IA5String, iPAddress [7] OCTET STRING (both implicit).
    const names = spec.sans.map((value) =>
      isIP(value) ? contextTag(7, ipBytes(value), false) : contextTag(2, Buffer.from(value, 'latin1'), false),
    );
    extensions.push(extension(OID.subjectAltName, false, sequence(...names)));
  }
  const der = certificate({
    subject: name(spec.subject),
    // The issuer's encoded Name is reused as is: chain builders compare DN bytes.
    issuer: issuer.name,
    notBefore,
    notAfter,
    spki,
    extensions,
    signer: issuer.signer,
  });
  return { cert: certificatePem(der), key: privateKeyPem(keys.privateKey) };
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
    { subject: [[OID.commonName, options.commonName ?? 'orch-apiserver']], usage: 'server', sans: options.hostNames },
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
  const subject: (readonly [string, string])[] = [[OID.commonName, options.commonName]];
  for (const o of options.organizations ?? []) subject.push([OID.organization, o]);
  return issueLeaf(options.ca, { subject, usage: 'client' }, options);
}
