import { Counter, Histogram, type Registry } from 'prom-client';
import type { Attributes, AuthorizationResult, Authorizer } from './authorizer.js';

/** How one webhook round-trip ended, as kube's webhook metrics label it. */
export type WebhookResult = 'success' | 'error' | 'timeout' | 'canceled';

function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: L[]): Counter<L> {
  return (
    (registry.getSingleMetric(name) as Counter<L> | undefined) ??
    new Counter({ name, help: `[ALPHA] ${help}`, labelNames, registers: [registry] })
  );
}

function histogram<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
  buckets: number[],
): Histogram<L> {
  return (
    (registry.getSingleMetric(name) as Histogram<L> | undefined) ??
    new Histogram({ name, help: `[ALPHA] ${help}`, labelNames, buckets, registers: [registry] })
  );
}

/** Go's `prometheus.DefBuckets`. */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * kube-apiserver v1.32's authorization metrics (all ALPHA), with its names, help texts, labels and buckets,
 * registered once per registry: terminal decisions per authorizer, webhook round-trips, their
 * latency and fail-open results, and match condition errors, exclusions and evaluation time.
 */
export class AuthorizationMetrics {
  readonly #decisions: Counter<'type' | 'name' | 'decision'>;
  readonly #evaluations: Counter<'name' | 'result'>;
  readonly #duration: Histogram<'name' | 'result'>;
  readonly #failOpen: Counter<'name' | 'result'>;
  readonly #matchErrors: Counter<'type' | 'name'>;
  readonly #exclusions: Counter<'type' | 'name'>;
  readonly #matchSeconds: Histogram<'type' | 'name'>;

  constructor(registry: Registry) {
    const p = 'apiserver_authorization_';
    this.#decisions = counter(
      registry,
      `${p}decisions_total`,
      'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
      ['type', 'name', 'decision'],
    );
    this.#evaluations = counter(registry, `${p}webhook_evaluations_total`, 'Round-trips to authorization webhooks.', [
      'name',
      'result',
    ]);
    this.#duration = histogram(
      registry,
      `${p}webhook_duration_seconds`,
      'Request latency in seconds.',
      ['name', 'result'],
      DEFAULT_BUCKETS,
    );
    this.#failOpen = counter(
      registry,
      `${p}webhook_evaluations_fail_open_total`,
      'NoOpinion results due to webhook timeout or error.',
      ['name', 'result'],
    );
    this.#matchErrors = counter(
      registry,
      `${p}match_condition_evaluation_errors_total`,
      'Total number of errors when an authorization webhook encounters a match condition error split by authorizer type and name.',
      ['type', 'name'],
    );
    this.#exclusions = counter(
      registry,
      `${p}match_condition_exclusions_total`,
      'Total number of exclusions when an authorization webhook is skipped because match conditions exclude it.',
      ['type', 'name'],
    );
    this.#matchSeconds = histogram(
      registry,
      `${p}match_condition_evaluation_seconds`,
      'Authorization match condition evaluation time in seconds, split by authorizer type and name.',
      ['type', 'name'],
      [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25],
    );
  }

  /** A terminal decision (`allowed` or `denied`, the SubjectAccessReview status field names). */
  decision(type: string, name: string, decision: 'allowed' | 'denied'): void {
    this.#decisions.inc({ type, name, decision });
  }

  /** One round-trip to the webhook `name`. */
  webhookEvaluation(name: string, result: WebhookResult, seconds: number): void {
    this.#evaluations.inc({ name, result });
    this.#duration.observe({ name, result }, seconds);
  }

  /** A failed round-trip turned into no opinion (the request itself was not canceled). */
  webhookFailOpen(name: string, result: WebhookResult): void {
    this.#failOpen.inc({ name, result });
  }

  /** One evaluation of an authorizer's match conditions: how long, and whether it failed or excluded the request. */
  matchConditions(type: string, name: string, seconds: number, outcome: 'match' | 'exclude' | 'error'): void {
    this.#matchSeconds.observe({ type, name }, seconds);
    if (outcome === 'error') this.#matchErrors.inc({ type, name });
    if (outcome === 'exclude') this.#exclusions.inc({ type, name });
  }
}

/**
 * kube's `InstrumentedAuthorizer`: counts the terminal decisions of `delegate` (`allow` as
 * `allowed`, `deny` as `denied`; no opinion is not counted) under its type and name. Keeps the
 * delegate's synchronous `decide` and `rulesFor`.
 */
export function instrumentedAuthorizer(
  type: string,
  name: string,
  delegate: Authorizer,
  metrics: AuthorizationMetrics,
): Authorizer {
  const record = (r: AuthorizationResult): AuthorizationResult => {
    if (r.decision === 'allow') metrics.decision(type, name, 'allowed');
    else if (r.decision === 'deny') metrics.decision(type, name, 'denied');
    return r;
  };
  const decide = delegate.decide?.bind(delegate);
  const rulesFor = delegate.rulesFor?.bind(delegate);
  return {
    ...(decide ? { decide: (a: Attributes) => record(decide(a)) } : {}),
    ...(rulesFor ? { rulesFor } : {}),
    async authorize(a, request) {
      return record(await delegate.authorize(a, request));
    },
  };
}
