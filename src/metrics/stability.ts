import { Counter, Gauge, Histogram, type Metric, type Registry } from 'prom-client';
import { LeanCounter, LeanHistogram } from './lean-metrics.js';

/** A metric's stability class (kube's metrics stability framework). */
export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';

/** A `major.minor.patch` version, as metric deprecation versions are written. */
interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

function parseVersion(s: string): Version | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(s.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
}

function compare(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** A `--show-hidden-metrics-for-version` value that is not the previous minor version. */
export class ShowHiddenMetricsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShowHiddenMetricsError';
  }
}

/**
 * Checks `--show-hidden-metrics-for-version` against the component's version: only the previous
 * minor version is allowed (kube's rule and message); empty means unset.
 * @throws ShowHiddenMetricsError otherwise.
 */
export function validateShowHiddenMetricsVersion(current: string, value: string): void {
  if (value === '') return;
  const cur = parseVersion(current);
  if (!cur) throw new Error(`invalid component version ${current}`);
  const valid = `${cur.major}.${cur.minor - 1}`;
  if (value !== valid) {
    throw new ShowHiddenMetricsError(
      `--show-hidden-metrics-for-version must be omitted or have the value '${valid}'. Only the previous minor version is allowed`,
    );
  }
}

interface MetricOptions<L extends string> {
  /** Full name (`apiserver_request_total`). */
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly L[];
  readonly stability: StabilityLevel;
  /** The version that deprecated the metric (`1.27.0`); unset while it is not deprecated. */
  readonly deprecatedVersion?: string;
}

/** Whether a metric of `labels` is shown, and its help text. */
interface Resolved {
  readonly registered: boolean;
  readonly help: string;
}

/**
 * Defines a component's metrics with kube's stability framework on one prom-client registry:
 * help texts are prefixed with the stability class (`[STABLE] …`), a deprecated metric's with
 * `(Deprecated since x.y.z)` too, and a metric deprecated before the component's current minor
 * version is hidden (not registered, so `/metrics` does not show it) unless
 * `showHiddenForVersion` (the previous minor version, as `--show-hidden-metrics-for-version`)
 * is set. Hidden metrics still accept observations (they go nowhere), so callers need not check.
 */
export class MetricDefinitions {
  private readonly current: Version;
  private readonly showHidden: boolean;

  constructor(
    readonly registry: Registry,
    options: { readonly componentVersion: string; readonly showHiddenForVersion?: string },
  ) {
    const current = parseVersion(options.componentVersion);
    if (!current) throw new Error(`invalid component version ${options.componentVersion}`);
    this.current = current;
    validateShowHiddenMetricsVersion(options.componentVersion, options.showHiddenForVersion ?? '');
    this.showHidden = (options.showHiddenForVersion ?? '') !== '';
  }

  private resolve(o: MetricOptions<string>): Resolved {
    const deprecated = o.deprecatedVersion === undefined ? undefined : parseVersion(o.deprecatedVersion);
    let help = o.help;
    let registered = true;
    if (deprecated && compare(deprecated, this.current) <= 0) {
      help = `(Deprecated since ${o.deprecatedVersion}) ${help}`;
      const guard: Version = { major: this.current.major, minor: this.current.minor, patch: 0 };
      if (compare(deprecated, guard) < 0 && !this.showHidden) registered = false;
    }
    return { registered, help: `[${o.stability}] ${help}` };
  }

  private existing<T>(name: string): T | undefined {
    return this.registry.getSingleMetric(name) as T | undefined;
  }

  counter<L extends string>(o: MetricOptions<L>): Counter<L> {
    const found = this.existing<Counter<L>>(o.name);
    if (found) return found;
    const r = this.resolve(o);
    return new Counter({
      name: o.name,
      help: r.help,
      labelNames: o.labelNames ?? [],
      registers: r.registered ? [this.registry] : [],
    });
  }

  gauge<L extends string>(
    o: MetricOptions<L> & { readonly collect?: (this: Gauge<L>) => void | Promise<void> },
  ): Gauge<L> {
    const found = this.existing<Gauge<L>>(o.name);
    if (found) return found;
    const r = this.resolve(o);
    return new Gauge({
      name: o.name,
      help: r.help,
      labelNames: o.labelNames ?? [],
      registers: r.registered ? [this.registry] : [],
      ...(o.collect ? { collect: o.collect } : {}),
    });
  }

  /** A {@link LeanCounter} (request-path counters). */
  leanCounter(o: MetricOptions<string>): LeanCounter {
    const r = this.resolve(o);
    const m = new LeanCounter(o.name, r.help);
    if (r.registered) this.registry.registerMetric(m as unknown as Metric);
    return m;
  }

  /** A {@link LeanHistogram} (request-path latencies and sizes). */
  leanHistogram(o: MetricOptions<string> & { readonly buckets: readonly number[] }): LeanHistogram {
    const r = this.resolve(o);
    const m = new LeanHistogram(o.name, r.help, o.buckets);
    if (r.registered) this.registry.registerMetric(m as unknown as Metric);
    return m;
  }

  /** Whether a metric of this name is served (not hidden). */
  shown(name: string): boolean {
    return this.registry.getSingleMetric(name) !== undefined;
  }

  histogram<L extends string>(o: MetricOptions<L> & { readonly buckets: readonly number[] }): Histogram<L> {
    const found = this.existing<Histogram<L>>(o.name);
    if (found) return found;
    const r = this.resolve(o);
    return new Histogram({
      name: o.name,
      help: r.help,
      labelNames: o.labelNames ?? [],
      buckets: [...o.buckets],
      registers: r.registered ? [this.registry] : [],
    });
  }
}
