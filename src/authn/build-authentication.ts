import { readFile } from 'node:fs/promises';
import type { Registry } from 'prom-client';
import type { ApiDomain } from '../apis/api-domain.js';
import { type Clock, systemClock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import { loadWebhookClientConfig, WebhookClientConfigError } from '../util/webhook-client-config.js';
import type { AnonymousAuthenticatorOptions } from './anonymous-authenticator.js';
import { buildJwtAuthentication } from './authentication-config/build-jwt-authentication.js';
import { AuthenticationConfigError } from './authentication-config-error.js';
import type { AuthenticationOptions } from './authentication-options.js';
import type { Authenticator } from './authenticator.js';
import { bearerTokenAuthenticator } from './bearer-token-authenticator.js';
import { bootstrapTokenAuthenticator } from './bootstrap-token-authenticator.js';
import { cachedTokenAuthenticator } from './cached-token-authenticator.js';
import type { ObjectReader } from './object-reader.js';
import { buildRequestAuthenticator } from './request-authenticator.js';
import { requestHeaderAuthenticator } from './request-header-authenticator.js';
import {
  LegacyServiceAccountTokenAuthenticator,
  type SecretLabelWriter,
} from './service-account/legacy-token-authenticator.js';
import { ServiceAccountTokenAuthenticator } from './service-account/service-account-authenticator.js';
import {
  loadServiceAccountConfig,
  type ServiceAccountDefaults,
  type ServiceAccountTokenConfig,
} from './service-account/service-account-config.js';
import { audienceAgnostic, type TokenAuthenticator, unionTokenAuthenticator } from './token-authenticator.js';
import { loadTokenFile } from './token-file-authenticator.js';
import { webhookTokenAuthenticator } from './webhook-token-authenticator.js';
import { X509Authenticator } from './x509-authenticator.js';
import { TrustBundle } from './x509-chain.js';

/** kube-apiserver remembers a successful token authentication this long. */
const TOKEN_SUCCESS_CACHE_TTL_MS = 10_000;
/** `--authentication-token-webhook-cache-ttl` default. */
export const DEFAULT_WEBHOOK_CACHE_TTL_MS = 120_000;

export interface AuthenticationDeps {
  readonly domain: ApiDomain;
  readonly logger: Logger;
  /** Live objects (bootstrap-token Secrets, service accounts and what their tokens are bound to). */
  readonly objects: ObjectReader;
  /** Writes the last-used label of legacy token Secrets; without it their use is not recorded. */
  readonly secretLabels?: SecretLabelWriter;
  /** Stops reloads and key refreshes when it aborts. */
  readonly lifetime: AbortSignal;
  /** Where authentication metrics are registered (never prom-client's global registry). */
  readonly metrics: Registry;
  readonly clock?: Clock;
  /**
   * PEM bundle of the client CAs (`--client-ca-file` or the generated CA). When given, client
   * certificates are verified against it alone; without it the TLS layer's verdict is trusted,
   * which is unsafe once the TLS layer also trusts a request-header CA (then it is required).
   */
  readonly clientCa?: string;
  /** PEM bundle of `--requestheader-client-ca-file` as the TLS layer loaded it; read from the file when absent. */
  readonly requestHeaderClientCa?: string;
  /** Whether a feature gate is on (`StructuredAuthenticationConfiguration`, ...); default: v1.32's defaults. */
  readonly featureEnabled?: (name: string) => boolean;
  /** The server's identity, hashed into the authentication-config reload metrics. */
  readonly apiServerId?: string;
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

function trustBundle(pem: string, source: string, problems: string[]): TrustBundle | undefined {
  try {
    const bundle = new TrustBundle(pem);
    if (bundle.anchors.length === 0) problems.push(`${source}: no PEM certificate found`);
    return bundle;
  } catch (e) {
    problems.push(`${source}: ${(e as Error).message}`);
    return undefined;
  }
}

/**
 * Builds the authenticator chain from the options as kube-apiserver orders it: the authenticating
 * proxy, client certificates, then the bearer-token methods (token file, service-account tokens,
 * bootstrap tokens, JWT authenticators, token webhook; cached together), then anonymous. Service-account tokens join
 * whenever `deps.serviceAccountDefaults` is given; `apiAudiences` defaults to their issuers.
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
  const problems: string[] = [];
  const collect = async <T>(load: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await load();
    } catch (e) {
      if (!(e instanceof AuthenticationConfigError)) throw e;
      problems.push(...e.problems);
      return undefined;
    }
  };

  const authenticators: Authenticator[] = [];
  const rh = options.requestHeader;
  if (rh !== undefined) {
    const pem =
      deps.requestHeaderClientCa ??
      (await collect(async () => {
        try {
          return await readFile(rh.clientCaFile, 'utf8');
        } catch (e) {
          throw new AuthenticationConfigError([`--requestheader-client-ca-file: ${(e as Error).message}`]);
        }
      }));
    const trust =
      pem === undefined ? undefined : trustBundle(pem, `--requestheader-client-ca-file ${rh.clientCaFile}`, problems);
    if (deps.clientCa === undefined) {
      problems.push(
        'the client CA bundle is required with --requestheader-client-ca-file, so proxy certificates are not taken for users',
      );
    }
    if (trust) {
      authenticators.push(
        requestHeaderAuthenticator({
          trust,
          allowedNames: rh.allowedNames ?? [],
          usernameHeaders: rh.usernameHeaders,
          groupHeaders: rh.groupHeaders ?? [],
          extraHeaderPrefixes: rh.extraHeaderPrefixes ?? [],
          clock,
        }),
      );
    }
  }
  const clientTrust =
    deps.clientCa === undefined ? undefined : trustBundle(deps.clientCa, 'client CA bundle', problems);
  authenticators.push(
    new X509Authenticator({ credentialIdExtra: deps.domain.credentialIdExtra, clock, trust: clientTrust }),
  );

  // Token methods, local first, then remote (kube-apiserver's order).
  const tokenMethods: TokenAuthenticator[] = [];
  if (options.tokenAuthFile) {
    const file = options.tokenAuthFile;
    const tokens = await collect(() => loadTokenFile(file, deps.logger));
    if (tokens) tokenMethods.push(audienceAgnostic(apiAudiences, tokens));
  }
  if (serviceAccounts) {
    tokenMethods.push(
      new ServiceAccountTokenAuthenticator({
        issuers: serviceAccounts.issuers,
        keys: serviceAccounts.publicKeys,
        implicitAudiences: apiAudiences,
        // kube-apiserver v1.32 checks every bound token against its account and bound object;
        // --service-account-lookup only concerns legacy Secret tokens.
        lookup: true,
        objects: deps.objects,
        domain: deps.domain,
        clock,
      }),
      // Legacy Secret-based tokens (the controller manager's token controller writes them).
      new LegacyServiceAccountTokenAuthenticator({
        keys: serviceAccounts.publicKeys,
        implicitAudiences: apiAudiences,
        lookup: serviceAccounts.lookup,
        objects: deps.objects,
        domain: deps.domain,
        secretLabels: deps.secretLabels,
        clock,
        logger: deps.logger,
      }),
    );
  }
  if (options.enableBootstrapTokenAuth) {
    tokenMethods.push(
      audienceAgnostic(
        apiAudiences,
        bootstrapTokenAuthenticator({ domain: deps.domain, objects: deps.objects, clock }),
      ),
    );
  }
  // JWT authenticators (--oidc-* or --authentication-config) after the local methods, before the
  // webhook; their issuers may not be the service-account issuers.
  const jwt = await collect(() =>
    buildJwtAuthentication(options, {
      domain: deps.domain,
      logger: deps.logger,
      lifetime: deps.lifetime,
      metrics: deps.metrics,
      clock,
      featureEnabled: deps.featureEnabled,
      apiServerId: deps.apiServerId,
      apiAudiences,
      disallowedIssuers: serviceAccounts?.issuers ?? [],
    }),
  );
  if (jwt?.token !== undefined) tokenMethods.push(jwt.token);
  const wh = options.tokenWebhook;
  if (wh !== undefined) {
    const config = await collect(() =>
      loadWebhookClientConfig(wh.configFile, '--authentication-token-webhook-config-file').catch((e: unknown) => {
        throw e instanceof WebhookClientConfigError ? new AuthenticationConfigError(e.problems, { cause: e }) : e;
      }),
    );
    if (config) {
      const ttl = wh.cacheTtlMs ?? DEFAULT_WEBHOOK_CACHE_TTL_MS;
      const webhook = webhookTokenAuthenticator({
        config,
        version: wh.version ?? 'v1beta1',
        domain: deps.domain,
        implicitAudiences: apiAudiences,
        logger: deps.logger,
      });
      tokenMethods.push(
        ttl > 0
          ? cachedTokenAuthenticator(webhook, { successTtlMs: ttl, failureTtlMs: ttl, cacheErrors: false, clock })
          : webhook,
      );
    }
  }
  if (problems.length > 0) throw new AuthenticationConfigError(problems);

  const tokens = cachedTokenAuthenticator(unionTokenAuthenticator(tokenMethods), {
    successTtlMs: TOKEN_SUCCESS_CACHE_TTL_MS,
    failureTtlMs: 0,
    clock,
  });
  // Even with no token method a bearer token is checked: one nobody accepts is a 401, never anonymous.
  authenticators.push(bearerTokenAuthenticator(tokens, { audiences: apiAudiences }));
  const authenticator = buildRequestAuthenticator({ authenticators, anonymous: anonymousOf(options, jwt?.anonymous) });
  return { authenticator, tokens, apiAudiences, serviceAccounts };
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
