/**
 * events.<domain>/v1 `events` as kube-apiserver v1.32 serves them: a second view of the core/v1
 * Events, one stored object under core's storage keys, written and read in the core/v1 form and
 * converted at the storage boundary (`event-conversion.ts`). Writes through this view get the
 * strict validation (`event-v1-rules.ts`); its Table is core's, printed from the core form; its
 * field selectors are kube's events/v1 labels, matched against the same values as core's. Short
 * name `ev` as kube lists it for both views (kubectl resolves `ev` to core/v1, the group it
 * prefers).
 */
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type Event, eventResource } from '../core/event.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import type { StorageVersionConversion } from '../resource-definition.js';
import { eventFieldLabels } from '../selectors/builtin-field-labels.js';
import type { FieldLabelSupport } from '../selectors/field-labels.js';
import type { TableColumns } from '../table/table-types.js';
import { coreEventToV1, v1EventToCore } from './event-conversion.js';
import { validateEventV1Create, validateEventV1Update } from './event-v1-rules.js';
import { eventSchema } from './events-v1-schemas.js';

/** events/v1 label → the core/v1 label whose value it has (kube's field label conversion). */
const LABELS: readonly (readonly [string, string])[] = [
  ['reason', 'reason'],
  ['regarding.kind', 'involvedObject.kind'],
  ['regarding.namespace', 'involvedObject.namespace'],
  ['regarding.name', 'involvedObject.name'],
  ['regarding.uid', 'involvedObject.uid'],
  ['regarding.apiVersion', 'involvedObject.apiVersion'],
  ['regarding.resourceVersion', 'involvedObject.resourceVersion'],
  ['regarding.fieldPath', 'involvedObject.fieldPath'],
  ['reportingController', 'reportingComponent'],
  ['source', 'source'],
  ['type', 'type'],
  ['metadata.namespace', 'metadata.namespace'],
  ['metadata.name', 'metadata.name'],
];

/** Field selectors of events/v1 objects: kube's labels, the values core/v1 selects on. */
export const eventV1FieldLabels: FieldLabelSupport = Object.freeze({
  supported: Object.freeze(LABELS.map(([label]) => label)),
  unsupportedMessage: eventFieldLabels.unsupportedMessage,
  fieldSet(obj: ApiObject) {
    const core = eventFieldLabels.fieldSet(v1EventToCore(obj));
    return Object.fromEntries(LABELS.map(([label, coreLabel]) => [label, core[coreLabel] ?? '']));
  },
});

/** The conversion of the view: stored as core/v1 Events. */
export function eventV1Conversion(apiVersion: string): StorageVersionConversion {
  return {
    apiVersion: 'v1',
    toStorage: (obj) => v1EventToCore(obj),
    fromStorage: (stored) => coreEventToV1(stored, apiVersion),
  };
}

/** core's Table columns, with cells printed from the core/v1 form as kube prints its internal type. */
function eventV1TableColumns(core: TableColumns): TableColumns {
  return Object.freeze({
    columnDefinitions: core.columnDefinitions,
    cells: (obj: ApiObject, now: Date) => core.cells(v1EventToCore(obj), now),
  });
}

/** events.<domain>/v1 `events`, a view of core/v1 `events`. */
export function eventV1Resource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const core = eventResource(domain);
  const group = domain.group('events');
  const schema = nativeValidationSchema(eventSchema);
  const asCore = (obj: ApiObject) => v1EventToCore(obj) as Event;
  // The same resource as core's (names, verbs, scope, descriptions), in its own group and form.
  return {
    ...core,
    group,
    schema: eventSchema,
    storageResource: { group: core.group, resource: core.resource },
    storageVersion: eventV1Conversion(`${group}/v1`),
    fieldLabels: eventV1FieldLabels,
    tableColumns: core.tableColumns ? eventV1TableColumns(core.tableColumns) : undefined,
    strategy: schemaStrategy<ApiObject>({
      schema,
      namespaced: true,
      validateCreate: (ev) => validateEventV1Create(asCore(ev), domain.systemNamespace),
      validateUpdate: (ev, old) => validateEventV1Update(asCore(ev), asCore(old), domain.systemNamespace),
    }),
  };
}
