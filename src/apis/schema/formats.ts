import { customResourceFormatCheck } from './string-formats.js';
import { parseTimestamp } from './time-format.js';

/**
 * String formats the server checks. `byte` follows Go's `encoding/json` decoding of `[]byte`
 * (standard alphabet, padding required, CR and LF ignored); `date-time` follows
 * `time.Parse(time.RFC3339, …)`.
 */
const STD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True when `value` decodes as standard, padded base64 (line breaks ignored). */
export function isBase64(value: string): boolean {
  const compact = value.replace(/[\r\n]/g, '');
  return compact.length % 4 === 0 && STD_BASE64.test(compact);
}

/** Number of bytes `value` decodes to; assumes {@link isBase64} holds. */
export function base64DecodedLength(value: string): number {
  const compact = value.replace(/[\r\n]/g, '');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  return (compact.length / 4) * 3 - padding;
}

/**
 * True when the string satisfies the named format; unknown formats always pass. `date-time` is
 * Go's RFC 3339 (`metav1.Time`); the other checked formats are kube-openapi's (see
 * `string-formats.ts`).
 */
export function stringMatchesFormat(format: string, value: string): boolean {
  switch (format) {
    case 'byte':
      return isBase64(value);
    case 'date-time':
      return parseTimestamp(value) !== undefined;
    default:
      return customResourceFormatCheck(format)?.(value) ?? true;
  }
}

/** Inclusive bounds of the integer formats (integers beyond 2^53 are `bigint`s in values). */
export const INTEGER_FORMAT_BOUNDS: Readonly<Record<string, readonly [number | bigint, number | bigint]>> = {
  int32: [-2147483648, 2147483647],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};
