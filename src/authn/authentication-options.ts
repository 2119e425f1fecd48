import type { OidcOptions } from './jwt/oidc-options.js';

export type { OidcOptions };

/**
 * How requests are authenticated: one field per method, mirroring the `orch-apiserver` flags. Every
 * method is off unless configured, except client certificates (on whenever a client CA is
 * configured) and anonymous (on unless turned off).
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
}
