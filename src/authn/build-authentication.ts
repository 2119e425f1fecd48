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
}

/** The composed authentication of a server. */
export interface Authentication {
  /** What the authentication filter runs for every request. */
  readonly authenticator: Authenticator;
  /** Every bearer-token method in one (TokenReview authenticates with it). */
  readonly tokens: TokenAuthenticator;
  /** The server's own audiences. */
  readonly apiAudiences: readonly string[];
}

/**
 * Builds the authenticator chain from the options: client certificates, then the bearer-token
 * methods (cached together), then anonymous, as kube-apiserver composes them.
 * @throws AuthenticationConfigError listing every problem of the flags and files it reads.
 */
export async function buildAuthentication(
  options: AuthenticationOptions,
  deps: AuthenticationDeps,
): Promise<Authentication> {
  const clock = deps.clock ?? systemClock;
  const apiAudiences = [...(options.apiAudiences ?? [])];
  const tokenMethods: TokenAuthenticator[] = [];
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
  return { authenticator, tokens, apiAudiences };
}
