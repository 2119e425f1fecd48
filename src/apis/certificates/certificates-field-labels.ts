import type { ApiObject } from '../object.js';
import { type FieldLabelSupport, fieldLabelNotSupported, objectMetaFieldSet, str } from '../selectors/field-labels.js';

/** CertificateSigningRequest: `metadata.name` and `spec.signerName` (kube's field label conversion). */
export const csrFieldLabels: FieldLabelSupport = Object.freeze({
  supported: Object.freeze(['metadata.name', 'spec.signerName']),
  unsupportedMessage: fieldLabelNotSupported,
  fieldSet: (obj: ApiObject) => ({
    ...objectMetaFieldSet(obj, false),
    'spec.signerName': str((obj.spec as { signerName?: unknown } | undefined)?.signerName),
  }),
});
