/**
 * Counters and histograms for the request path: an observation is a few arithmetic operations
 * on a series bound once per label set (prom-client's own metrics hash the label object on every
 * observation, which cost a cached GET about a fifth of its throughput). They implement the
 * metric contract of prom-client's `Registry` (`name`, `help`, `type`, `get()`), so they are
 * served at `/metrics` beside prom-client's own. Label pairs are written sorted by name (`le`
 * last), as the Prometheus Go client writes them.
 */

type Labels = Readonly<Record<string, string>>;

interface MetricValue {
  readonly labels: Labels;
  readonly value: number;
  readonly metricName?: string;
}

function sortedLabels(labels: Labels): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(labels).sort()) out[k] = labels[k];
  return out;
}

function keyOf(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}\u0000${labels[k]}`)
    .join('\u0001');
}

/** One counter series. */
export interface CounterChild {
  inc(n?: number): void;
}

/** One histogram series. */
export interface HistogramChild {
  observe(value: number): void;
}

class CounterSeries implements CounterChild {
  value = 0;
  constructor(readonly labels: Labels) {}
  inc(n = 1): void {
    this.value += n;
  }
}

class HistogramSeries implements HistogramChild {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = bounds.map(() => 0);
  }
  observe(value: number): void {
    this.sum += value;
    this.count++;
    const b = this.bounds;
    for (let i = 0; i < b.length; i++) {
      if (value <= b[i]) {
        this.counts[i]++;
        return;
      }
    }
  }
}

/** A counter family of bound series. */
export class LeanCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, CounterSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  /** The series of `labels` (made once; keep it). */
  child(labels: Labels): CounterChild {
    const key = keyOf(labels);
    let s = this.series.get(key);
    if (!s) {
      s = new CounterSeries(sortedLabels(labels));
      this.series.set(key, s);
    }
    return s;
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: MetricValue[] }> {
    const values = [...this.series.values()].map((s) => ({ labels: s.labels, value: s.value }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}

/** A histogram family of bound series with fixed upper bounds. */
export class LeanHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  child(labels: Labels): HistogramChild {
    const key = keyOf(labels);
    let s = this.series.get(key);
    if (!s) {
      s = new HistogramSeries(sortedLabels(labels), this.bounds);
      this.series.set(key, s);
    }
    return s;
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: MetricValue[] }> {
    const values: MetricValue[] = [];
    for (const s of this.series.values()) {
      let acc = 0;
      this.bounds.forEach((le, i) => {
        acc += s.counts[i];
        values.push({ labels: { ...s.labels, le: String(le) }, value: acc, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}
