import { JsonPath } from '../jsonpath/jsonpath.js';
import type { ApiObject } from '../object.js';
import { type FieldLabelSupport, fieldLabelNotSupported, objectMetaFieldSet } from './field-labels.js';

/**
 * Field selectors as data: each selectable field is a label and where its value comes from, a
 * JSONPath into the object (custom resources' `selectableFields`, and built-in fields that only
 * read a field) or a function for values kube's `GetAttrs` computes. Built-in kinds and custom
 * resources share this one path.
 */
export interface SelectableFieldSpec {
  /** The label a field selector names (`spec.type`). */
  readonly label: string;
  /** Where the value is: a JSONPath (default `.<label>`). */
  readonly jsonPath?: string;
  /**
   * The value when the path selects nothing (Go's zero value of a typed field: `''`, `'0'`,
   * `'false'`). Default `''`.
   */
  readonly zero?: string;
  /** A computed value instead of a path; undefined leaves the label out of the field set. */
  readonly value?: (obj: ApiObject) => string | undefined;
}

export interface DeclarativeFieldLabelsOptions {
  /** Whether `metadata.namespace` is in the field set (namespaced kinds). */
  readonly namespaced: boolean;
  /** Which object-meta labels a selector may name. Default: `metadata.name`, plus `metadata.namespace` when namespaced. */
  readonly metaLabels?: readonly ('metadata.name' | 'metadata.namespace')[];
  readonly fields: readonly SelectableFieldSpec[];
  /** The 400's message for other labels. Default `field label not supported: <label>`. */
  readonly unsupportedMessage?: (label: string) => string;
}

/** A value as Go's `fmt.Sprint` prints a decoded JSON scalar. */
function sprint(value: unknown, zero: string): string {
  if (value === undefined || value === null) return zero;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The field label support of declared selectable fields (see {@link SelectableFieldSpec}). */
export function declarativeFieldLabels(o: DeclarativeFieldLabelsOptions): FieldLabelSupport {
  const meta = o.metaLabels ?? (o.namespaced ? ['metadata.name', 'metadata.namespace'] : ['metadata.name']);
  const readers = o.fields.map((f) => {
    if (f.value) return { label: f.label, read: f.value };
    const path = new JsonPath(`{${f.jsonPath ?? `.${f.label}`}}`, true);
    const zero = f.zero ?? '';
    return { label: f.label, read: (obj: ApiObject) => sprint(path.first(obj), zero) };
  });
  return Object.freeze({
    supported: Object.freeze([...meta, ...readers.map((r) => r.label)]),
    unsupportedMessage: o.unsupportedMessage ?? fieldLabelNotSupported,
    fieldSet(obj: ApiObject): Record<string, string> {
      const set = objectMetaFieldSet(obj, o.namespaced);
      for (const r of readers) {
        const v = r.read(obj);
        if (v !== undefined) set[r.label] = v;
      }
      return set;
    },
  });
}

/**
 * Field selectors of a custom resource version (kube's CR field label conversion):
 * `metadata.name`, `metadata.namespace` for namespaced kinds, and each selectable field's
 * JSONPath without its leading dot (`.spec.color` → `spec.color`); values as Go prints them, `''`
 * when absent; anything else is refused with `field label not supported: <label>`.
 */
export function selectableFieldLabels(namespaced: boolean, jsonPaths: readonly string[]): FieldLabelSupport {
  return declarativeFieldLabels({
    namespaced,
    fields: jsonPaths.map((p) => ({ label: p.replace(/^\./, ''), jsonPath: p })),
  });
}
