import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { ResourceDefinition } from '../../apis/resource-definition.js';
import {
  convertFieldSelector,
  fieldLabelsOf,
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
  SelectorError,
} from '../../apis/selectors/index.js';
import type { ListOptions } from '../types.js';

/**
 * The label and field selectors of a list, watch or deletecollection, compiled once. A
 * malformed selector or an unsupported field label is a 400 naming it.
 */
export interface SelectionPredicate {
  /** True when no selector restricts the result (remainingItemCount is reported then). */
  readonly everything: boolean;
  matches(obj: ApiObject): boolean;
  /** The same test on what a selector reads of an object, computed once per cached object. */
  matchesSelected(selected: SelectedValues): boolean;
}

/** What selectors read of an object: its labels and, when a field selector asks, its field values. */
export interface SelectedValues {
  labels(): Readonly<Record<string, string>>;
  fields(): Readonly<Record<string, string>>;
}

/** The predicate of a request without selectors, made once (lists ask for one on every request). */
const EVERYTHING: SelectionPredicate = Object.freeze({
  everything: true,
  matches: () => true,
  matchesSelected: () => true,
});

export function selectionPredicate(def: ResourceDefinition, o: ListOptions): SelectionPredicate {
  try {
    const labels = o.labelSelector ? parseLabelSelector(o.labelSelector) : undefined;
    const support = fieldLabelsOf(def);
    const fields = o.fieldSelector ? convertFieldSelector(parseFieldSelector(o.fieldSelector), support) : undefined;
    const useLabels = labels !== undefined && !labels.empty;
    const useFields = fields !== undefined && !fields.empty;
    if (!useLabels && !useFields) return EVERYTHING;
    return {
      everything: false,
      matches(obj) {
        if (useLabels && !matchesLabels(labels, obj.metadata.labels ?? {})) return false;
        if (useFields && !matchesFields(fields, support.fieldSet(obj))) return false;
        return true;
      },
      matchesSelected(selected) {
        if (useLabels && !matchesLabels(labels, selected.labels())) return false;
        if (useFields && !matchesFields(fields, selected.fields())) return false;
        return true;
      },
    };
  } catch (e) {
    if (e instanceof SelectorError) throw apiErrors.badRequest(e.message);
    throw e;
  }
}
