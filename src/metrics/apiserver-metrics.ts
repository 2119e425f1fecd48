import type { Gauge } from 'prom-client';
import type { CounterChild, HistogramChild, LeanCounter, LeanHistogram } from './lean-metrics.js';
import type { MetricDefinitions } from './stability.js';

const LATENCY_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];
const SLI_BUCKETS = [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const AUTHN_BUCKETS = [
  0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048, 4.096, 8.192, 16.384,
];

/** The bound series of one request label set. */
export interface RequestSeries {
  count(code: number): void;
  readonly duration: HistogramChild;
  readonly sli: HistogramChild;
  readonly slo: HistogramChild | undefined;
  readonly sizes: HistogramChild;
  readonly longRunning: Gauge.Internal<string>;
}

export type RequestLabels =
  | 'verb'
  | 'dry_run'
  | 'group'
  | 'version'
  | 'resource'
  | 'subresource'
  | 'scope'
  | 'component';
type LatencyLabels = 'verb' | 'group' | 'version' | 'resource' | 'subresource' | 'scope' | 'component';

/** Where `apiserver_storage_objects` reads its counts: `[resource, objects]` (`deployments.apps`). */
export type StorageObjectCounts = () => Iterable<readonly [string, number]>;

/**
 * kube-apiserver's request and storage metrics (names, labels, buckets and stability classes
 * of v1.32), defined once per server on its registry.
 */
export class ApiServerMetrics {
  readonly requestTotal: LeanCounter;
  readonly requestDuration: LeanHistogram;
  /** ALPHA, deprecated in 1.27: hidden unless `--show-hidden-metrics-for-version=1.31`. */
  readonly requestSloDuration: LeanHistogram;
  readonly requestSliDuration: LeanHistogram;
  /** Whether the hidden SLO latency is shown (observing it costs otherwise for nothing). */
  readonly sloShown: boolean;
  readonly responseSizes: LeanHistogram;
  readonly longRunning: Gauge<LatencyLabels>;
  readonly deprecatedApis: Gauge<'group' | 'version' | 'resource' | 'subresource' | 'removed_release'>;
  readonly authenticationAttempts: LeanCounter;
  readonly authenticationDuration: LeanHistogram;
  readonly authenticatedUserRequests: LeanCounter;
  readonly authorizationAttempts: LeanCounter;
  readonly authorizationDuration: LeanHistogram;
  private readonly series = new Map<string, RequestSeries>();
  private readonly authnSeries = new Map<string, { attempts: CounterChild; duration: HistogramChild }>();
  private readonly userSeries = new Map<string, CounterChild>();
  private readonly authzSeries = new Map<string, { attempts: CounterChild; duration: HistogramChild }>();
  private readonly inflight = { readOnly: 0, mutating: 0 };
  private readonly inflightMax = { readOnly: 0, mutating: 0 };

  /**
   * `systemDefaultAccount`: the system namespace's default service account
   * (`system:serviceaccount:<system ns>:default`), one of the user names counted by name.
   */
  constructor(
    defs: MetricDefinitions,
    storageObjects: StorageObjectCounts,
    private readonly systemDefault: string,
  ) {
    const requestLabels: RequestLabels[] = [
      'verb',
      'dry_run',
      'group',
      'version',
      'resource',
      'subresource',
      'scope',
      'component',
    ];
    const latencyLabels: LatencyLabels[] = [
      'verb',
      'group',
      'version',
      'resource',
      'subresource',
      'scope',
      'component',
    ];
    this.requestTotal = defs.leanCounter({
      name: 'apiserver_request_total',
      help: 'Requests answered, by verb, dry run, group, version, resource, sub-resource, scope, component and HTTP code.',
      labelNames: [...requestLabels, 'code'],
      stability: 'STABLE',
    });
    this.requestDuration = defs.leanHistogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Time to answer a request, in seconds.',
      labelNames: requestLabels,
      buckets: LATENCY_BUCKETS,
      stability: 'STABLE',
    });
    this.requestSloDuration = defs.leanHistogram({
      name: 'apiserver_request_slo_duration_seconds',
      help: 'Time to answer a request without webhook and queue waits, in seconds; replaced by apiserver_request_sli_duration_seconds.',
      labelNames: latencyLabels,
      buckets: SLI_BUCKETS,
      stability: 'ALPHA',
      deprecatedVersion: '1.27.0',
    });
    this.sloShown = defs.shown('apiserver_request_slo_duration_seconds');
    this.requestSliDuration = defs.leanHistogram({
      name: 'apiserver_request_sli_duration_seconds',
      help: 'Time to answer a request without webhook and queue waits, in seconds.',
      labelNames: latencyLabels,
      buckets: SLI_BUCKETS,
      stability: 'ALPHA',
    });
    this.responseSizes = defs.leanHistogram({
      name: 'apiserver_response_sizes',
      help: 'Response sizes of get and list requests, in bytes.',
      labelNames: latencyLabels,
      buckets: [1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000],
      stability: 'STABLE',
    });
    this.longRunning = defs.gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Long-running requests (watches, connections) open now.',
      labelNames: latencyLabels,
      stability: 'STABLE',
    });
    this.deprecatedApis = defs.gauge({
      name: 'apiserver_requested_deprecated_apis',
      help: 'Deprecated API versions requested since start (1 each), with the release that removes them.',
      labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
      stability: 'STABLE',
    });
    const inflight = this.inflight;
    const inflightMax = this.inflightMax;
    defs.gauge({
      name: 'apiserver_current_inflight_requests',
      help: 'Highest number of requests being answered at once since the previous scrape, by kind.',
      labelNames: ['request_kind'],
      stability: 'STABLE',
      collect() {
        for (const kind of ['readOnly', 'mutating'] as const) {
          this.set({ request_kind: kind }, inflightMax[kind]);
          inflightMax[kind] = inflight[kind];
        }
      },
    });
    defs.gauge({
      name: 'apiserver_storage_objects',
      help: 'Objects stored, by resource, as the watch cache counts them.',
      labelNames: ['resource'],
      stability: 'STABLE',
      collect() {
        this.reset();
        for (const [resource, n] of storageObjects()) this.set({ resource }, n);
      },
    });
    this.authenticationAttempts = defs.leanCounter({
      name: 'authentication_attempts',
      help: 'Authentication attempts, by result.',
      labelNames: ['result'],
      stability: 'ALPHA',
    });
    this.authenticationDuration = defs.leanHistogram({
      name: 'authentication_duration_seconds',
      help: 'Time to authenticate a request, in seconds, by result.',
      labelNames: ['result'],
      buckets: AUTHN_BUCKETS,
      stability: 'ALPHA',
    });
    this.authorizationAttempts = defs.leanCounter({
      name: 'authorization_attempts_total',
      help: 'Authorization attempts, by result (allowed, denied, no-opinion, error).',
      labelNames: ['result'],
      stability: 'ALPHA',
    });
    this.authorizationDuration = defs.leanHistogram({
      name: 'authorization_duration_seconds',
      help: 'Time to authorize a request, in seconds, by result.',
      labelNames: ['result'],
      buckets: AUTHN_BUCKETS,
      stability: 'ALPHA',
    });
    this.authenticatedUserRequests = defs.leanCounter({
      name: 'authenticated_user_requests',
      help: 'Authenticated requests, by user class.',
      labelNames: ['username'],
      stability: 'ALPHA',
    });
  }

  /**
   * The request series of one label set, created once: prom-client hashes the labels of every
   * observation, which costs several microseconds per request; bound children do not.
   */
  requestSeries(labels: Readonly<Record<RequestLabels, string>>): RequestSeries {
    const key = `${labels.verb}\0${labels.dry_run}\0${labels.group}\0${labels.version}\0${labels.resource}\0${labels.subresource}\0${labels.scope}\0${labels.component}`;
    let s = this.series.get(key);
    if (!s) {
      const { dry_run: _dryRun, ...latency } = labels;
      const codes = new Map<number, CounterChild>();
      const total = this.requestTotal;
      s = {
        count: (code) => {
          let c = codes.get(code);
          if (!c) {
            c = total.child({ ...labels, code: String(code) });
            codes.set(code, c);
          }
          c.inc();
        },
        duration: this.requestDuration.child(labels),
        sli: this.requestSliDuration.child(latency),
        slo: this.sloShown ? this.requestSloDuration.child(latency) : undefined,
        sizes: this.responseSizes.child(latency),
        longRunning: this.longRunning.labels(alphabetical(latency)),
      };
      this.series.set(key, s);
    }
    return s;
  }

  /** One authentication: `success` (with the user), `failure` (401) or `error`. */
  authenticated(result: 'success' | 'failure' | 'error', seconds: number, username?: string): void {
    const r = bound(this.authnSeries, result, () => ({
      attempts: this.authenticationAttempts.child({ result }),
      duration: this.authenticationDuration.child({ result }),
    }));
    r.attempts.inc();
    r.duration.observe(seconds);
    if (username === undefined) return;
    const cls = userClass(username, this.systemDefault);
    bound(this.userSeries, cls, () => this.authenticatedUserRequests.child({ username: cls })).inc();
  }

  /** One authorization decision of the request filter. */
  authorized(result: 'allowed' | 'denied' | 'no-opinion' | 'error', seconds: number): void {
    const r = bound(this.authzSeries, result, () => ({
      attempts: this.authorizationAttempts.child({ result }),
      duration: this.authorizationDuration.child({ result }),
    }));
    r.attempts.inc();
    r.duration.observe(seconds);
  }

  /** Counts a request in flight until `inflightEnded`. */
  inflightStarted(kind: 'readOnly' | 'mutating'): void {
    this.inflight[kind]++;
    if (this.inflight[kind] > this.inflightMax[kind]) this.inflightMax[kind] = this.inflight[kind];
  }

  /** Ends what `inflightStarted` began; call it exactly once per start. */
  inflightEnded(kind: 'readOnly' | 'mutating'): void {
    this.inflight[kind]--;
  }
}

/** The same labels with their names in alphabetical order (as the Prometheus Go client prints them). */
function alphabetical<T extends Record<string, string>>(labels: T): T {
  const out: Record<string, string> = {};
  for (const k of Object.keys(labels).sort()) out[k] = labels[k];
  return out as T;
}

/** The series bound to `key`, made once. */
function bound<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let v = cache.get(key);
  if (v === undefined) {
    v = make();
    cache.set(key, v);
  }
  return v;
}

/**
 * kube's `compressUsername`: a few well-known users by name, e-mail-like names as `email_id`,
 * everyone else as `other` (no user names in metrics).
 */
function userClass(name: string, systemDefault: string): string {
  if (name === 'admin' || name === 'client' || name === 'kube_proxy' || name === 'kubelet' || name === systemDefault)
    return name;
  if (name.includes('@')) return 'email_id';
  return 'other';
}
