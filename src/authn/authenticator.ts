import type { UserInfo } from '../apis/request/user-info.js';

export type { UserInfo };

/**
 * Outcome of one authenticator: `user` ends the search; `no-opinion` means the request carries no credential
 * this authenticator understands; `error` means it carries one that is invalid (401 Unauthorized).
 */
export type AuthResult =
  | {
      readonly kind: 'user';
      readonly user: UserInfo;
      /** For a bearer token: the requested audiences it is valid for. */
      readonly audiences?: readonly string[];
    }
  | { readonly kind: 'no-opinion' }
  | { readonly kind: 'error'; readonly message: string };

/**
 * The client certificate presented during the TLS handshake, as verified by the TLS layer against
 * every CA bundle the server trusts for client certificates (client CA and request-header CA).
 */
export interface PeerCertificate {
  /**
   * True when the TLS layer verified the chain (and the clientAuth purpose) against the union of the
   * server's client CA bundles; which bundle vouches for it is for each authenticator to check.
   */
  readonly authorized: boolean;
  /** OpenSSL's verification error code when not authorized, e.g. `UNABLE_TO_VERIFY_LEAF_SIGNATURE`, `CERT_HAS_EXPIRED`. */
  readonly authorizationError: string | undefined;
  /** Subject CN (the first, if several). */
  readonly commonName: string | undefined;
  /** Every subject O, in order; always an array. */
  readonly organizations: readonly string[];
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** Upper-case hex, as OpenSSL prints it. */
  readonly serialNumber: string;
  /** SHA-256 fingerprint, colon-separated hex. */
  readonly fingerprint256: string;
  /** DER encoding. */
  readonly raw: Uint8Array;
  /**
   * DER of the rest of the chain as the TLS layer has it (what the client presented beyond the
   * leaf, completed from the server's trust store), nearest issuer first. Authenticators verify the
   * leaf against their own trust bundle with it. Absent or empty: only the leaf is known.
   */
  readonly issuerChain?: readonly Uint8Array[];
}

/** Header names are lower-case; repeated headers are joined with ", " (set-cookie excepted). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** What authenticators may read of a request: never the body. */
export interface RequestHead {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly headers: RequestHeaders;
  /** Every value of a header, unjoined, in arrival order (name case-insensitive). */
  headerValues(name: string): string[];
  /** The verified-or-not client certificate, or undefined when the client presented none. */
  readonly peerCertificate: PeerCertificate | undefined;
  /** The peer's IP address (audit's source IPs). */
  readonly remoteAddress?: string | undefined;
  /**
   * The client's transport connection (the TLS socket of HTTP/1.1, the session of HTTP/2): the
   * same object for every request it carries. Only its identity is used (per-connection memos).
   */
  readonly connection?: object | undefined;
  /**
   * Aborted when the client goes away or the request times out; created on first read, so an
   * authenticator that never waits (client certificates) costs the request nothing. Authenticators
   * that wait on the network (token webhooks, OIDC discovery) must stop when it aborts.
   */
  readonly signal: AbortSignal;
  /**
   * Audiences a bearer token must be valid for instead of the server's own; set only by the
   * server itself (TokenReview's `spec.audiences`), never from a request.
   */
  readonly audiences?: readonly string[];
}

/**
 * Determines who sent a request. Implementations must not throw for bad credentials (return `error`), must
 * not read the body, and may be called concurrently.
 */
export interface Authenticator {
  /**
   * The result itself when it is known at once (a client certificate, a cached token), else a
   * promise of it; callers handle both. A hot path then takes no promise per request.
   */
  authenticate(req: RequestHead): AuthResult | Promise<AuthResult>;
}

export { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP } from '../apis/request/user-info.js';

export const NO_OPINION: AuthResult = Object.freeze({ kind: 'no-opinion' as const });
