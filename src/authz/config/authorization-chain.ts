import type { ApiDomain } from '../../apis/api-domain.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import type { WebhookRetryBackoff } from '../../util/webhook-post.js';
import { alwaysAllow, alwaysDeny } from '../always.js';
import { AuthorizationConfigError } from '../authorization-config-error.js';
import { type AuthorizationMetrics, instrumentedAuthorizer } from '../authorization-metrics.js';
import type { Authorizer } from '../authorizer.js';
import { privilegedGroups } from '../privileged-groups.js';
import { unionAuthorizer } from '../union-authorizer.js';
import type { SubjectAccessReviewVersion } from '../webhook/subject-access-review.js';
import { type FailurePolicy, type WebhookAuthorizer, webhookAuthorizer } from '../webhook/webhook-authorizer.js';
import type { LoadedAuthorizationConfig } from './load-authorization-config.js';

/**
 * The authorizers the server keeps across reloads, each built once from the server's state; an
 * entry of their type needs them.
 */
export interface ConfigAuthorizerModules {
  readonly rbac?: Authorizer;
  readonly node?: Authorizer;
  readonly abac?: Authorizer;
}

export interface AuthorizationChainDeps {
  readonly modules: ConfigAuthorizerModules;
  readonly domain: ApiDomain;
  readonly metrics: AuthorizationMetrics;
  readonly logger?: Logger;
  readonly clock?: Clock;
  readonly retryBackoff?: WebhookRetryBackoff;
}

/** A chain built from a configuration; `close` drops its webhooks' connections. */
export interface AuthorizationChain {
  readonly authorizer: Authorizer;
  close(): void;
}

const MODULE_OF: Readonly<Record<string, keyof ConfigAuthorizerModules>> = { RBAC: 'rbac', Node: 'node', ABAC: 'abac' };

/**
 * kube-apiserver's chain of a configuration: members of `system:masters` first, then each
 * authorizer in the file's order, each counting its decisions under its type and name. Webhooks
 * are built fresh (their caches start empty); `Node`, `RBAC` and `ABAC` are the server's modules.
 * @throws AuthorizationConfigError when an entry's module is missing.
 */
export function buildAuthorizationChain(
  loaded: LoadedAuthorizationConfig,
  d: AuthorizationChainDeps,
): AuthorizationChain {
  const chain: Authorizer[] = [privilegedGroups()];
  const webhooks: WebhookAuthorizer[] = [];
  const problems: string[] = [];
  for (const a of loaded.authorizers) {
    let authorizer: Authorizer | undefined;
    if (a.type === 'Webhook' && a.webhook) {
      const w = a.webhook;
      const built = webhookAuthorizer({
        name: a.name,
        config: w.client,
        version: w.config.subjectAccessReviewVersion as SubjectAccessReviewVersion,
        domain: d.domain,
        authorizedTtlMs: w.config.authorizedTTLMs,
        unauthorizedTtlMs: w.config.unauthorizedTTLMs,
        timeoutMs: w.config.timeoutMs,
        failurePolicy: w.config.failurePolicy as FailurePolicy,
        matcher: w.matcher,
        retryBackoff: d.retryBackoff,
        metrics: d.metrics,
        logger: d.logger,
        clock: d.clock,
      });
      webhooks.push(built);
      authorizer = built;
    } else if (a.type === 'AlwaysAllow') authorizer = alwaysAllow;
    else if (a.type === 'AlwaysDeny') authorizer = alwaysDeny;
    else {
      const key = MODULE_OF[a.type];
      authorizer = key === undefined ? undefined : d.modules[key];
      if (authorizer === undefined) problems.push(`authorizer type ${a.type} needs the ${a.type} authorizer`);
    }
    if (authorizer) chain.push(instrumentedAuthorizer(a.type, a.name, authorizer, d.metrics));
  }
  const close = () => {
    for (const w of webhooks) w.close();
  };
  if (problems.length > 0) {
    close();
    throw new AuthorizationConfigError(problems);
  }
  return { authorizer: unionAuthorizer(chain), close };
}
