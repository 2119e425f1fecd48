import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import type { CertificateKeyPair } from './certificate-factory.js';

const EKU_SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const EKU_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

/** A parsed certificate with its private key. */
export interface ParsedPair {
  readonly cert: X509Certificate;
  readonly key: KeyObject;
}

/** Parses a PEM pair; returns a human-readable problem instead of throwing so callers can regenerate. */
export function parsePair(pem: CertificateKeyPair): ParsedPair | string {
  let cert: X509Certificate;
  let key: KeyObject;
  try {
    cert = new X509Certificate(pem.cert);
  } catch (err) {
    return `unparseable certificate: ${(err as Error).message}`;
  }
  try {
    key = createPrivateKey(pem.key);
  } catch (err) {
    return `unparseable private key: ${(err as Error).message}`;
  }
  if (!cert.checkPrivateKey(key)) return 'private key does not match certificate';
  return { cert, key };
}

/** Parses every certificate of a PEM bundle. Throws when a block does not parse. */
export function parseBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new X509Certificate(block));
}

function validityProblem(cert: X509Certificate, now: number, renewBeforeMs: number): string | undefined {
  const notBefore = Date.parse(cert.validFrom);
  const notAfter = Date.parse(cert.validTo);
  if (now < notBefore) return `not valid before ${cert.validFrom}`;
  if (now >= notAfter) return `expired at ${cert.validTo}`;
  if (now + renewBeforeMs >= notAfter) return `expires soon (${cert.validTo})`;
  return undefined;
}

/** What a CA must satisfy to be reused. */
export function caProblem(pair: ParsedPair, now: number, renewBeforeMs: number): string | undefined {
  if (!pair.cert.ca) return 'not a CA certificate';
  if (!pair.cert.checkIssued(pair.cert) || !pair.cert.verify(pair.cert.publicKey)) return 'CA is not self-signed';
  return validityProblem(pair.cert, now, renewBeforeMs);
}

/** Requirements on a generated leaf certificate before it is reused. */
export interface LeafRequirements {
  readonly ca: X509Certificate;
  readonly now: number;
  readonly renewBeforeMs: number;
  readonly usage: 'server' | 'client';
  /** Serving certificates: every name must be covered by an IP or DNS SAN. */
  readonly hostNames?: readonly string[];
  /** Client certificates: exact lines of the subject (`CN=…`, `O=…`) that must be present. */
  readonly subjectLines?: readonly string[];
}

/** Returns why a leaf must be regenerated, or undefined when it may be reused. */
export function leafProblem(pair: ParsedPair, req: LeafRequirements): string | undefined {
  const { cert } = pair;
  if (!cert.checkIssued(req.ca) || !cert.verify(req.ca.publicKey)) return 'not signed by the current CA';
  const eku = req.usage === 'server' ? EKU_SERVER_AUTH : EKU_CLIENT_AUTH;
  if (cert.keyUsage !== undefined && !cert.keyUsage.includes(eku)) return `missing extended key usage ${req.usage}Auth`;
  const validity = validityProblem(cert, req.now, req.renewBeforeMs);
  if (validity) return validity;
  for (const name of req.hostNames ?? []) {
    const covered =
      isIP(name) !== 0 ? cert.checkIP(name) !== undefined : cert.checkHost(name, { subject: 'never' }) !== undefined;
    if (!covered) return `missing subject alternative name ${name}`;
  }
  if (req.subjectLines) {
    const lines = cert.subject.split('\n');
    for (const line of req.subjectLines) if (!lines.includes(line)) return `subject lacks ${line}`;
  }
  return undefined;
}
