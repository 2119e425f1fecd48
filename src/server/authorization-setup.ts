import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { ApiDomain } from '../apis/api-domain.js';
import { AuthorizationConfigError } from '../authz/authorization-config-error.js';
import { AuthorizationMetrics, instrumentedAuthorizer } from '../authz/authorization-metrics.js';
import { type AuthorizerModules, buildAuthorizer } from '../authz/authorization-modes.js';
import {
  type AuthorizationOptions,
  DEFAULT_WEBHOOK_AUTHORIZED_TTL_MS,
  DEFAULT_WEBHOOK_UNAUTHORIZED_TTL_MS,
  DEFAULT_WEBHOOK_VERSION,
  LEGACY_WEBHOOK_TIMEOUT_MS,
} from '../authz/authorization-options.js';
import type { Authorizer } from '../authz/authorizer.js';
import { buildAuthorizationChain } from '../authz/config/authorization-chain.js';
import { AuthorizationConfigController, type Every } from '../authz/config/authorization-config-controller.js';
import { loadAuthorizationConfig, readAuthorizationConfigFile } from '../authz/config/load-authorization-config.js';
import { AuthorizationConfigReloadMetrics } from '../authz/config/reload-metrics.js';
import { MatchConditionCompiler } from '../authz/webhook/match-conditions.js';
import { webhookAuthorizer } from '../authz/webhook/webhook-authorizer.js';
import { CelEnvironmentSet } from '../cel/environment-set.js';
import { versionedCelLibraries } from '../cel/library/index.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import { loadWebhookClientConfig, WebhookClientConfigError } from '../util/webhook-client-config.js';

/** What the authorizer chain is prepared from. */
export interface AuthorizationSetupDeps {
  /** `--authorization-mode`. */
  readonly modes: readonly string[];
  readonly options: AuthorizationOptions;
  readonly domain: ApiDomain;
  readonly logger: Logger;
  readonly metrics: Registry;
  /** Stops the webhooks' connections (and the configuration file's watch) when it aborts. */
  readonly lifetime: AbortSignal;
  readonly clock?: Clock;
  /** Whether a feature gate is on (`StructuredAuthorizationConfiguration`); default: all on. */
  readonly featureEnabled?: (name: string) => boolean;
  /** Shared CEL environments; one is made when absent. */
  readonly cel?: CelEnvironmentSet;
  /** Labels the reload metrics (hashed); default `<product>-apiserver-<uuid>`. */
  readonly apiServerId?: string;
  /** Schedules the periodic re-reads of the configuration file (tests); default a timer. */
  readonly every?: Every;
}

/**
 * The authorizer chain with its files read and checked, waiting for the modules that need the
 * server's state (RBAC reads roles and bindings).
 */
export interface PreparedAuthorization {
  /** The authorizer types of the chain, in order (the server builds the modules they need). */
  readonly modes: readonly string[];
  build(modules: AuthorizerModules): Authorizer;
}

/** The webhook name kube-apiserver gives the `--authorization-webhook-*` flags (metrics label). */
const LEGACY_WEBHOOK_NAME = 'default';

/** The feature gate of `--authorization-config`. */
export const STRUCTURED_AUTHORIZATION_CONFIGURATION = 'StructuredAuthorizationConfiguration';

/**
 * Reads what the authorizer chain needs from files before the server is built: the
 * AuthorizationConfiguration of `--authorization-config` (decoded, validated, with its webhooks'
 * client configurations; once built, the chain follows the file, see
 * `AuthorizationConfigController`), or else the client configuration of `--authorization-webhook-config-file`
 * for mode `Webhook` (a webhook named `default`, timeout 30 s, failure policy NoOpinion, as
 * kube-apiserver converts the flags).
 * @throws AuthorizationConfigError naming the flag or field and every problem of the files.
 */
export async function prepareAuthorization(d: AuthorizationSetupDeps): Promise<PreparedAuthorization> {
  const metrics = new AuthorizationMetrics(d.metrics);
  const file = d.options.configFile ?? '';
  if (file !== '') return prepareFromFile(file, d, metrics);
  let webhook: Authorizer | undefined;
  const flags = d.options.webhook;
  if (d.modes.includes('Webhook') && flags !== undefined && flags.configFile !== '') {
    const config = await loadWebhookClientConfig(flags.configFile, '--authorization-webhook-config-file').catch(
      (e: unknown) => {
        throw e instanceof WebhookClientConfigError ? new AuthorizationConfigError(e.problems, { cause: e }) : e;
      },
    );
    const authorizer = webhookAuthorizer({
      name: LEGACY_WEBHOOK_NAME,
      config,
      version: flags.version ?? DEFAULT_WEBHOOK_VERSION,
      domain: d.domain,
      authorizedTtlMs: flags.cacheAuthorizedTtlMs ?? DEFAULT_WEBHOOK_AUTHORIZED_TTL_MS,
      unauthorizedTtlMs: flags.cacheUnauthorizedTtlMs ?? DEFAULT_WEBHOOK_UNAUTHORIZED_TTL_MS,
      timeoutMs: LEGACY_WEBHOOK_TIMEOUT_MS,
      failurePolicy: 'NoOpinion',
      retryBackoff: d.options.webhookRetryBackoff,
      metrics,
      logger: d.logger,
      clock: d.clock,
    });
    d.lifetime.addEventListener('abort', () => authorizer.close(), { once: true });
    webhook = instrumentedAuthorizer('Webhook', LEGACY_WEBHOOK_NAME, authorizer, metrics);
  }
  return {
    modes: d.modes,
    build: (modules) => buildAuthorizer(d.modes, { ...modules, webhook }),
  };
}

/** The chain of `--authorization-config`. */
async function prepareFromFile(
  file: string,
  d: AuthorizationSetupDeps,
  metrics: AuthorizationMetrics,
): Promise<PreparedAuthorization> {
  if (!(d.featureEnabled ?? (() => true))(STRUCTURED_AUTHORIZATION_CONFIGURATION)) {
    throw new AuthorizationConfigError([
      `--authorization-config cannot be used without enabling ${STRUCTURED_AUTHORIZATION_CONFIGURATION} feature flag`,
    ]);
  }
  const compiler = new MatchConditionCompiler(d.cel ?? new CelEnvironmentSet({ libraries: versionedCelLibraries() }));
  const initial = await loadAuthorizationConfig(await readAuthorizationConfigFile(file), {
    domain: d.domain,
    compiler,
    metrics,
  });
  const initialTypes = new Set(initial.authorizers.map((a) => a.type));
  return {
    modes: [...initialTypes],
    build(modules) {
      const build = (loaded: typeof initial) =>
        buildAuthorizationChain(loaded, {
          modules,
          domain: d.domain,
          metrics,
          logger: d.logger,
          clock: d.clock,
          retryBackoff: d.options.webhookRetryBackoff,
        });
      const controller = new AuthorizationConfigController({
        path: file,
        initial,
        initialChain: build(initial),
        load: (data) => loadAuthorizationConfig(data, { domain: d.domain, compiler, metrics, initialTypes }),
        build,
        metrics: new AuthorizationConfigReloadMetrics(
          d.metrics,
          d.apiServerId ?? `${d.domain.componentName('apiserver')}-${randomUUID()}`,
        ),
        logger: d.logger,
        lifetime: d.lifetime,
        clock: d.clock,
        pollIntervalMs: d.options.reloadIntervalMs,
        every: d.every,
      });
      controller.start();
      return controller.authorizer;
    },
  };
}
