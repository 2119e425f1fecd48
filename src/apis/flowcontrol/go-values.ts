import { goQuote } from '../../util/go-strconv.js';
import type { FieldError } from '../meta/field-error.js';

/** Field errors whose value kube prints in Go syntax (`[]string{"a"}`), for the flowcontrol rules. */

/** Go's `%#v` of a `[]string`. */
export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/** `Invalid value: <display>: <detail>` with an already formatted value. */
export function invalidShown(field: string, display: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${display}: ${detail}` };
}

/** `Unsupported value: <display>: supported values: "a", "b"` with an already formatted value. */
export function notSupportedShown(field: string, display: string, supported: readonly string[]): FieldError {
  return {
    type: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: ${display}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
  };
}
