import { X509Certificate } from 'node:crypto';
import { formatTime } from '../util/clock.js';
import type { PeerCertificate } from './authenticator.js';

const EKU_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const EKU_ANY = '2.5.29.37.0';
const MAX_CHAIN_DEPTH = 8;

/** Go's text for a chain that reaches none of the trusted authorities. */
export const UNKNOWN_AUTHORITY = 'x509: certificate signed by unknown authority';

/** The outcome of verifying a client certificate chain against one trust bundle. */
export type ChainVerification =
  | {
      readonly ok: true;
      /** The chain is valid from the latest notBefore to the earliest notAfter of its certificates. */
      readonly validFrom: number;
      readonly validTo: number;
    }
  | { readonly ok: false; readonly message: string };

/** Parses the certificates of a PEM bundle. @throws Error naming the block that does not parse. */
export function parsePemBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch (e) {
      throw new Error(`certificate ${i + 1} of the bundle does not parse: ${(e as Error).message}`);
    }
  });
}

const time = (s: string): number => Date.parse(s);

/** Go's `x509: certificate has expired or is not yet valid: ...` for `cert` at `now`. */
export function validityError(notBefore: number, notAfter: number, now: number): string | undefined {
  if (now < notBefore) {
    return `x509: certificate has expired or is not yet valid: current time ${formatTime(new Date(now))} is before ${formatTime(new Date(notBefore))}`;
  }
  if (now > notAfter) {
    return `x509: certificate has expired or is not yet valid: current time ${formatTime(new Date(now))} is after ${formatTime(new Date(notAfter))}`;
  }
  return undefined;
}

/**
 * The certificate authorities one authenticator trusts (`--client-ca-file`,
 * `--requestheader-client-ca-file`). Verifies a presented chain itself, because the TLS layer
 * accepts certificates of every configured bundle and so cannot say which bundle vouches for one.
 */
export class TrustBundle {
  readonly anchors: readonly X509Certificate[];
  private readonly results = new WeakMap<PeerCertificate, ChainVerification>();

  /** @throws Error when a certificate of the bundle does not parse. */
  constructor(pem: string) {
    this.anchors = parsePemBundle(pem);
  }

  /**
   * Verifies a client certificate as Go's `x509.Certificate.Verify` with `ExtKeyUsageClientAuth`
   * does, apart from the time check: the leaf must chain through the presented intermediates (CA
   * certificates) to an anchor of this bundle by signature, and must not restrict its extended key
   * usage to something other than client authentication. Results are cached per peer certificate
   * (one per connection); callers check the validity window against their clock.
   */
  verifyPeer(peer: PeerCertificate): ChainVerification {
    let result = this.results.get(peer);
    if (result === undefined) {
      result = this.verifyDer(peer.raw, peer.issuerChain ?? []);
      this.results.set(peer, result);
    }
    return result;
  }

  /** {@link verifyPeer} for DER certificates. */
  verifyDer(leafDer: Uint8Array, presented: readonly Uint8Array[]): ChainVerification {
    let leaf: X509Certificate;
    try {
      leaf = new X509Certificate(Buffer.from(leafDer));
    } catch {
      return { ok: false, message: 'x509: malformed certificate' };
    }
    const intermediates: X509Certificate[] = [];
    for (const der of presented) {
      try {
        const c = new X509Certificate(Buffer.from(der));
        if (c.ca) intermediates.push(c);
      } catch {
        // an unreadable chain element cannot help build a path
      }
    }
    const path = this.pathFrom(leaf, intermediates, 0, new Set());
    if (path === undefined) return { ok: false, message: UNKNOWN_AUTHORITY };
    const eku = leaf.keyUsage;
    if (eku !== undefined && eku.length > 0 && !eku.includes(EKU_CLIENT_AUTH) && !eku.includes(EKU_ANY)) {
      return { ok: false, message: 'x509: certificate specifies an incompatible key usage' };
    }
    let validFrom = -Infinity;
    let validTo = Infinity;
    for (const c of path) {
      validFrom = Math.max(validFrom, time(c.validFrom));
      validTo = Math.min(validTo, time(c.validTo));
    }
    return { ok: true, validFrom, validTo };
  }

  /** The certificates from `cert` to a trusted anchor (both included), or undefined. */
  private pathFrom(
    cert: X509Certificate,
    intermediates: readonly X509Certificate[],
    depth: number,
    seen: Set<X509Certificate>,
  ): X509Certificate[] | undefined {
    for (const anchor of this.anchors) {
      if (anchor.raw.equals(cert.raw)) return [cert];
      if (cert.checkIssued(anchor) && cert.verify(anchor.publicKey)) return [cert, anchor];
    }
    if (depth >= MAX_CHAIN_DEPTH) return undefined;
    for (const next of intermediates) {
      if (seen.has(next) || next.raw.equals(cert.raw)) continue;
      if (!cert.checkIssued(next) || !cert.verify(next.publicKey)) continue;
      seen.add(next);
      const rest = this.pathFrom(next, intermediates, depth + 1, seen);
      seen.delete(next);
      if (rest) return [cert, ...rest];
    }
    return undefined;
  }
}
