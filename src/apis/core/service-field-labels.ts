import type { ApiObject } from '../object.js';
import { type FieldLabelSupport, fieldLabelNotSupported, objectMetaFieldSet, str } from '../selectors/field-labels.js';

/**
 * core/v1 Service field selectors (kube v1.32): `metadata.name`, `metadata.namespace`,
 * `spec.clusterIP` and `spec.type`; anything else answers `field label not supported: <label>`.
 * Endpoints have kube's default (name and namespace only).
 */
export const serviceFieldLabels: FieldLabelSupport = Object.freeze({
  supported: Object.freeze(['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type']),
  unsupportedMessage: fieldLabelNotSupported,
  fieldSet: (obj: ApiObject) => {
    const spec = obj.spec !== null && typeof obj.spec === 'object' ? (obj.spec as Record<string, unknown>) : {};
    return { ...objectMetaFieldSet(obj, true), 'spec.clusterIP': str(spec.clusterIP), 'spec.type': str(spec.type) };
  },
});
