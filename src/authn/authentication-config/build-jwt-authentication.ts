import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { ApiDomain } from '../../apis/api-domain.js';
import { fieldErrors, formatFieldError } from '../../apis/meta/field-error.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { versionedCelLibraries } from '../../cel/library/index.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import type { AuthenticationOptions } from '../authentication-options.js';
import { ALL_VALID_SIGNING_ALGORITHMS } from '../jwt/id-token-verifier.js';
import { JwtAuthenticatorSet } from '../jwt/jwt-authenticator-set.js';
import { JwtLatencyMetrics } from '../jwt/jwt-latency-metrics.js';
import { jwtAuthenticatorFromOidcOptions, oidcOptionsProblems, signingAlgProblems } from '../jwt/oidc-options.js';
import type { TokenAuthenticator } from '../token-authenticator.js';
import { AuthenticationCelCompiler } from './authentication-cel-compiler.js';
import { AuthenticationConfigController } from './authentication-config-controller.js';
import { AuthenticationConfigError, invalidConfigurationError } from './authentication-config-error.js';
import {
  type LoadedAuthenticationConfig,
  parseAuthenticationConfig,
  readAuthenticationConfigFile,
} from './load-authentication-config.js';
import { AuthenticationConfigReloadMetrics } from './reload-metrics.js';
import type { AnonymousAuthConfig } from './types.js';
import { type ConfigValidationContext, validateAuthenticationConfiguration } from './validate-authentication-config.js';

/** Feature gates this module consults. */
export const STRUCTURED_AUTHENTICATION_CONFIGURATION = 'StructuredAuthenticationConfiguration';
export const ANONYMOUS_AUTH_CONFIGURABLE_ENDPOINTS = 'AnonymousAuthConfigurableEndpoints';

export interface JwtAuthenticationDeps {
  readonly domain: ApiDomain;
  readonly logger: Logger;
  readonly lifetime: AbortSignal;
  readonly metrics: Registry;
  readonly clock?: Clock;
  /** Whether a feature gate is on; default: kube-apiserver v1.32's defaults (both gates on). */
  readonly featureEnabled?: (name: string) => boolean;
  /** Labels the reload metrics (hashed); default `<product>-apiserver-<uuid>`. */
  readonly apiServerId?: string;
  /** The server's audiences (`--api-audiences`, else the service-account issuers); default `options.apiAudiences`. */
  readonly apiAudiences?: readonly string[];
  /** Issuers JWT authenticators may not claim (the service-account issuers). */
  readonly disallowedIssuers?: readonly string[];
  /** Shared CEL environments; one is made when absent. */
  readonly cel?: CelEnvironmentSet;
}

/** The JWT part of authentication, and the anonymous settings of the configuration file. */
export interface JwtAuthentication {
  /** `undefined` when neither the flags nor a file configure JWT authenticators. */
  readonly token: TokenAuthenticator | undefined;
  /** The file's `anonymous` section; `undefined` when it has none (then `--anonymous-auth` decides). */
  readonly anonymous: AnonymousAuthConfig | undefined;
  /** Watches the file, when one is used. */
  readonly controller: AuthenticationConfigController | undefined;
}

/**
 * Builds the JWT authenticators from `--authentication-config` (watched and reloaded) or the
 * `--oidc-*` flags, checking them as kube-apiserver does at start-up.
 * @throws AuthenticationConfigError with kube's text and every problem.
 */
export async function buildJwtAuthentication(
  options: AuthenticationOptions,
  deps: JwtAuthenticationDeps,
): Promise<JwtAuthentication> {
  const file = options.authenticationConfigFile ?? '';
  if (file === '' && options.oidc === undefined)
    return { token: undefined, anonymous: undefined, controller: undefined };
  const enabled = deps.featureEnabled ?? (() => true);
  const apiAudiences = [...(deps.apiAudiences ?? options.apiAudiences ?? [])];
  const compiler = new AuthenticationCelCompiler(
    deps.cel ?? new CelEnvironmentSet({ libraries: versionedCelLibraries() }),
  );
  const ctx: ConfigValidationContext = {
    compiler,
    disallowedIssuers: deps.disallowedIssuers ?? [],
    domain: deps.domain,
    anonymousConfigurableEndpoints: enabled(ANONYMOUS_AUTH_CONFIGURABLE_ENDPOINTS),
  };
  const latency = new JwtLatencyMetrics(deps.metrics);
  const buildSet = (loaded: Pick<LoadedAuthenticationConfig, 'authenticators'>, signingAlgs: readonly string[]) =>
    new JwtAuthenticatorSet({
      authenticators: loaded.authenticators,
      signingAlgs,
      apiAudiences,
      credentialIdKey: deps.domain.credentialIdExtra,
      lifetime: deps.lifetime,
      logger: deps.logger,
      clock: deps.clock,
      latency,
    });

  if (file === '') {
    const oidc = options.oidc as NonNullable<AuthenticationOptions['oidc']>;
    const problems = oidcOptionsProblems(oidc);
    if (problems.length > 0) throw new AuthenticationConfigError(problems);
    let config: Awaited<ReturnType<typeof jwtAuthenticatorFromOidcOptions>>;
    try {
      config = await jwtAuthenticatorFromOidcOptions(oidc);
    } catch (e) {
      throw new AuthenticationConfigError([e instanceof Error ? e.message : String(e)], { cause: e });
    }
    const validated = validateAuthenticationConfiguration({ jwt: [config] }, ctx);
    if (validated.errors.length > 0) throw invalidConfigurationError(validated.errors);
    const signingAlgs = oidc.signingAlgs && oidc.signingAlgs.length > 0 ? oidc.signingAlgs : ['RS256'];
    const algProblems = signingAlgProblems(signingAlgs);
    if (algProblems.length > 0) throw new AuthenticationConfigError(algProblems);
    const set = buildSet(validated, signingAlgs);
    deps.lifetime.addEventListener('abort', () => set.close(), { once: true });
    return { token: set.token, anonymous: undefined, controller: undefined };
  }

  const problems: string[] = [];
  if (!enabled(STRUCTURED_AUTHENTICATION_CONFIGURATION)) {
    problems.push(
      `set --feature-gates=${STRUCTURED_AUTHENTICATION_CONFIGURATION}=true to use authentication-config file`,
    );
  }
  if (options.oidc !== undefined) problems.push('authentication-config file and oidc-* flags are mutually exclusive');
  if (problems.length > 0) throw new AuthenticationConfigError(problems);

  const data = await readAuthenticationConfigFile(file);
  const loaded = parseAuthenticationConfig(file, data, deps.domain, ctx, (config) => {
    if (config.anonymous !== undefined && options.anonymous !== undefined) {
      const e = fieldErrors.forbidden(
        'anonymous',
        '--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file',
      );
      throw new AuthenticationConfigError([formatFieldError(e)]);
    }
  });
  const initialSet = buildSet(loaded, ALL_VALID_SIGNING_ALGORITHMS);
  const controller = new AuthenticationConfigController({
    path: file,
    initial: loaded,
    initialSet,
    parse: (text) => parseAuthenticationConfig(file, text, deps.domain, ctx),
    build: (next) => buildSet(next, ALL_VALID_SIGNING_ALGORITHMS),
    metrics: new AuthenticationConfigReloadMetrics(
      deps.metrics,
      deps.apiServerId ?? `${deps.domain.apiServerManager}-${randomUUID()}`,
    ),
    logger: deps.logger,
    lifetime: deps.lifetime,
    clock: deps.clock,
  });
  controller.start();
  return { token: controller.token, anonymous: loaded.config.anonymous, controller };
}
