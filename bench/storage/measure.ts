/** Small measuring helpers shared by the benchmark suites. */

export async function timeOps(count: number, op: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await op(i);
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  return count / secs;
}

/** `count` operations with at most `inFlight` outstanding; returns operations per second. */
export async function timeConcurrent(
  count: number,
  inFlight: number,
  op: (i: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  const worker = async () => {
    while (next < count) await op(next++);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  return count / secs;
}

export async function timeOnce(op: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await op();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export function value(bytes: number, seed: number): Uint8Array {
  const s = JSON.stringify({ seed, pad: 'x'.repeat(Math.max(0, bytes - 30)) });
  return new TextEncoder().encode(s);
}

export type Row = {
  readonly metric: string;
  readonly ours: number;
  readonly unit: string;
  /** For latencies and durations lower is better: the ratio is baseline/ours. */
  readonly lowerIsBetter?: boolean;
  /** A figure measured in rounds: the median of the per-round ratios (else ours/baseline). */
  readonly ratio?: number;
  /** The lowest and highest per-round ratio. */
  readonly spread?: readonly [number, number];
} & (
  | { readonly baseline: number; readonly noBaseline?: undefined }
  /** A figure nothing comparable exists for: why (printed in place of a baseline and ratio). */
  | { readonly baseline?: undefined; readonly noBaseline: string }
);

export function ratio(r: Row): number {
  if (r.ratio !== undefined) return r.ratio;
  if (r.baseline === undefined) return Number.NaN;
  if (!Number.isFinite(r.baseline) || r.baseline === 0) return Number.NaN;
  return r.lowerIsBetter ? r.baseline / r.ours : r.ours / r.baseline;
}

/**
 * Prints a table of figures. A bench never prints a blank figure: a row whose figure or ratio
 * is not a finite number (nothing completed, a tool failed) stops the bench with the rows named.
 * Only a row that says why it has no baseline (`noBaseline`) prints without one.
 */
export function printTable(
  title: string,
  rows: readonly Row[],
  /** What a row's `spread` is. */
  spreadHeading = 'ratio range over rounds',
): void {
  const blank = rows.filter(
    (r) => !(r.noBaseline === undefined ? [r.ours, r.baseline, ratio(r)] : [r.ours]).every(Number.isFinite),
  );
  if (blank.length > 0) {
    throw new Error(
      `${title}: no figure measured for ${blank.map((r) => JSON.stringify(r.metric)).join(', ')} (nothing completed in the measuring window: is the machine overloaded, or did a tool fail?)`,
    );
  }
  const fmt = (n: number) => (Number.isFinite(n) ? (n >= 100 ? n.toFixed(0) : n.toFixed(2)) : 'n/a');
  console.log(`\n${title}`);
  const rounds = rows.some((r) => r.spread !== undefined);
  console.log(`| metric | ours | baseline | unit | ratio |${rounds ? ` ${spreadHeading} |` : ''}`);
  console.log(`|---|---:|---:|---|---:|${rounds ? '---|' : ''}`);
  for (const r of rows) {
    const spread = r.spread ? `${fmt(r.spread[0])}–${fmt(r.spread[1])}` : '';
    const line =
      r.noBaseline === undefined
        ? `| ${r.metric} | ${fmt(r.ours)} | ${fmt(r.baseline)} | ${r.unit} | ${fmt(ratio(r))} |`
        : `| ${r.metric} | ${fmt(r.ours)} | — | ${r.unit} (no baseline: ${r.noBaseline}) | — |`;
    console.log(rounds ? `${line} ${spread} |` : line);
  }
}
