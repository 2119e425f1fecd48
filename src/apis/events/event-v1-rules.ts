/**
 * The validation kube-apiserver v1.32 gives writes through events.<domain>/v1
 * (`ValidateEventCreate` / `ValidateEventUpdate` for a request version other than core/v1): the
 * legacy rules every event gets, plus metadata, `eventTime` required, `type` Normal or Warning,
 * `series` with a count of at least 2 and a last observed time, the `deprecated*` fields unset on
 * create, and nearly everything immutable on update. kube validates its internal type, so field
 * paths use the internal names (`involvedObject`, `message`, `source`, `firstTimestamp`, ...);
 * these rules run on the core/v1 form, whose names are the same except `reportingComponent`
 * (`reportingController` in paths). Values in messages are printed as Go prints the internal
 * values (`%#v` of structs, `String()` of timestamps).
 */
import { goQuote } from '../../util/go-strconv.js';
import type { Event } from '../core/event.js';
import { validateEventLegacy } from '../core/event.js';
import { type FieldError, fieldErrors, invalidShown } from '../meta/field-error.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { FIELD_IMMUTABLE, validateObjectMeta } from '../meta/object-meta-validation.js';
import { isPlainObject } from '../schema/json-value.js';
import { goTimeString } from '../schema/time-format.js';

const ZERO_TIME = goTimeString(undefined);
const NORMAL = 'Normal';
const WARNING = 'Warning';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const timeOf = (v: unknown): string => goTimeString(typeof v === 'string' ? v : undefined);
const isZeroTime = (v: unknown): boolean => timeOf(v) === ZERO_TIME;

const REFERENCE_FIELDS = [
  ['Kind', 'kind'],
  ['Namespace', 'namespace'],
  ['Name', 'name'],
  ['UID', 'uid'],
  ['APIVersion', 'apiVersion'],
  ['ResourceVersion', 'resourceVersion'],
  ['FieldPath', 'fieldPath'],
] as const;
const SOURCE_FIELDS = [
  ['Component', 'component'],
  ['Host', 'host'],
] as const;

/** Go's `%#v` of an internal struct of string fields. */
function goStruct(type: string, fields: readonly (readonly [string, string])[], value: unknown): string {
  const o = obj(value);
  return `${type}{${fields.map(([goName, json]) => `${goName}:${goQuote(str(o[json]))}`).join(', ')}}`;
}

/**
 * One compared field: its path, and the value as kube prints it, which also compares as kube's
 * semantic equality does (timestamps by instant, structs field by field, absent as zero).
 */
interface Immutable {
  readonly path: string;
  readonly json: keyof Event;
  readonly show: (v: unknown) => string;
}

const reference = (v: unknown) => goStruct('core.ObjectReference', REFERENCE_FIELDS, v);
const quoted = (v: unknown) => goQuote(str(v));

/** kube's order of `ValidateImmutableField` calls (it checks reason twice; Orch reports it once). */
const IMMUTABLE: readonly Immutable[] = [
  { path: 'involvedObject', json: 'involvedObject', show: reference },
  { path: 'reason', json: 'reason', show: quoted },
  { path: 'message', json: 'message', show: quoted },
  { path: 'source', json: 'source', show: (v) => goStruct('core.EventSource', SOURCE_FIELDS, v) },
  { path: 'firstTimestamp', json: 'firstTimestamp', show: timeOf },
  { path: 'lastTimestamp', json: 'lastTimestamp', show: timeOf },
  { path: 'count', json: 'count', show: (v) => String(count(v)) },
  { path: 'type', json: 'type', show: quoted },
  { path: 'eventTime', json: 'eventTime', show: timeOf },
  { path: 'action', json: 'action', show: quoted },
  { path: 'related', json: 'related', show: (v) => (isPlainObject(v) ? reference(v) : 'null') },
  { path: 'reportingController', json: 'reportingComponent', show: quoted },
  { path: 'reportingInstance', json: 'reportingInstance', show: quoted },
];

function count(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
}

/** kube's `validateV1EventSeries`. */
function validateSeries(ev: Event): FieldError[] {
  if (!isPlainObject(ev.series)) return [];
  const errs: FieldError[] = [];
  if (count(ev.series.count) < 2) errs.push(invalidShown('series.count', '""', 'should be at least 2'));
  if (isZeroTime(ev.series.lastObservedTime)) errs.push(fieldErrors.required('series.lastObservedTime'));
  return errs;
}

/** The create of an events/v1 Event, given in its core/v1 form. */
export function validateEventV1Create(ev: Event, systemNamespace: string): FieldError[] {
  const errs = validateEventLegacy(ev, systemNamespace);
  errs.push(...validateObjectMeta(ev.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }));
  errs.push(...validateSeries(ev));
  if (isZeroTime(ev.eventTime)) errs.push(fieldErrors.required('eventTime'));
  const type = str(ev.type);
  if (type !== NORMAL && type !== WARNING) errs.push(invalidShown('type', '""', `has invalid value: ${type}`));
  const unset = (path: string) => invalidShown(path, '""', 'needs to be unset');
  if (!isZeroTime(ev.firstTimestamp)) errs.push(unset('firstTimestamp'));
  if (!isZeroTime(ev.lastTimestamp)) errs.push(unset('lastTimestamp'));
  if (count(ev.count) !== 0) errs.push(unset('count'));
  if (str(ev.source?.component) !== '' || str(ev.source?.host) !== '') errs.push(unset('source'));
  return errs;
}

/**
 * The update of an events/v1 Event, both given in their core/v1 form. Metadata update rules are
 * the generic strategy's (`ValidateObjectMetaUpdate`).
 */
export function validateEventV1Update(ev: Event, old: Event, systemNamespace: string): FieldError[] {
  const errs = validateEventLegacy(ev, systemNamespace);
  if (JSON.stringify(seriesForm(ev.series)) !== JSON.stringify(seriesForm(old.series))) {
    errs.push(...validateSeries(ev));
  }
  for (const f of IMMUTABLE) {
    const next = f.show(ev[f.json]);
    if (next !== f.show(old[f.json])) errs.push(invalidShown(f.path, next, FIELD_IMMUTABLE));
  }
  return errs;
}

/** What `reflect.DeepEqual` of two `*EventSeries` compares. */
function seriesForm(series: unknown): unknown {
  if (!isPlainObject(series)) return null;
  return [count(series.count), timeOf(series.lastObservedTime)];
}
