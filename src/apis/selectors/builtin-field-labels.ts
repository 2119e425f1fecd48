import type { ApiObject } from '../object.js';
import { type FieldLabelSupport, fieldLabelNotSupported, objectMetaFieldSet, str } from './field-labels.js';
import { declarativeFieldLabels } from './selectable-fields.js';

function field(obj: ApiObject, ...path: string[]): string {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return '';
    cur = (cur as Record<string, unknown>)[p];
  }
  return str(cur);
}

/**
 * core/v1 Namespace: kube converts only `metadata.name` and `status.phase` (not
 * `metadata.namespace`, which answers `field label not supported`).
 */
export const namespaceFieldLabels: FieldLabelSupport = declarativeFieldLabels({
  namespaced: false,
  fields: [{ label: 'status.phase' }],
});

/** core/v1 Secret: `metadata.name`, `metadata.namespace` and `type`. */
export const secretFieldLabels: FieldLabelSupport = declarativeFieldLabels({
  namespaced: true,
  fields: [{ label: 'type' }],
});

/**
 * core/v1 Event: the involved object's identity, `reason`, `reportingComponent`, `source` (the
 * source component, else the reporting component) and `type`, besides name and namespace.
 */
export const eventFieldLabels: FieldLabelSupport = Object.freeze({
  supported: Object.freeze([
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
    'metadata.namespace',
    'metadata.name',
  ]),
  unsupportedMessage: fieldLabelNotSupported,
  fieldSet: (obj: ApiObject) => {
    const involved = (name: string) => field(obj, 'involvedObject', name);
    const reportingComponent = field(obj, 'reportingComponent');
    return {
      'involvedObject.kind': involved('kind'),
      'involvedObject.namespace': involved('namespace'),
      'involvedObject.name': involved('name'),
      'involvedObject.uid': involved('uid'),
      'involvedObject.apiVersion': involved('apiVersion'),
      'involvedObject.resourceVersion': involved('resourceVersion'),
      'involvedObject.fieldPath': involved('fieldPath'),
      reason: field(obj, 'reason'),
      reportingComponent,
      source: field(obj, 'source', 'component') || reportingComponent,
      type: field(obj, 'type'),
      ...objectMetaFieldSet(obj, true),
    };
  },
});
