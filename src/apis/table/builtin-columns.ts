import type { ApiObject } from '../object.js';
import {
  AGE_COLUMN,
  column,
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
 * always renders every column, wide ones (priority 1) included. kube describes the columns with
 * its Go types' documentation; these descriptions are Orch's own.
 */

function age(obj: ApiObject, now: Date): string {
  return translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now);
}

/** Namespace: `Name`, `Status` (the phase), `Age`. */
export function namespaceTableColumns(): TableColumns {
  return declarativeTableColumns([
    {
      name: 'Status',
      type: 'string',
      description: 'The lifecycle phase of the namespace: Active or Terminating.',
      jsonPath: '.status.phase',
      zero: '',
    },
    AGE_SPEC,
  ]);
}

/** ConfigMap: `Name`, `Data` (number of `data` plus `binaryData` keys), `Age`. */
export function configMapTableColumns(): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Data', 'string', 'The number of keys in data and binaryData.'),
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
export function secretTableColumns(): TableColumns {
  return declarativeTableColumns([
    {
      name: 'Type',
      type: 'string',
      description: 'The type of the secret, which says what keys its data holds.',
      jsonPath: '.type',
      zero: '',
    },
    { name: 'Data', type: 'string', description: 'The number of keys in data.', cell: (obj) => entryCount(obj.data) },
    AGE_SPEC,
  ]);
}

/** ServiceAccount: `Name`, `Secrets` (number of references), `Age`. */
export function serviceAccountTableColumns(): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Secrets', 'string', 'The number of secrets the service account lists.'),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => [objectName(obj), itemCount(obj.secrets), age(obj, now)],
  });
}

/** Lease: `Name`, `Holder` (`spec.holderIdentity`), `Age`. */
export function leaseTableColumns(): TableColumns {
  return declarativeTableColumns([
    {
      name: 'Holder',
      type: 'string',
      description: 'The identity of the current holder of the lease.',
      jsonPath: '.spec.holderIdentity',
      zero: '',
    },
    AGE_SPEC,
  ]);
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
export function eventTableColumns(): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      column('Last Seen', 'string', 'When the event last occurred.'),
      column('Type', 'string', 'Normal, or Warning when something may need attention.'),
      column('Reason', 'string', 'A short, machine-readable reason for the event.'),
      column('Object', 'string', 'The object the event is about, as kind/name.'),
      column('Subobject', 'string', 'The part of the object the event is about, such as one container.', {
        priority: 1,
      }),
      column('Source', 'string', 'The component, and host, that reported the event.', { priority: 1 }),
      column('Message', 'string', 'What happened, in words for people.'),
      column('First Seen', 'string', 'When the event first occurred.', { priority: 1 }),
      column('Count', 'string', 'How many times the event has occurred.', { priority: 1 }),
      { ...NAME_COLUMN, priority: 1 },
    ]),
    cells: eventCells,
  });
}
