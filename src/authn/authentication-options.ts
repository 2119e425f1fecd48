/**
 * How requests are authenticated: one field per method, mirroring the `orch-apiserver` flags. Every
 * method is off unless configured, except client certificates (on whenever a client CA is
 * configured), service-account tokens (always on) and anonymous (on unless turned off).
 */
export interface AuthenticationOptions {
  /** `--anonymous-auth` (default true; forced off, with a warning, when `AlwaysAllow` is an authorization mode). */
  readonly anonymous?: boolean;
  /** `--api-audiences`; default: the service-account issuers. */
  readonly apiAudiences?: readonly string[];
  /**
   * `--service-account-issuer`: the first is the `iss` of issued tokens, every one is accepted.
   * Default: the server's own URL, `https://<bind address>:<port>`.
   */
  readonly serviceAccountIssuers?: readonly string[];
  /** `--service-account-key-file`: PEM files of the keys that verify tokens. Default: the signing key. */
  readonly serviceAccountKeyFiles?: readonly string[];
  /** `--service-account-signing-key-file`: the PEM private key that signs tokens. Default: the serving TLS key. */
  readonly serviceAccountSigningKeyFile?: string;
  /** `--service-account-lookup`: revoke tokens whose service account or bound object is gone (default true). */
  readonly serviceAccountLookup?: boolean;
  /** `--service-account-max-token-expiration` in seconds; 0 or absent = no cap. */
  readonly serviceAccountMaxTokenExpirationSeconds?: number;
  /** `--service-account-extend-token-expiration` (default true). */
  readonly serviceAccountExtendTokenExpiration?: boolean;
}
