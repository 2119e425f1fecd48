import type { OidcOptions } from './jwt/oidc-options.js';

export type { OidcOptions };

/** `--requestheader-*`: an authenticating proxy in front of the server. */
export interface RequestHeaderAuthenticationOptions {
  /** `--requestheader-client-ca-file`: the CAs that sign the proxy's client certificate. */
  readonly clientCaFile: string;
  /** `--requestheader-username-headers`, in order. */
  readonly usernameHeaders: readonly string[];
  /** `--requestheader-group-headers`. */
  readonly groupHeaders?: readonly string[];
  /** `--requestheader-extra-headers-prefix`. */
  readonly extraHeaderPrefixes?: readonly string[];
  /** `--requestheader-allowed-names`: CNs the proxy certificate may have; empty = any. */
  readonly allowedNames?: readonly string[];
}

/** `--authentication-token-webhook-*`: bearer tokens checked by a remote TokenReview service. */
export interface TokenWebhookAuthenticationOptions {
  /** `--authentication-token-webhook-config-file`: client configuration (kubeconfig format). */
  readonly configFile: string;
  /** `--authentication-token-webhook-version`: TokenReview version exchanged; default `v1beta1`. */
  readonly version?: 'v1' | 'v1beta1';
  /** `--authentication-token-webhook-cache-ttl`: how long answers are remembered; default 2 minutes. */
  readonly cacheTtlMs?: number;
}

/**
 * How requests are authenticated: one field per method, mirroring the `orch-apiserver` flags. Every
 * method is off unless configured, except client certificates (on whenever a client CA is
 * configured), service-account tokens (always on) and anonymous (on unless turned off).
 */
export interface AuthenticationOptions {
  /**
   * `--anonymous-auth` (default true; forced off, with a warning, when `AlwaysAllow` is an
   * authorization mode). `undefined` when not given: only then may the configuration file's
   * `anonymous` section decide.
   */
  readonly anonymous?: boolean;
  /**
   * Set by the server when `AlwaysAllow` turned anonymous requests off (kube's
   * `ApplyAuthorization`): does not count as `--anonymous-auth`, and the configuration file's
   * `anonymous` section still applies.
   */
  readonly anonymousDisabledByAuthorizer?: boolean;
  /** `--api-audiences`; default: the service-account issuers. */
  readonly apiAudiences?: readonly string[];
  /** The `--oidc-*` flags, when any was given. */
  readonly oidc?: OidcOptions;
  /** `--authentication-config`: the `AuthenticationConfiguration` file (JWT authenticators, anonymous). */
  readonly authenticationConfigFile?: string;

  /** `--token-auth-file`: static bearer tokens (CSV: token, user, uid, "group1,group2"). */
  readonly tokenAuthFile?: string;
  /** `--enable-bootstrap-token-auth`: bootstrap-token Secrets in the system namespace are bearer tokens. */
  readonly enableBootstrapTokenAuth?: boolean;
  /** The token webhook, when `--authentication-token-webhook-config-file` is given. */
  readonly tokenWebhook?: TokenWebhookAuthenticationOptions;
  /** The authenticating proxy, when `--requestheader-client-ca-file` is given. */
  readonly requestHeader?: RequestHeaderAuthenticationOptions;
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
