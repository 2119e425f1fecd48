import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import {
  AGE_COLUMN,
  column,
  describeField,
  entryCount,
  goTrimSpace,
  itemCount,
  NAME_COLUMN,
  objectName,
  stringAt,
  valueAt,
} from './column-helpers.js';
import { AGE_SPEC, declarativeTableColumns } from './declarative-columns.js';
import { timestampMillis, translateTimestampSince } from './human-duration.js';
import type { TableColumns } from './table-types.js';

/**
 * The columns kube's printers give the built-in kinds (what `kubectl get` shows). The server
 * always renders every column, wide ones (priority 1) included. Descriptions come from the
 * kind's schema, as kube takes them from the Go types' documentation.
 */

function age(obj: ApiObject, now: Date): string {
  return translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now);
}

/** Namespace: `Name`, `Status` (the phase), `Age`. */
export function namespaceTableColumns(): TableColumns {
  return declarativeTableColumns([
    { name: 'Status', type: 'string', description: 'The status of the namespace', jsonPath: '.status.phase', zero: '' },
    AGE_SPEC,
  ]);
}

/** ConfigMap: `Name`, `Data` (number of `data` plus `binaryData` keys), `Age`. */
export function configMapTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Data', 'string', describeField(schema, 'data')),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => [
      objectName(obj),
      entryCount(obj.data) + entryCount(obj.binaryData),
      age(obj, now),
    ],
  });
}

/** Secret: `Name`, `Type`, `Data` (number of keys), `Age`. */
export function secretTableColumns(schema: Schema): TableColumns {
  return declarativeTableColumns([
    { name: 'Type', type: 'string', description: describeField(schema, 'type'), jsonPath: '.type', zero: '' },
    { name: 'Data', type: 'string', description: describeField(schema, 'data'), cell: (obj) => entryCount(obj.data) },
    AGE_SPEC,
  ]);
}

/** ServiceAccount: `Name`, `Secrets` (number of references), `Age`. */
export function serviceAccountTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Secrets', 'string', describeField(schema, 'secrets')),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => [objectName(obj), itemCount(obj.secrets), age(obj, now)],
  });
}

/** Lease: `Name`, `Holder` (`spec.holderIdentity`), `Age`. */
export function leaseTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Holder', 'string', describeField(schema, 'spec', 'holderIdentity')),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => [objectName(obj), stringAt(obj, 'spec', 'holderIdentity'), age(obj, now)],
  });
}

/** kube's `formatEventSource`: component (else reporting controller), then `, host` (else instance). */
function eventSource(obj: ApiObject): string {
  const component = stringAt(obj, 'source', 'component') || stringAt(obj, 'reportingComponent');
  const instance = stringAt(obj, 'source', 'host') || stringAt(obj, 'reportingInstance');
  return instance ? `${component}, ${instance}` : component;
}

function eventCells(obj: ApiObject, now: Date): (string | number)[] {
  // Go's IsZero: an unset timestamp (or the zero time) falls back as kube's printer does.
  const isZero = (v: unknown) => timestampMillis(v) === undefined;
  const firstTimestamp = valueAt(obj, 'firstTimestamp');
  const first = translateTimestampSince(isZero(firstTimestamp) ? valueAt(obj, 'eventTime') : firstTimestamp, now);
  const lastTimestamp = valueAt(obj, 'lastTimestamp');
  let last = isZero(lastTimestamp) ? first : translateTimestampSince(lastTimestamp, now);
  const rawCount = valueAt(obj, 'count');
  let count = typeof rawCount === 'number' ? rawCount : 0;
  const series = valueAt(obj, 'series');
  if (series !== null && typeof series === 'object' && !Array.isArray(series)) {
    last = translateTimestampSince(valueAt(series, 'lastObservedTime'), now);
    const seriesCount = valueAt(series, 'count');
    count = typeof seriesCount === 'number' ? seriesCount : 0;
  } else if (count === 0) {
    // Singleton events of the newer API carry no count.
    count = 1;
  }
  const kind = stringAt(obj, 'involvedObject', 'kind').toLowerCase();
  const involvedName = stringAt(obj, 'involvedObject', 'name');
  return [
    last,
    stringAt(obj, 'type'),
    stringAt(obj, 'reason'),
    involvedName ? `${kind}/${involvedName}` : kind,
    stringAt(obj, 'involvedObject', 'fieldPath'),
    eventSource(obj),
    goTrimSpace(stringAt(obj, 'message')),
    first,
    count,
    objectName(obj),
  ];
}

/**
 * Event: `Last Seen`, `Type`, `Reason`, `Object` (`kind/name`, lower-case kind), `Message`, and
 * the wide `Subobject`, `Source`, `First Seen`, `Count`, `Name`.
 */
export function eventTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      column('Last Seen', 'string', describeField(schema, 'lastTimestamp')),
      column('Type', 'string', describeField(schema, 'type')),
      column('Reason', 'string', describeField(schema, 'reason')),
      column('Object', 'string', describeField(schema, 'involvedObject')),
      column('Subobject', 'string', describeField(schema, 'involvedObject', 'fieldPath'), { priority: 1 }),
      column('Source', 'string', describeField(schema, 'source'), { priority: 1 }),
      column('Message', 'string', describeField(schema, 'message')),
      column('First Seen', 'string', describeField(schema, 'firstTimestamp'), { priority: 1 }),
      column('Count', 'string', describeField(schema, 'count'), { priority: 1 }),
      { ...NAME_COLUMN, priority: 1 },
    ]),
    cells: eventCells,
  });
}
