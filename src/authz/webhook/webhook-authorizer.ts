import type { ApiDomain } from '../../apis/api-domain.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import type { Abortable } from '../../util/abortable.js';
import { type Clock, systemClock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import type { WebhookClientConfig } from '../../util/webhook-client-config.js';
import { type WebhookAttempt, type WebhookRetryBackoff, webhookPoster } from '../../util/webhook-post.js';
import type { AuthorizationMetrics, WebhookResult } from '../authorization-metrics.js';
import { type Attributes, type AuthorizationResult, type Authorizer, NO_OPINION_RESULT } from '../authorizer.js';
import type { RulesResult } from '../rules.js';
import { ExpiringLruCache } from './expiring-lru-cache.js';
import {
  readSubjectAccessReviewStatus,
  type SubjectAccessReviewSpec,
  type SubjectAccessReviewStatus,
  type SubjectAccessReviewVersion,
  shouldCache,
  subjectAccessReviewBody,
  subjectAccessReviewKey,
  subjectAccessReviewSpec,
} from './subject-access-review.js';

/** What a webhook's failure decides: `NoOpinion` (the next authorizer is asked) or `Deny`. */
export type FailurePolicy = 'NoOpinion' | 'Deny';

/**
 * A webhook's match conditions: `true` when every condition holds (the webhook is asked),
 * `false` when one is false (it is skipped); throws when one fails and none is false, with the
 * error to report (the failure policy decides).
 */
export interface WebhookMatcher {
  matches(spec: SubjectAccessReviewSpec): boolean | Promise<boolean>;
}

export interface WebhookAuthorizerOptions {
  /** The authorizer's name (metrics label; `default` for `--authorization-webhook-config-file`). */
  readonly name: string;
  readonly config: WebhookClientConfig;
  readonly version: SubjectAccessReviewVersion;
  readonly domain: ApiDomain;
  /** How long an allowed answer is kept; 0 keeps none. */
  readonly authorizedTtlMs: number;
  /** How long another answer (denied, no opinion) is kept; 0 keeps none. */
  readonly unauthorizedTtlMs: number;
  /** Time one call may take (at most 30 s). */
  readonly timeoutMs: number;
  readonly failurePolicy: FailurePolicy;
  readonly matcher?: WebhookMatcher;
  /** Default: kube's 500 ms ×1.5, jitter 0.2, 5 attempts. */
  readonly retryBackoff?: WebhookRetryBackoff;
  readonly metrics?: AuthorizationMetrics;
  readonly logger?: Logger;
  /** Ages cached answers. */
  readonly clock?: Clock;
  /** Random source for retry jitter (tests). */
  readonly random?: () => number;
}

/** An authorizer that asks a remote service; `close` drops its idle connections. */
export interface WebhookAuthorizer extends Authorizer {
  close(): void;
}

/** kube caches up to this many answers per webhook. */
const CACHE_CAPACITY = 8192;

const RULES_UNSUPPORTED: RulesResult = Object.freeze({
  resourceRules: [],
  nonResourceRules: [],
  incomplete: true,
  errors: ['webhook authorizer does not support user rule resolution'],
});

/**
 * kube-apiserver's webhook authorizer: each request becomes a SubjectAccessReview (`v1`, or
 * `v1beta1` whose groups field is `group`) POSTed to the client configuration's server. Match
 * conditions run first: one false skips the webhook (no opinion); an error decides by the
 * failure policy. `status.allowed` allows, `status.denied` denies (both: deny with an error),
 * neither is no opinion, each with the webhook's `reason`. Answers are cached by spec, allowed
 * ones for `authorizedTtlMs`, others for `unauthorizedTtlMs` (not for requests with very long
 * attributes). A call that fails (unreachable, timed out, non-2xx, malformed or foreign answer)
 * after kube's retries decides by the failure policy, with the failure as `evaluationError`
 * (kube's `err`, which makes a refused request a 500). Never throws.
 */
export function webhookAuthorizer(o: WebhookAuthorizerOptions): WebhookAuthorizer {
  const apiVersion = `${o.domain.group('authorization')}/${o.version}`;
  const cache = new ExpiringLruCache<SubjectAccessReviewStatus>(CACHE_CAPACITY, o.clock ?? systemClock);
  const poster = webhookPoster(o.config, {
    resource: `subjectaccessreviews.${o.domain.group('authorization')}`,
    retryBackoff: o.retryBackoff,
    random: o.random,
    attemptTimeoutMs: o.timeoutMs,
  });
  const onError: AuthorizationResult['decision'] = o.failurePolicy === 'Deny' ? 'deny' : 'no-opinion';
  const failed = (error: string): AuthorizationResult => ({ decision: onError, reason: '', evaluationError: error });

  /** Asks the webhook; the status, or the failure and how the last attempt ended. */
  const ask = async (
    spec: SubjectAccessReviewSpec,
    signal: AbortSignal,
  ): Promise<SubjectAccessReviewStatus | { error: string; result: WebhookResult }> => {
    let last: WebhookAttempt | undefined;
    const r = await poster.post(subjectAccessReviewBody(spec, o.version, o.domain), signal, (attempt) => {
      last = attempt;
      // A 2xx answer is counted once its body has been read (a malformed one is an error).
      if (attempt.outcome !== 'success')
        o.metrics?.webhookEvaluation(o.name, attempt.outcome, attempt.latencyMs / 1000);
    });
    const seconds = (last?.latencyMs ?? 0) / 1000;
    if (!r.ok) return { error: r.message, result: r.outcome };
    const status = readSubjectAccessReviewStatus(r.body, apiVersion);
    const result: WebhookResult = 'error' in status ? 'error' : 'success';
    o.metrics?.webhookEvaluation(o.name, result, seconds);
    return 'error' in status ? { error: status.error, result } : status;
  };

  return {
    async authorize(a: Attributes, request: Abortable): Promise<AuthorizationResult> {
      const spec = subjectAccessReviewSpec(a);
      if (o.matcher) {
        let matches: boolean;
        try {
          matches = await o.matcher.matches(spec);
        } catch (e) {
          return failed(e instanceof Error ? e.message : String(e));
        }
        if (!matches) return NO_OPINION_RESULT;
      }
      const key = subjectAccessReviewKey(spec);
      let status = cache.get(key);
      if (status === undefined) {
        const signal = request.signal;
        const answer = await ask(spec, signal);
        if ('error' in answer) {
          o.logger?.error('Failed to make webhook authorizer request', { name: o.name, error: answer.error });
          if (onError === 'no-opinion' && !signal.aborted) o.metrics?.webhookFailOpen(o.name, answer.result);
          return failed(answer.error);
        }
        status = answer;
        if (shouldCache(a)) cache.add(key, status, status.allowed ? o.authorizedTtlMs : o.unauthorizedTtlMs);
      }
      if (status.denied && status.allowed) {
        return {
          decision: 'deny',
          reason: status.reason,
          evaluationError: 'webhook subject access review returned both allow and deny response',
        };
      }
      if (status.denied) return { decision: 'deny', reason: status.reason };
      if (status.allowed) return { decision: 'allow', reason: status.reason };
      return status.reason === '' ? NO_OPINION_RESULT : { decision: 'no-opinion', reason: status.reason };
    },
    async rulesFor(_user: UserInfo, _namespace: string): Promise<RulesResult> {
      return RULES_UNSUPPORTED;
    },
    close() {
      poster.close();
    },
  };
}
