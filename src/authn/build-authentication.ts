import type { Registry } from 'prom-client';
import type { ApiDomain } from '../apis/api-domain.js';
import { type Clock, systemClock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { AuthenticationOptions } from './authentication-options.js';
import type { Authenticator } from './authenticator.js';
import { bearerTokenAuthenticator } from './bearer-token-authenticator.js';
import { cachedTokenAuthenticator } from './cached-token-authenticator.js';
import type { ObjectReader } from './object-reader.js';
import { buildRequestAuthenticator } from './request-authenticator.js';
import { ServiceAccountTokenAuthenticator } from './service-account/service-account-authenticator.js';
import {
  loadServiceAccountConfig,
  type ServiceAccountDefaults,
  type ServiceAccountTokenConfig,
} from './service-account/service-account-config.js';
import { type TokenAuthenticator, unionTokenAuthenticator } from './token-authenticator.js';
import { X509Authenticator } from './x509-authenticator.js';

/** kube-apiserver remembers a successful token authentication this long. */
const TOKEN_SUCCESS_CACHE_TTL_MS = 10_000;

export interface AuthenticationDeps {
  readonly domain: ApiDomain;
  readonly logger: Logger;
  /** Live objects (bootstrap-token Secrets, service accounts and what their tokens are bound to). */
  readonly objects: ObjectReader;
  /** Stops reloads and key refreshes when it aborts. */
  readonly lifetime: AbortSignal;
  /** Where authentication metrics are registered (never prom-client's global registry). */
  readonly metrics: Registry;
  readonly clock?: Clock;
  /**
   * The default service-account issuer and key (the server's URL and serving key). Without it,
   * service-account tokens are off.
   */
  readonly serviceAccountDefaults?: ServiceAccountDefaults;
}

/** The composed authentication of a server. */
export interface Authentication {
  /** What the authentication filter runs for every request. */
  readonly authenticator: Authenticator;
  /** Every bearer-token method in one (TokenReview authenticates with it). */
  readonly tokens: TokenAuthenticator;
  /** The server's own audiences. */
  readonly apiAudiences: readonly string[];
  /** Issuers, signer and keys of service-account tokens (TokenRequest and issuer discovery); absent when off. */
  readonly serviceAccounts: ServiceAccountTokenConfig | undefined;
}

/**
 * Builds the authenticator chain from the options: client certificates, then the bearer-token
 * methods (cached together), then anonymous, as kube-apiserver composes them.
 * Service-account tokens join the token methods whenever `deps.serviceAccountDefaults` is given;
 * `apiAudiences` defaults to their issuers.
 * @throws AuthenticationConfigError listing every problem of the flags and files it reads
 *   (ServiceAccountConfigError for the service-account settings).
 */
export async function buildAuthentication(
  options: AuthenticationOptions,
  deps: AuthenticationDeps,
): Promise<Authentication> {
  const clock = deps.clock ?? systemClock;
  const serviceAccounts = deps.serviceAccountDefaults
    ? await loadServiceAccountConfig(options, deps.serviceAccountDefaults, { domain: deps.domain, clock })
    : undefined;
  for (const w of serviceAccounts?.warnings ?? []) deps.logger.warn(w);
  const apiAudiences = [...(options.apiAudiences?.length ? options.apiAudiences : (serviceAccounts?.issuers ?? []))];
  const tokenMethods: TokenAuthenticator[] = [];
  if (serviceAccounts) {
    tokenMethods.push(
      new ServiceAccountTokenAuthenticator({
        issuers: serviceAccounts.issuers,
        keys: serviceAccounts.publicKeys,
        implicitAudiences: apiAudiences,
        lookup: serviceAccounts.lookup,
        objects: deps.objects,
        domain: deps.domain,
        clock,
      }),
    );
  }
  const tokens = cachedTokenAuthenticator(unionTokenAuthenticator(tokenMethods), {
    successTtlMs: TOKEN_SUCCESS_CACHE_TTL_MS,
    failureTtlMs: 0,
    clock,
  });
  const authenticators: Authenticator[] = [
    new X509Authenticator({ credentialIdExtra: deps.domain.credentialIdExtra, clock }),
  ];
  // Even with no token method a bearer token is checked: one nobody accepts is a 401, never anonymous.
  authenticators.push(bearerTokenAuthenticator(tokens, { audiences: apiAudiences }));
  const authenticator = buildRequestAuthenticator({
    authenticators,
    anonymous: options.anonymous === false ? false : {},
  });
  return { authenticator, tokens, apiAudiences, serviceAccounts };
}
