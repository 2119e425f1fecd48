import type { ApiDomain } from '../apis/api-domain.js';
import type { Logger } from '../util/logger.js';
import type { WebhookClientConfig } from '../util/webhook-client-config.js';
import { type WebhookRetryBackoff, webhookPoster } from '../util/webhook-post.js';
import type { UserInfo } from './authenticator.js';
import { TOKEN_NO_OPINION, type TokenAuthenticator, type TokenAuthResult } from './token-authenticator.js';

export type { WebhookRetryBackoff } from '../util/webhook-post.js';
export { DEFAULT_WEBHOOK_RETRY_BACKOFF } from '../util/webhook-post.js';

export type TokenReviewVersion = 'v1' | 'v1beta1';

/** kube-apiserver's timeout of one webhook call (the client configuration cannot set one). */
const REQUEST_TIMEOUT_MS = 30_000;

export interface WebhookTokenOptions {
  readonly config: WebhookClientConfig;
  readonly version: TokenReviewVersion;
  readonly domain: ApiDomain;
  /** The server's own audiences: a review answered without `status.audiences` is valid for these. */
  readonly implicitAudiences: readonly string[];
  readonly logger?: Logger;
  readonly retryBackoff?: WebhookRetryBackoff;
  /** Random source for jitter (tests); default Math.random. */
  readonly random?: () => number;
}

/** A message with the token cut out, in case the webhook echoed it (too short a token would cut words). */
function redact(message: string, token: string): string {
  return token.length >= 8 ? message.replaceAll(token, '[redacted]') : message;
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/**
 * Authenticates bearer tokens by POSTing a TokenReview (`spec.token`, `spec.audiences`) to a remote
 * service (`--authentication-token-webhook-config-file`), as kube-apiserver's webhook token
 * authenticator does: the answer must be a TokenReview of the same apiVersion; `status.authenticated`
 * with `status.user` is the user; otherwise `status.error` (when given) is the `error`, else
 * `no-opinion`. When the request names audiences, the token is valid for those that the answer's
 * `status.audiences` (or, without them, the server's own audiences) contain; none → `no-opinion`.
 * Resets, lost connections, 500, 504, 429 and answers with `Retry-After` are retried with
 * `retryBackoff`; other failures are an `error` at once. Each call stops when the request's signal
 * aborts or after 30 s. The token is never logged or put in a message. Cache it with
 * `cachedTokenAuthenticator` (`--authentication-token-webhook-cache-ttl`, errors not cached).
 */
export function webhookTokenAuthenticator(options: WebhookTokenOptions): TokenAuthenticator {
  const { config, logger } = options;
  const apiVersion = `${options.domain.group('authentication')}/${options.version}`;
  const resource = `tokenreviews.${options.domain.group('authentication')}`;
  const poster = webhookPoster(config, {
    resource,
    retryBackoff: options.retryBackoff,
    random: options.random,
  });
  const implicit = new Set(options.implicitAudiences);

  return {
    async authenticateToken(token, ctx): Promise<TokenAuthResult> {
      const wanted = ctx.audiences;
      const checkAudiences = wanted.length > 0;
      const review = {
        apiVersion,
        kind: 'TokenReview',
        metadata: { creationTimestamp: null },
        spec: checkAudiences ? { token, audiences: [...wanted] } : { token },
        status: { user: {} },
      };
      const body = JSON.stringify(review);
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
      const result = await poster.post(body, signal);
      if (!result.ok) {
        const message = redact(result.message, token);
        logger?.error('Failed to make webhook authenticator request', { error: message });
        return { kind: 'error', message };
      }
      const answer = result.body as { apiVersion?: unknown; kind?: unknown; status?: unknown } | null;
      if (
        typeof answer !== 'object' ||
        answer === null ||
        answer.apiVersion !== apiVersion ||
        answer.kind !== 'TokenReview'
      ) {
        const got =
          typeof answer === 'object' && answer !== null
            ? `${String(answer.apiVersion)}, Kind=${String(answer.kind)}`
            : 'no object';
        const message = `the webhook answered ${got}; expected ${apiVersion}, Kind=TokenReview`;
        logger?.error('Failed to make webhook authenticator request', { error: message });
        return { kind: 'error', message };
      }
      const status = (typeof answer.status === 'object' && answer.status !== null ? answer.status : {}) as Record<
        string,
        unknown
      >;
      let audiences: string[] | undefined;
      if (checkAudiences) {
        const got = stringList(status.audiences);
        const valid = got !== undefined && got.length > 0 ? new Set(got) : implicit;
        audiences = wanted.filter((a) => valid.has(a));
        if (audiences.length === 0) return TOKEN_NO_OPINION;
      }
      if (status.authenticated !== true) {
        const error = typeof status.error === 'string' ? status.error : '';
        return error !== '' ? { kind: 'error', message: redact(error, token) } : TOKEN_NO_OPINION;
      }
      const u = (typeof status.user === 'object' && status.user !== null ? status.user : {}) as Record<string, unknown>;
      let extra: Record<string, readonly string[]> | undefined;
      if (typeof u.extra === 'object' && u.extra !== null) {
        extra = {};
        for (const [k, v] of Object.entries(u.extra as Record<string, unknown>))
          extra[k] = Object.freeze(stringList(v) ?? []);
      }
      const user: UserInfo = Object.freeze({
        name: typeof u.username === 'string' ? u.username : '',
        ...(typeof u.uid === 'string' && u.uid !== '' ? { uid: u.uid } : {}),
        groups: Object.freeze(stringList(u.groups) ?? []),
        ...(extra ? { extra: Object.freeze(extra) } : {}),
      });
      return audiences ? { kind: 'user', user, audiences } : { kind: 'user', user };
    },
  } satisfies TokenAuthenticator;
}
