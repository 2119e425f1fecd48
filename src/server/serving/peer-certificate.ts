import type { DetailedPeerCertificate, TLSSocket, PeerCertificate as TlsPeerCertificate } from 'node:tls';
import type { PeerCertificate } from '../../authn/authenticator.js';

/** OpenSSL returns a single-valued attribute as a string and a repeated one as an array. */
function allValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function fromTls(cert: TlsPeerCertificate, socket: TLSSocket): PeerCertificate {
  const subject = cert.subject as unknown as Record<string, string | string[] | undefined> | undefined;
  const authError = socket.authorizationError as unknown as Error | string | null | undefined;
  return Object.freeze({
    authorized: socket.authorized,
    authorizationError: authError == null ? undefined : typeof authError === 'string' ? authError : authError.message,
    commonName: allValues(subject?.CN)[0],
    organizations: Object.freeze(allValues(subject?.O)),
    notBefore: new Date(Date.parse(cert.valid_from)),
    notAfter: new Date(Date.parse(cert.valid_to)),
    serialNumber: cert.serialNumber,
    fingerprint256: cert.fingerprint256,
    raw: cert.raw,
    issuerChain: Object.freeze(issuerChain(cert as DetailedPeerCertificate)),
  });
}

/** DER of each issuer after the leaf, stopping at a self-issued certificate (which links to itself). */
function issuerChain(leaf: DetailedPeerCertificate): Uint8Array[] {
  const out: Uint8Array[] = [];
  let current = leaf;
  while (out.length < 16) {
    const next = current.issuerCertificate as DetailedPeerCertificate | undefined;
    if (!next?.raw || next === current) break;
    out.push(next.raw);
    current = next;
  }
  return out;
}

/**
 * Caches the client certificate of each TLS connection: it cannot change for the life of the connection
 * (the server sets SSL_OP_NO_RENEGOTIATION, and TLS 1.3 has no renegotiation), and `getPeerCertificate()`
 * builds a new object graph on every call.
 */
export class PeerCertificateCache {
  private readonly cache = new WeakMap<object, PeerCertificate | null>();

  /** `key` identifies the connection (the TLS socket for HTTP/1.1, the session for HTTP/2). */
  get(key: object, socket: TLSSocket): PeerCertificate | undefined {
    let entry = this.cache.get(key);
    if (entry === undefined) {
      const cert = socket.getPeerCertificate(true) as TlsPeerCertificate | null;
      entry = cert?.raw ? fromTls(cert, socket) : null;
      this.cache.set(key, entry);
    }
    return entry ?? undefined;
  }
}
