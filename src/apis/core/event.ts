import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Subdomain, isQualifiedName } from '../meta/name-validation.js';
import { objectMetaField } from '../meta/object-meta-schema.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import { microTimeSchema, timeSchema } from '../meta/time-schema.js';
import { apiVersionField, kindField } from '../meta/type-meta-fields.js';
import type { ApiObject } from '../object.js';
import { fieldOf, int32Field, namedType, pb, stringField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';
import { eventFieldLabels } from '../selectors/builtin-field-labels.js';
import { eventTableColumns } from '../table/builtin-columns.js';
import { CORE_V1, objectReferenceSchema } from './object-reference-schema.js';

const REPORTING_INSTANCE_LIMIT = 128;
const ACTION_LIMIT = 128;
const REASON_LIMIT = 128;
const NOTE_LIMIT = 1024;

export interface Event extends ApiObject {
  involvedObject?: { namespace?: string; [key: string]: unknown };
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string;
  lastTimestamp?: string;
  count?: number;
  type?: string;
  eventTime?: string;
  series?: { count?: number; lastObservedTime?: string };
  action?: string;
  related?: Record<string, unknown>;
  reportingComponent?: string;
  reportingInstance?: string;
}

const eventSourceSchema: Schema = namedType(
  `${CORE_V1}.EventSource`,
  'EventSource contains information for an event.',
  {
    type: 'object',
    properties: {
      component: stringField('Component from which the event is generated.', pb(1)),
      host: stringField('Node name on which the event is generated.', pb(2)),
    },
  },
);

const eventSeriesSchema: Schema = namedType(
  `${CORE_V1}.EventSeries`,
  'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.',
  {
    type: 'object',
    properties: {
      count: int32Field('Number of occurrences in this series up to the last heartbeat time', pb(1)),
      lastObservedTime: fieldOf(microTimeSchema, 'Time of the last occurrence observed', pb(2)),
    },
  },
);

export const eventSchema: Schema = namedType(
  `${CORE_V1}.Event`,
  'Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.',
  {
    type: 'object',
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(),
      involvedObject: fieldOf(objectReferenceSchema, 'The object that this event is about.', pb(2)),
      reason: stringField(
        "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
        pb(3),
      ),
      message: stringField('A human-readable description of the status of this operation.', pb(4)),
      source: fieldOf(
        eventSourceSchema,
        'The component reporting this event. Should be a short machine understandable string.',
        pb(5),
      ),
      firstTimestamp: fieldOf(
        timeSchema,
        'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
        pb(6),
      ),
      lastTimestamp: fieldOf(
        timeSchema,
        'The time at which the most recent occurrence of this event was recorded.',
        pb(7),
      ),
      count: int32Field('The number of times this event has occurred.', pb(8)),
      type: stringField('Type of this event (Normal, Warning), new types could be added in the future', pb(9)),
      eventTime: fieldOf(microTimeSchema, 'Time when this Event was first observed.', pb(10)),
      series: fieldOf(
        eventSeriesSchema,
        "Data about the Event series this event represents or nil if it's a singleton Event.",
        pb(11),
      ),
      action: stringField('What action was taken/failed regarding to the Regarding object.', pb(12)),
      related: fieldOf(objectReferenceSchema, 'Optional secondary object for more complex actions.', pb(13)),
      reportingComponent: stringField(
        'Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.',
        pb(14),
      ),
      reportingInstance: stringField('ID of the controller instance, e.g. `kubelet-xyzf`.', pb(15)),
    },
  },
);

function bytes(s: string | undefined): number {
  return Buffer.byteLength(s ?? '', 'utf8');
}

/**
 * kube's `legacyValidateEvent`, the only kind-specific validation core/v1 events get: the
 * namespace must match the involved object's, and events with an `eventTime` (new-style) need
 * reportingController (a qualified name), reportingInstance, action and reason, with length
 * limits. Paths use kube's internal field names (`reportingController`).
 */
/**
 * `systemNamespace`: with `default`, where an event with a `MicroTime` may describe a
 * cluster-scoped object (kube's default and kube-system).
 */
export function validateEventLegacy(ev: Event, systemNamespace: string): FieldError[] {
  const errs: FieldError[] = [];
  const ns = ev.metadata.namespace ?? '';
  const involvedNs = ev.involvedObject?.namespace ?? '';
  const mismatch = () => fieldErrors.invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace');
  if (!ev.eventTime) {
    if (involvedNs === '') {
      if (ns !== '' && ns !== 'default') errs.push(mismatch());
    } else if (ns !== involvedNs) {
      errs.push(mismatch());
    }
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== systemNamespace) errs.push(mismatch());
    const controller = ev.reportingComponent ?? '';
    if (controller === '') errs.push(fieldErrors.required('reportingController'));
    for (const msg of isQualifiedName(controller))
      errs.push(fieldErrors.invalid('reportingController', controller, msg));
    if (!ev.reportingInstance) errs.push(fieldErrors.required('reportingInstance'));
    if (bytes(ev.reportingInstance) > REPORTING_INSTANCE_LIMIT) {
      errs.push(
        fieldErrors.invalid('reportingInstance', '', `can have at most ${REPORTING_INSTANCE_LIMIT} characters`),
      );
    }
    if (!ev.action) errs.push(fieldErrors.required('action'));
    if (bytes(ev.action) > ACTION_LIMIT) {
      errs.push(fieldErrors.invalid('action', '', `can have at most ${ACTION_LIMIT} characters`));
    }
    if (!ev.reason) errs.push(fieldErrors.required('reason'));
    if (bytes(ev.reason) > REASON_LIMIT) {
      errs.push(fieldErrors.invalid('reason', '', `can have at most ${REASON_LIMIT} characters`));
    }
    if (bytes(ev.message) > NOTE_LIMIT) {
      errs.push(fieldErrors.invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
    }
  }
  for (const msg of isDNS1123Subdomain(ns)) errs.push(fieldErrors.invalid('namespace', ns, msg));
  return errs;
}

/** core/v1 `events`: no name rule of its own; PUT of a missing event creates it. */
export function eventResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return {
    group: '',
    version: 'v1',
    kind: 'Event',
    listKind: 'EventList',
    resource: 'events',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: true,
    hasGeneration: false,
    schema: eventSchema,
    fieldLabels: eventFieldLabels,
    tableColumns: eventTableColumns(eventSchema),
    listDescription: 'EventList is a list of events.',
    listItemsDescription: 'List of events',
    strategy: schemaStrategy<Event>({
      schema: eventSchema,
      namespaced: true,
      validateCreate: (ev) => validateEventLegacy(ev, domain.systemNamespace),
      validateUpdate: (ev) => validateEventLegacy(ev, domain.systemNamespace),
    }),
  };
}
