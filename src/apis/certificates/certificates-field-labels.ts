import type { FieldLabelSupport } from '../selectors/field-labels.js';
import { declarativeFieldLabels } from '../selectors/selectable-fields.js';

/** CertificateSigningRequest: `metadata.name` and `spec.signerName` (kube's field label conversion). */
export const csrFieldLabels: FieldLabelSupport = declarativeFieldLabels({
  namespaced: false,
  fields: [{ label: 'spec.signerName' }],
});
