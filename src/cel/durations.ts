import { parseGoDurationNanos } from '../util/go-duration.js';
/**
 * Durations in strings of `format: duration`, as kube-openapi's `strfmt.ParseDuration` reads them:
 * Go's `time.ParseDuration` form (`1h30m`, `-1.5s`, `300ms`), else a sequence of whole numbers with
 * unit words (`3 days`, `1 week 2d`).
 */

/** A duration split as CEL holds it: whole seconds and the remaining nanoseconds (same sign). */
export interface SplitDuration {
  readonly seconds: bigint;
  readonly nanos: number;
}

const MAX_NANOS = 2n ** 63n - 1n;

/** strfmt's unit words: a unit is one of the spellings, or starts with the last (`days`, `minutes`). */
const UNIT_WORDS: readonly [readonly string[], bigint][] = [
  [['ns', 'nano'], 1n],
  [['us', 'µs', 'micro'], 1_000n],
  [['ms', 'milli'], 1_000_000n],
  [['s', 'sec'], 1_000_000_000n],
  [['m', 'min'], 60_000_000_000n],
  [['h', 'hr', 'hour'], 3_600_000_000_000n],
  [['d', 'day'], 86_400_000_000_000n],
  [['w', 'wk', 'week'], 604_800_000_000_000n],
];

function parseWordNanos(text: string): bigint | undefined {
  let total = 0n;
  let found = false;
  for (const m of text.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const unit = m[2].trim().toLowerCase();
    const entry = UNIT_WORDS.find(([spellings]) =>
      spellings.some((v, i) => unit === v || (i === spellings.length - 1 && unit.startsWith(v))),
    );
    if (!entry) continue;
    const n = BigInt(m[1]);
    if (n > MAX_NANOS) return undefined; // not an int64: strconv.Atoi fails
    total += n * entry[1];
    if (total > MAX_NANOS) return undefined;
    found = true;
  }
  return found ? total : undefined;
}

/** The duration in `text`, or `undefined` when it is not a duration. */
export function parseDuration(text: string): SplitDuration | undefined {
  const go = parseGoDurationNanos(text);
  const nanos = typeof go === 'bigint' ? go : parseWordNanos(text);
  if (nanos === undefined) return undefined;
  return { seconds: nanos / 1_000_000_000n, nanos: Number(nanos % 1_000_000_000n) };
}
