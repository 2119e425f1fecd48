import { parseTimestamp } from '../schema/time-format.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Go's `int(x)` of a float: truncation toward zero. */
const trunc = Math.trunc;

/**
 * kube's `duration.HumanDuration` (what `Age` columns show), for a duration in milliseconds:
 * about two significant figures, e.g. `45s`, `119s`, `3m10s`, `70m`, `3h20m`, `47h`, `2d1h`,
 * `367d`, `2y1d`, `8y`. Up to 2 s in the future reads `0s` (clock skew); further is `<invalid>`.
 */
export function humanDuration(ms: number): string {
  const seconds = trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = trunc(ms / SECOND) % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${trunc(hours / 24)}d` : `${trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = trunc(hours / 24) % 365;
    return dy === 0 ? `${trunc(hours / 24 / 365)}y` : `${trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${trunc(hours / 24 / 365)}y`;
}

/**
 * kube's `duration.ShortHumanDuration`: one unit only (`59s`, `1m`, `23h`, `364d`, `2y`), with
 * the same skew rule as `humanDuration`.
 */
export function shortHumanDuration(ms: number): string {
  const seconds = trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = trunc(ms / MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = trunc(ms / HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${trunc(hours / 24)}d`;
  return `${trunc(ms / HOUR / 24 / 365)}y`;
}

/** Go's zero `time.Time` (`0001-01-01T00:00:00Z`), which `IsZero` reports as unset. */
const GO_ZERO_EPOCH_SECONDS = -62135596800;

/**
 * Milliseconds since the epoch of a `Time`/`MicroTime` value (fraction kept to the microsecond),
 * or undefined when it is unset, not a timestamp, or Go's zero time.
 */
export function timestampMillis(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = parseTimestamp(value);
  if (!parsed) return undefined;
  const fractionMs = Number(`0.${parsed.fraction || '0'}`) * 1000;
  if (parsed.epochSeconds === GO_ZERO_EPOCH_SECONDS && fractionMs === 0) return undefined;
  return parsed.epochSeconds * 1000 + fractionMs;
}

/**
 * kube's `translateTimestampSince`: the human duration from `value` to `now`, or `<unknown>`
 * for an unset (or unparsable) timestamp.
 */
export function translateTimestampSince(value: unknown, now: Date): string {
  const ms = timestampMillis(value);
  return ms === undefined ? '<unknown>' : humanDuration(now.getTime() - ms);
}
