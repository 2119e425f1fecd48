import { constants, createPublicKey, type KeyObject, verify, X509Certificate } from 'node:crypto';
import { decodePem, derChildren, oidString, readDer } from './pem-blocks.js';
import { type X509Module, x509 } from './x509-runtime.js';

/**
 * The checks kube's CSR validation makes of `spec.request` and `status.certificate`, with Go's
 * error texts where Orch can know them: the request is the first PEM block, of type
 * `CERTIFICATE REQUEST`, holding a PKCS#10 request whose self-signature verifies.
 */

interface SignatureScheme {
  readonly hash: string | null;
  readonly kind: 'rsa' | 'rsa-pss' | 'ecdsa' | 'ed25519';
}

/** Signature algorithms Go's `CheckSignature` verifies for CSRs. */
const SCHEMES: Readonly<Record<string, SignatureScheme>> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', kind: 'rsa' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', kind: 'rsa' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', kind: 'rsa' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', kind: 'rsa' },
  '1.2.840.113549.1.1.10': { hash: null, kind: 'rsa-pss' },
  '1.2.840.10045.4.1': { hash: 'sha1', kind: 'ecdsa' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', kind: 'ecdsa' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', kind: 'ecdsa' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', kind: 'ecdsa' },
  '1.3.101.112': { hash: null, kind: 'ed25519' },
};

const FAILURES: Readonly<Record<SignatureScheme['kind'], string>> = {
  rsa: 'crypto/rsa: verification error',
  'rsa-pss': 'crypto/rsa: verification error',
  ecdsa: 'x509: ECDSA verification failure',
  ed25519: 'x509: Ed25519 verification failure',
};

/** The parts of a DER CertificationRequest signature checking needs. */
interface RawRequest {
  readonly tbs: Buffer;
  readonly algorithm: string;
  readonly signature: Buffer;
}

function splitRequest(der: Buffer): RawRequest | undefined {
  const outer = readDer(der, 0);
  if (outer?.tag !== 0x30 || outer.end !== der.length) return undefined;
  const parts = derChildren(der, outer);
  if (parts?.length !== 3 || parts[0].tag !== 0x30 || parts[1].tag !== 0x30 || parts[2].tag !== 0x03) return undefined;
  const algParts = derChildren(der, parts[1]);
  if (!algParts || algParts.length === 0 || algParts[0].tag !== 0x06) return undefined;
  const sigBits = der.subarray(parts[2].contentStart, parts[2].end);
  if (sigBits.length === 0 || sigBits[0] !== 0) return undefined;
  return {
    tbs: der.subarray(parts[0].start, parts[0].end),
    algorithm: oidString(der.subarray(algParts[0].contentStart, algParts[0].end)),
    signature: sigBits.subarray(1),
  };
}

function verifies(scheme: SignatureScheme, key: KeyObject, raw: RawRequest, psHash: string): boolean {
  switch (scheme.kind) {
    case 'ed25519':
      return verify(null, raw.tbs, key, raw.signature);
    case 'rsa-pss':
      return verify(
        psHash,
        raw.tbs,
        { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO },
        raw.signature,
      );
    default:
      return verify(scheme.hash, raw.tbs, key, raw.signature);
  }
}

/**
 * Go's `certificates.ParseCSR` then `CheckSignature` on the request bytes: undefined when the
 * request is a PEM `CERTIFICATE REQUEST` whose signature verifies, else the error text.
 */
export function checkCertificateRequest(request: Buffer): string | undefined {
  const decoded = decodePem(request.toString('latin1'));
  if (decoded?.block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  const der = decoded.block.bytes;
  const raw = splitRequest(der);
  let parsed: InstanceType<X509Module['Pkcs10CertificateRequest']>;
  try {
    parsed = new (x509().Pkcs10CertificateRequest)(new Uint8Array(der));
  } catch {
    return 'x509: malformed certificate request';
  }
  if (!raw) return 'x509: malformed certificate request';
  const scheme = SCHEMES[raw.algorithm];
  if (!scheme) return 'x509: cannot verify signature: algorithm unimplemented';
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(parsed.publicKey.rawData), format: 'der', type: 'spki' });
  } catch {
    return 'x509: unsupported public key type';
  }
  const psHash = parsed.signatureAlgorithm.hash?.name?.replace('-', '').toLowerCase() ?? 'sha256';
  try {
    return verifies(scheme, key, raw, psHash) ? undefined : FAILURES[scheme.kind];
  } catch {
    return FAILURES[scheme.kind];
  }
}

/**
 * kube's `validateCertificate` of `status.certificate`: empty, or only `CERTIFICATE` PEM blocks
 * without headers, at least one, each holding a parsable certificate. Undefined when valid.
 */
export function checkIssuedCertificate(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  let text = pem.toString('latin1');
  let blocks = 0;
  for (;;) {
    const decoded = decodePem(text);
    if (!decoded) break;
    const { block } = decoded;
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found "${block.type}"`;
    if (block.hasHeaders) return 'no PEM block headers are permitted';
    blocks++;
    try {
      new X509Certificate(block.bytes);
    } catch {
      return 'x509: malformed certificate';
    }
    text = decoded.rest;
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}
