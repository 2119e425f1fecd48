import type { Registry } from 'prom-client';
import type { ApiDomain } from '../apis/api-domain.js';
import { type Clock, systemClock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { AnonymousAuthenticatorOptions } from './anonymous-authenticator.js';
import { buildJwtAuthentication } from './authentication-config/build-jwt-authentication.js';
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
  /** Whether a feature gate is on (`StructuredAuthenticationConfiguration`, ...); default: v1.32's defaults. */
  readonly featureEnabled?: (name: string) => boolean;
  /** The server's identity, hashed into the authentication-config reload metrics. */
  readonly apiServerId?: string;
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
  // JWT authenticators come after the service-account ones (their key lookups are costlier).
  const jwt = await buildJwtAuthentication(options, {
    domain: deps.domain,
    logger: deps.logger,
    lifetime: deps.lifetime,
    metrics: deps.metrics,
    clock,
    featureEnabled: deps.featureEnabled,
    apiServerId: deps.apiServerId,
  });
  if (jwt.token !== undefined) tokenMethods.push(jwt.token);
  const tokens = cachedTokenAuthenticator(unionTokenAuthenticator(tokenMethods), {
    successTtlMs: TOKEN_SUCCESS_CACHE_TTL_MS,
    failureTtlMs: 0,
    clock,
  });
  const authenticators: Authenticator[] = [
    new X509Authenticator({ credentialIdExtra: deps.domain.credentialIdExtra, clock }),
  ];
  if (tokenMethods.length > 0) authenticators.push(bearerTokenAuthenticator(tokens, { audiences: apiAudiences }));
  const authenticator = buildRequestAuthenticator({ authenticators, anonymous: anonymousOf(options, jwt.anonymous) });
  return { authenticator, tokens, apiAudiences };
}

/**
 * Anonymous requests: as the configuration file's `anonymous` section says when it has one (kube
 * keeps it even under `AlwaysAllow`), else per `--anonymous-auth` and the authorizer.
 */
function anonymousOf(
  options: AuthenticationOptions,
  file: { readonly enabled: boolean; readonly conditions: readonly { readonly path: string }[] } | undefined,
): false | AnonymousAuthenticatorOptions {
  if (file !== undefined) {
    if (!file.enabled) return false;
    return file.conditions.length > 0 ? { allowedPaths: file.conditions.map((c) => c.path) } : {};
  }
  return options.anonymous === false || options.anonymousDisabledByAuthorizer === true ? false : {};
}
