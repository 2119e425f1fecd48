import type { WebhookRetryBackoff } from '../util/webhook-post.js';
import type { SubjectAccessReviewVersion } from './webhook/subject-access-review.js';

/** The legacy webhook flags (`--authorization-webhook-*`), used with `--authorization-mode=Webhook`. */
export interface AuthorizationWebhookOptions {
  /** `--authorization-webhook-config-file`: the client configuration (kubeconfig format). */
  readonly configFile: string;
  /** `--authorization-webhook-version` (default `v1beta1`). */
  readonly version?: SubjectAccessReviewVersion;
  /** `--authorization-webhook-cache-authorized-ttl` (default 5 minutes; 0 caches nothing). */
  readonly cacheAuthorizedTtlMs?: number;
  /** `--authorization-webhook-cache-unauthorized-ttl` (default 30 seconds; 0 caches nothing). */
  readonly cacheUnauthorizedTtlMs?: number;
}

/** How the authorizer chain is configured beyond `--authorization-mode`. */
export interface AuthorizationOptions {
  /**
   * `--authorization-config`: an AuthorizationConfiguration file, watched and reloaded. Excludes
   * `--authorization-mode` and the webhook flags.
   */
  readonly configFile?: string;
  /** The webhook of mode `Webhook`. */
  readonly webhook?: AuthorizationWebhookOptions;
  /** Retries of webhook calls (kube's `WebhookRetryBackoff`; not a flag); default 500 ms ×1.5, 5 attempts. */
  readonly webhookRetryBackoff?: WebhookRetryBackoff;
  /** How often the configuration file is re-read without change events (default 1 minute). */
  readonly reloadIntervalMs?: number;
}

/** kube-apiserver's defaults of the legacy webhook flags. */
export const DEFAULT_WEBHOOK_VERSION: SubjectAccessReviewVersion = 'v1beta1';
export const DEFAULT_WEBHOOK_AUTHORIZED_TTL_MS = 5 * 60_000;
export const DEFAULT_WEBHOOK_UNAUTHORIZED_TTL_MS = 30_000;
/** The timeout kube-apiserver gives the webhook of the legacy flags. */
export const LEGACY_WEBHOOK_TIMEOUT_MS = 30_000;
