/**
 * Go's `%#v` of the values kube's workload validation puts into messages, e.g.
 * `spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: ...` and
 * `spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web"},
 * MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable`. Input is plain JSON;
 * absent fields print as Go's zero values (nil maps and slices). Pure functions.
 */
import { goQuote } from '../../util/go-strconv.js';
import { compareGoStrings } from '../../util/go-strings.js';
import { isPlainObject } from '../schema/json-value.js';

/** `%#v` of a `map[string]string`: keys in Go's order, `map[string]string(nil)` when absent. */
export function goStringMap(value: unknown): string {
  if (!isPlainObject(value)) return 'map[string]string(nil)';
  const keys = Object.keys(value).sort(compareGoStrings);
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(String(value[k]))}`).join(', ')}}`;
}

/** `%#v` of a `[]string`; `[]string(nil)` when absent. */
export function goStrings(value: unknown): string {
  if (!Array.isArray(value)) return '[]string(nil)';
  return `[]string{${value.map((v) => goQuote(String(v))).join(', ')}}`;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `%#v` of a `metav1.LabelSelector` value (the pointer already dereferenced). */
export function goLabelSelector(value: unknown): string {
  const sel = isPlainObject(value) ? value : {};
  const exprs = sel.matchExpressions;
  const expressions = Array.isArray(exprs)
    ? `[]v1.LabelSelectorRequirement{${exprs
        .map((e) => {
          const r = isPlainObject(e) ? e : {};
          return `v1.LabelSelectorRequirement{Key:${goQuote(str(r.key))}, Operator:${goQuote(str(r.operator))}, Values:${goStrings(r.values)}}`;
        })
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(sel.matchLabels)}, MatchExpressions:${expressions}}`;
}

/** `%#v` of an `intstr.IntOrString` value: `intstr.IntOrString{Type:1, IntVal:0, StrVal:"25%"}`. */
export function goIntOrString(value: unknown): string {
  if (typeof value === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`;
  const n = typeof value === 'number' ? value : 0;
  return `intstr.IntOrString{Type:0, IntVal:${n}, StrVal:""}`;
}

/** kube's `%v` of a scalar the way field errors print it: strings quoted, numbers and booleans bare, nil `null`. */
export function goScalar(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return goQuote(value);
  return String(value);
}
