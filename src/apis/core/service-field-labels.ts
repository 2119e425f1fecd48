import type { FieldLabelSupport } from '../selectors/field-labels.js';
import { declarativeFieldLabels } from '../selectors/selectable-fields.js';

/**
 * core/v1 Service field selectors (kube v1.32): `metadata.name`, `metadata.namespace`,
 * `spec.clusterIP` and `spec.type`; anything else answers `field label not supported: <label>`.
 * Endpoints have kube's default (name and namespace only).
 */
export const serviceFieldLabels: FieldLabelSupport = declarativeFieldLabels({
  namespaced: true,
  fields: [{ label: 'spec.clusterIP' }, { label: 'spec.type' }],
});
