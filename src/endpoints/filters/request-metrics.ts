import type { RequestInfo } from '../../apis/request/request-info.js';
import type { ApiServerMetrics } from '../../metrics/apiserver-metrics.js';
import type { ApiRequest, ApiResponse, Filter } from '../handler.js';

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
  let verb = req.method.toUpperCase();
  if ((verb === 'GET' || verb === 'HEAD') && scope !== 'resource' && scope !== '') verb = 'LIST';
  if (info.verb === 'watch') verb = 'WATCH';
  if (verb === 'PATCH' && (req.headers['content-type'] ?? '').split(';')[0].trim() === 'application/apply-patch+yaml')
    verb = 'APPLY';
  if (info.isResourceRequest && CONNECT_SUBRESOURCES.has(info.subresource) && info.subresource !== '') verb = 'CONNECT';
  return verb;
}

/** kube's `cleanDryRun`: the sorted, de-duplicated `dryRun` values, `invalid` for unknown ones. */
function dryRunOf(query: URLSearchParams): string {
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}

function bodyLength(res: ApiResponse): number {
  if (res.kind !== 'body') return 0;
  return typeof res.body === 'string' ? Buffer.byteLength(res.body) : res.body.length;
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
  return (next) => (req) => {
    const info = req.info;
    if (!info?.isResourceRequest) return next(req);
    const started = performance.now();
    const scope = scopeOf(info);
    const verb = verbOf(req, info, scope);
    const series = metrics.requestSeries({
      verb,
      dry_run: dryRunOf(req.query),
      group: info.apiGroup,
      version: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      scope,
      component: COMPONENT,
    });
    const record = (code: number) => {
      const seconds = (performance.now() - started) / 1000;
      series.count(code);
      series.duration.observe(seconds);
      series.sli.observe(seconds);
      series.slo?.observe(seconds);
      const deprecated = req.deprecatedApi;
      if (deprecated) {
        metrics.deprecatedApis.set(
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
    };
    const longRunning = verb === 'WATCH' || verb === 'CONNECT';
    const done = longRunning ? undefined : metrics.startInflight(READ_ONLY.has(info.verb) ? 'readOnly' : 'mutating');
    const completed = (res: ApiResponse): ApiResponse => {
      done?.();
      if (res.kind === 'body') {
        record(res.status);
        if (verb === 'GET' || verb === 'LIST') series.sizes.observe(bodyLength(res));
        return res;
      }
      const pump = res.pump;
      return {
        ...res,
        pump: async (write, signal) => {
          series.longRunning.inc();
          try {
            await pump(write, signal);
          } finally {
            series.longRunning.dec();
            record(res.status);
          }
        },
      };
    };
    const failed = (e: unknown): never => {
      done?.();
      record(500);
      throw e;
    };
    // No async frame of its own: an answer given at once is recorded at once, a pending one with
    // one `then` (cached GETs count every hop).
    let res: ApiResponse | Promise<ApiResponse>;
    try {
      res = next(req);
    } catch (e) {
      return failed(e);
    }
    return res instanceof Promise ? res.then(completed, failed) : completed(res);
  };
}
