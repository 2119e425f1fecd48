import { goQuote } from '../../util/go-strconv.js';
import type { ApiObject } from '../object.js';
import { UnsupportedFieldLabelError } from './errors.js';
import type { FieldSelector } from './field-selector.js';

/**
 * What field selectors may name for one kind, and the values an object has for them: kube's
 * field label conversion (which labels a request may use) plus the kind's `GetAttrs` field set
 * (what they are matched against).
 */
export interface FieldLabelSupport {
  /** Labels a field selector on this kind may name, e.g. `metadata.name`. */
  readonly supported: readonly string[];
  /** The message of the 400 answered for a label outside `supported`. */
  unsupportedMessage(label: string): string;
  /**
   * The object's selectable field values (kube's `ToSelectableFields`): every label in
   * `supported` the object has, as strings. Pure; does not keep `obj`.
   */
  fieldSet(obj: ApiObject): Record<string, string>;
}

/** Message of kinds with their own field label conversion (Namespace, Secret, Event, ...). */
export function fieldLabelNotSupported(label: string): string {
  return `field label not supported: ${label}`;
}

/** Message of kinds using kube's default conversion (`DefaultMetaV1FieldSelectorConversion`). */
export function notAKnownFieldSelector(label: string): string {
  return `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
}

/**
 * kube's `ObjectMetaFieldsSet`: `metadata.name`, plus `metadata.namespace` for namespaced kinds.
 */
export function objectMetaFieldSet(obj: ApiObject, namespaced: boolean): Record<string, string> {
  const meta = obj.metadata ?? {};
  const set: Record<string, string> = { 'metadata.name': str(meta.name) };
  if (namespaced) set['metadata.namespace'] = str(meta.namespace);
  return set;
}

/** A string field's value, `''` when absent or not a string. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The support every kind gets without a conversion of its own (and custom resources without
 * selectable fields): `metadata.name` and `metadata.namespace` are accepted; the field set holds
 * `metadata.namespace` only for namespaced kinds, so on a cluster-scoped kind
 * `metadata.namespace=` matches everything and any other value nothing.
 */
export function defaultFieldLabels(options: { readonly namespaced: boolean }): FieldLabelSupport {
  return options.namespaced ? NAMESPACED_DEFAULT : CLUSTER_DEFAULT;
}

/** Made once: a list of a kind without its own support asks for it on every request. */
const NAMESPACED_DEFAULT: FieldLabelSupport = defaultSupport(true);
const CLUSTER_DEFAULT: FieldLabelSupport = defaultSupport(false);

function defaultSupport(namespaced: boolean): FieldLabelSupport {
  return Object.freeze({
    supported: Object.freeze(['metadata.name', 'metadata.namespace']),
    unsupportedMessage: notAKnownFieldSelector,
    fieldSet: (obj: ApiObject) => objectMetaFieldSet(obj, namespaced),
  });
}

/** The field label support of a definition: its own, or the default for its scope. */
export function fieldLabelsOf(def: {
  readonly fieldLabels?: FieldLabelSupport;
  readonly namespaced: boolean;
}): FieldLabelSupport {
  return def.fieldLabels ?? defaultFieldLabels({ namespaced: def.namespaced });
}

/**
 * kube's field label conversion of a list/watch/deletecollection request: every term must name a
 * supported label, checked in the selector's term order; the selector itself is unchanged (no
 * built-in kind renames labels).
 *
 * @throws UnsupportedFieldLabelError for the first unsupported label, with the kind's message.
 */
export function convertFieldSelector(selector: FieldSelector, support: FieldLabelSupport): FieldSelector {
  for (const r of selector.requirements) {
    if (!support.supported.includes(r.field)) {
      throw new UnsupportedFieldLabelError(r.field, support.unsupportedMessage(r.field));
    }
  }
  return selector;
}
