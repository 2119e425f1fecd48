/**
 * How requests are authenticated: one field per method, mirroring the `orch-apiserver` flags. Every
 * method is off unless configured, except client certificates (on whenever a client CA is
 * configured) and anonymous (on unless turned off).
 */
export interface AuthenticationOptions {
  /** `--anonymous-auth` (default true; forced off, with a warning, when `AlwaysAllow` is an authorization mode). */
  readonly anonymous?: boolean;
  /** `--api-audiences`; default: the service-account issuers. */
  readonly apiAudiences?: readonly string[];
}
