import { goQuote } from '../../util/go-strconv.js';
import type { FieldError } from '../meta/field-error.js';
import { goStringSlice } from '../selectors/go-format.js';

/**
 * kube prints some field-error values with Go's `%#v` (string slices, structs). These build
 * such errors with the value already in Go's form.
 */

/** `field.Invalid` with a value already formatted (e.g. `[]string{"a"}`). */
export function invalidGo(field: string, goValue: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${goValue}: ${detail}` };
}

/** `field.Invalid` of a `[]string` value. */
export function invalidStrings(field: string, values: readonly string[] | undefined, detail: string): FieldError {
  return invalidGo(field, goStringSlice(values ?? null), detail);
}

/** `field.Duplicate` with a value already formatted. */
export function duplicateGo(field: string, goValue: string): FieldError {
  return { type: 'FieldValueDuplicate', field, message: `Duplicate value: ${goValue}` };
}

/** `%#v` of a `core.ServicePort` carrying only a protocol and a port or node port (duplicate keys). */
export function goServicePortKey(key: { protocol: string; port?: number; nodePort?: number }): string {
  return (
    `core.ServicePort{Name:"", Protocol:${goQuote(key.protocol)}, AppProtocol:(*string)(nil), ` +
    `Port:${key.port ?? 0}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:${key.nodePort ?? 0}}`
  );
}
