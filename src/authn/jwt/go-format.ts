import { goQuote } from '../../util/go-strconv.js';

/** Go's `%q` of a `[]string`: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/** Go's `%v` of a `time.Time` in UTC at second precision: `2006-01-02 15:04:05 +0000 UTC`. */
export function goTime(d: Date): string {
  const iso = d.toISOString();
  const ms = d.getUTCMilliseconds();
  const fraction = ms === 0 ? '' : `.${String(ms).padStart(3, '0').replace(/0+$/, '')}`;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction} +0000 UTC`;
}
