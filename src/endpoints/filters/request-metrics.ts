import type { RequestInfo } from '../../apis/request/request-info.js';
import type { ApiServerMetrics, RequestLabels, RequestSeries } from '../../metrics/apiserver-metrics.js';
import { type ApiRequest, type ApiResponse, bodySize, type Filter } from '../handler.js';

/** Sub-resources kube reports as `CONNECT`. */
const CONNECT_SUBRESOURCES = new Set(['proxy', 'attach', 'exec', 'portforward', 'log']);
const READ_ONLY = new Set(['get', 'list', 'watch']);
const COMPONENT = 'apiserver';

/** kube's `CleanScope`. */
function scopeOf(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/** kube's reported verb: the HTTP method, GET of a collection as LIST, WATCH, APPLY, CONNECT. */
function verbOf(req: ApiRequest, info: RequestInfo, scope: string): string {
  // Methods arrive upper-case (HTTP/1.1's parser, HTTP/2 clients): case-mapped only when not.
  let verb = req.method;
  if (hasLowerCase(verb)) verb = verb.toUpperCase();
  if ((verb === 'GET' || verb === 'HEAD') && scope !== 'resource' && scope !== '') verb = 'LIST';
  if (info.verb === 'watch') verb = 'WATCH';
  if (verb === 'PATCH' && (req.headers['content-type'] ?? '').split(';')[0].trim() === 'application/apply-patch+yaml')
    verb = 'APPLY';
  if (info.isResourceRequest && CONNECT_SUBRESOURCES.has(info.subresource) && info.subresource !== '') verb = 'CONNECT';
  return verb;
}

/** Whether an (ASCII) method name has a lower-case letter; no string is made to find out. */
function hasLowerCase(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) return true;
  }
  return false;
}

/** kube's `cleanDryRun`: the sorted, de-duplicated `dryRun` values, `invalid` for unknown ones. */
function dryRunOf(query: URLSearchParams): string {
  if (!query.has('dryRun')) return '';
  const values = query.getAll('dryRun');
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}

function bodyLength(res: ApiResponse): number {
  return res.kind === 'body' ? bodySize(res.body) : 0;
}

/**
 * Records kube-apiserver's request metrics for resource requests: `apiserver_request_total` and
 * `apiserver_request_duration_seconds` (and the SLI/SLO latencies) when the answer is complete
 * — for watches and connections when the stream ends — `apiserver_longrunning_requests` while a
 * stream is open, `apiserver_current_inflight_requests` for the others, response sizes of
 * reads, and `apiserver_requested_deprecated_apis` for deprecated versions. Runs after the
 * request-info filter.
 */
export function requestMetrics(metrics: ApiServerMetrics): Filter {
  // The series of the last request: a run of like requests (a client polling one object) finds it
  // without building the label key.
  let last: (Readonly<Record<RequestLabels, string>> & { readonly series: RequestSeries }) | undefined;
  const seriesOf = (labels: Readonly<Record<RequestLabels, string>>): RequestSeries => {
    const l = last;
    if (
      l !== undefined &&
      l.verb === labels.verb &&
      l.resource === labels.resource &&
      l.group === labels.group &&
      l.version === labels.version &&
      l.subresource === labels.subresource &&
      l.scope === labels.scope &&
      l.dry_run === labels.dry_run &&
      l.component === labels.component
    ) {
      return l.series;
    }
    const series = metrics.requestSeries(labels);
    last = { ...labels, series };
    return series;
  };
  return (next) => (req) => {
    const info = req.info;
    if (!info?.isResourceRequest) return next(req);
    const scope = scopeOf(info);
    const verb = verbOf(req, info, scope);
    const series = seriesOf({
      verb,
      dry_run: dryRunOf(req.query),
      group: info.apiGroup,
      version: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      scope,
      component: COMPONENT,
    });
    const longRunning = verb === 'WATCH' || verb === 'CONNECT';
    const o = new Observation(metrics, series, req, info, verb, longRunning);
    // No async frame of its own: an answer given at once is recorded at once, a pending one with
    // one `then` (cached GETs count every hop).
    let res: ApiResponse | Promise<ApiResponse>;
    try {
      res = next(req);
    } catch (e) {
      return o.failed(e);
    }
    return res instanceof Promise
      ? res.then(
          (settled) => o.completed(settled),
          (e: unknown) => o.failed(e),
        )
      : o.completed(res);
  };
}

/** One request's observation, from the filter to its answer (or the end of its stream). */
class Observation {
  private readonly started = performance.now();
  /** The in-flight gauge the request counts in until answered; none for long-running ones. */
  private inflight: 'readOnly' | 'mutating' | undefined;

  constructor(
    private readonly metrics: ApiServerMetrics,
    private readonly series: RequestSeries,
    private readonly req: ApiRequest,
    private readonly info: RequestInfo,
    private readonly verb: string,
    longRunning: boolean,
  ) {
    if (!longRunning) {
      this.inflight = READ_ONLY.has(info.verb) ? 'readOnly' : 'mutating';
      metrics.inflightStarted(this.inflight);
    }
  }

  completed(res: ApiResponse): ApiResponse {
    this.answered();
    if (res.kind === 'body') {
      this.record(res.status);
      if (this.verb === 'GET' || this.verb === 'LIST') this.series.sizes.observe(bodyLength(res));
      return res;
    }
    const pump = res.pump;
    const series = this.series;
    return {
      ...res,
      pump: async (write, signal) => {
        series.longRunning.inc();
        try {
          await pump(write, signal);
        } finally {
          series.longRunning.dec();
          this.record(res.status);
        }
      },
    };
  }

  failed(e: unknown): never {
    this.answered();
    this.record(500);
    throw e;
  }

  private answered(): void {
    if (this.inflight === undefined) return;
    this.metrics.inflightEnded(this.inflight);
    this.inflight = undefined;
  }

  private record(code: number): void {
    const seconds = (performance.now() - this.started) / 1000;
    const series = this.series;
    series.count(code);
    series.duration.observe(seconds);
    series.sli.observe(seconds);
    series.slo?.observe(seconds);
    const deprecated = this.req.deprecatedApi;
    if (deprecated) {
      const info = this.info;
      this.metrics.deprecatedApis.set(
        {
          group: info.apiGroup,
          removed_release: deprecated.removedRelease,
          resource: info.resource,
          subresource: info.subresource,
          version: info.apiVersion,
        },
        1,
      );
    }
  }
}
