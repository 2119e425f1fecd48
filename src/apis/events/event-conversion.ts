/**
 * Event between core/v1 (the stored form) and events.<domain>/v1, as kube-apiserver v1.32
 * converts it through its internal type: `regarding` is `involvedObject`, `note` is `message`,
 * `reportingController` is `reportingComponent`, `deprecatedSource`, `deprecatedFirstTimestamp`,
 * `deprecatedLastTimestamp` and `deprecatedCount` are `source`, `firstTimestamp`,
 * `lastTimestamp` and `count`; `eventTime`, `series`, `reportingInstance`, `action`, `reason`,
 * `related` and `type` keep their names. Keys come out in Go's declaration order and with Go's
 * zero values where the target field is never omitted: core/v1 always has `involvedObject`,
 * `source`, `reportingComponent` and `reportingInstance`; events/v1 always has `regarding` and
 * `deprecatedSource` and omits an empty `reportingController` and `reportingInstance`. Between
 * objects in those forms both directions are lossless. Pure; objects are plain JSON.
 */
import type { ApiObject } from '../object.js';

type Obj = Record<string, unknown>;

/** core/v1 field → events/v1 field; the other fields keep their names. */
const RENAMED: Readonly<Record<string, string>> = {
  involvedObject: 'regarding',
  message: 'note',
  source: 'deprecatedSource',
  firstTimestamp: 'deprecatedFirstTimestamp',
  lastTimestamp: 'deprecatedLastTimestamp',
  count: 'deprecatedCount',
  reportingComponent: 'reportingController',
};

/** core/v1 Event fields after TypeMeta and ObjectMeta, in Go declaration order. */
const CORE_FIELDS = [
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'series',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
] as const;

/** events/v1 Event fields after TypeMeta and ObjectMeta, in Go declaration order. */
const V1_FIELDS = [
  'eventTime',
  'series',
  'reportingController',
  'reportingInstance',
  'action',
  'reason',
  'regarding',
  'related',
  'note',
  'type',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
] as const;

const V1_NAME: Readonly<Record<string, string>> = Object.fromEntries(CORE_FIELDS.map((f) => [f, RENAMED[f] ?? f]));
const CORE_NAME: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(V1_NAME).map(([core, v1]) => [v1, core]),
);

/** Fields Go writes even when zero (non-omitempty strings, structs), with their zero values. */
const CORE_ZERO: Readonly<Record<string, () => unknown>> = {
  involvedObject: () => ({}),
  source: () => ({}),
  reportingComponent: () => '',
  reportingInstance: () => '',
};
const V1_ZERO: Readonly<Record<string, () => unknown>> = {
  regarding: () => ({}),
  deprecatedSource: () => ({}),
};
/** events/v1 strings with `omitempty` whose core/v1 counterparts Go always writes. */
const V1_OMIT_EMPTY = new Set(['reportingController', 'reportingInstance']);

function convert(
  from: Obj,
  head: { apiVersion: string; kind: string },
  fields: readonly string[],
  sourceName: Readonly<Record<string, string>>,
  zero: Readonly<Record<string, () => unknown>>,
  omitEmpty: ReadonlySet<string>,
): ApiObject {
  const out: Obj = { apiVersion: head.apiVersion, kind: head.kind, metadata: from.metadata };
  for (const field of fields) {
    const value = from[sourceName[field] as string];
    if (value === undefined) {
      const z = zero[field];
      if (z) out[field] = z();
    } else if (!(omitEmpty.has(field) && value === '')) {
      out[field] = value;
    }
  }
  return out as ApiObject;
}

/** A core/v1 Event as events/v1 shows it (`apiVersion` is `<events group>/v1`). Shares nested values with `core`. */
export function coreEventToV1(core: ApiObject, apiVersion: string): ApiObject {
  return convert(core as Obj, { apiVersion, kind: 'Event' }, V1_FIELDS, CORE_NAME, V1_ZERO, V1_OMIT_EMPTY);
}

/** An events/v1 Event in its core/v1 (stored) form. Shares nested values with `v1`. */
export function v1EventToCore(v1: ApiObject): ApiObject {
  return convert(v1 as Obj, { apiVersion: 'v1', kind: 'Event' }, CORE_FIELDS, V1_NAME, CORE_ZERO, new Set());
}
