/**
 * Cell helpers kube's workload printers share: the template's container names and images
 * (`layoutContainerCells`), label maps (`labels.FormatLabels`) and label selectors
 * (`metav1.FormatLabelSelector`), and the two wide container columns.
 */

import { compareGoStrings } from '../../util/go-strings.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import { labelSelectorString } from '../selectors/label-selector.js';
import { column } from '../table/column-helpers.js';
import { type ColumnSpec, columnSpecOf } from '../table/declarative-columns.js';
import type { TableColumnDefinition } from '../table/table-types.js';
import { selectorOf } from './workload-validation.js';

/** The wide `Containers` column. */
export const CONTAINERS_COLUMN: TableColumnDefinition = column(
  'Containers',
  'string',
  'The container names of the pod template.',
  {
    priority: 1,
  },
);
/** The wide `Images` column. */
export const IMAGES_COLUMN: TableColumnDefinition = column(
  'Images',
  'string',
  'The container images of the pod template.',
  { priority: 1 },
);

/** The wide `Containers` and `Images` columns of the pod template `template` finds in an object. */
export function containerColumnSpecs(template: (obj: ApiObject) => unknown): ColumnSpec[] {
  return [
    { ...columnSpecOf(CONTAINERS_COLUMN), cell: (obj) => containerCells(template(obj))[0] },
    { ...columnSpecOf(IMAGES_COLUMN), cell: (obj) => containerCells(template(obj))[1] },
  ];
}

/** `layoutContainerCells` of a pod template: names and images of its containers, comma-joined. */
export function containerCells(template: unknown): [string, string] {
  const spec = isPlainObject(template) && isPlainObject(template.spec) ? template.spec : {};
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  const field = (c: unknown, f: string) => (isPlainObject(c) && typeof c[f] === 'string' ? (c[f] as string) : '');
  return [containers.map((c) => field(c, 'name')).join(','), containers.map((c) => field(c, 'image')).join(',')];
}

/** `labels.FormatLabels`: `k=v` pairs sorted by key, comma-joined; `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  if (!isPlainObject(labels)) return '<none>';
  const keys = Object.keys(labels).sort(compareGoStrings);
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${String(labels[k])}`).join(',');
}

/** `metav1.FormatLabelSelector`: the selector's string, `<none>` when it selects by nothing, `<error>` when invalid. */
export function formatLabelSelector(selector: unknown): string {
  const sel = selectorOf(selector);
  if (!sel) return '<error>';
  return labelSelectorString(sel) || '<none>';
}

/** A label selector object as a selector string (`status.selector` of a Scale); `''` when it does not convert. */
export function selectorString(selector: unknown): string {
  const sel = selectorOf(selector);
  return sel ? labelSelectorString(sel) : '';
}
