import { goQuote } from '../../util/go-strconv.js';
import { type FieldError, invalidShown } from '../meta/field-error.js';
import { goStringSlice } from '../selectors/go-format.js';

/**
 * kube prints some field-error values with Go's `%#v` (string slices, structs): these format
 * the Service ones.
 */

/** `field.Invalid` of a `[]string` value. */
export function invalidStrings(field: string, values: readonly string[] | undefined, detail: string): FieldError {
  return invalidShown(field, goStringSlice(values ?? null), detail);
}

/** `%#v` of a `core.ServicePort` carrying only a protocol and a port or node port (duplicate keys). */
export function goServicePortKey(key: { protocol: string; port?: number; nodePort?: number }): string {
  return (
    `core.ServicePort{Name:"", Protocol:${goQuote(key.protocol)}, AppProtocol:(*string)(nil), ` +
    `Port:${key.port ?? 0}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:${key.nodePort ?? 0}}`
  );
}
