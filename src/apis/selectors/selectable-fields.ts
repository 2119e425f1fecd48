import { JsonPath } from '../jsonpath/jsonpath.js';
import type { ApiObject } from '../object.js';
import { type FieldLabelSupport, fieldLabelNotSupported, objectMetaFieldSet } from './field-labels.js';

/**
 * Field selectors of a kind from declared selectable fields (custom resources' `selectableFields`):
 * `metadata.name`, `metadata.namespace` for namespaced kinds, and each field's JSONPath without
 * its leading dot (`.spec.color` → `spec.color`). An object's value of a field is its scalar
 * printed as Go's `fmt.Sprint` prints it (`''` when absent). Anything else is refused with kube's
 * `field label not supported: <label>`.
 */
export function selectableFieldLabels(namespaced: boolean, jsonPaths: readonly string[]): FieldLabelSupport {
  const fields = jsonPaths.map((p) => ({ label: p.replace(/^\./, ''), path: new JsonPath(`{${p}}`, true) }));
  const supported = ['metadata.name', ...(namespaced ? ['metadata.namespace'] : []), ...fields.map((f) => f.label)];
  return Object.freeze({
    supported: Object.freeze(supported),
    unsupportedMessage: fieldLabelNotSupported,
    fieldSet(obj: ApiObject): Record<string, string> {
      const set = objectMetaFieldSet(obj, namespaced);
      for (const f of fields) set[f.label] = sprint(f.path.first(obj));
      return set;
    },
  });
}

function sprint(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
