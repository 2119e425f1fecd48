import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Subdomain, isQualifiedName } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import { eventFieldLabels } from '../selectors/builtin-field-labels.js';
import { eventTableColumns } from '../table/builtin-columns.js';
import { eventSchema } from './core-v1-schemas.js';

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
    tableColumns: eventTableColumns(),
    listDescription: 'A list of events.',
    listItemsDescription: 'The events.',
    strategy: schemaStrategy<Event>({
      schema: nativeValidationSchema(eventSchema),
      namespaced: true,
      validateCreate: (ev) => validateEventLegacy(ev, domain.systemNamespace),
      validateUpdate: (ev) => validateEventLegacy(ev, domain.systemNamespace),
    }),
  };
}
