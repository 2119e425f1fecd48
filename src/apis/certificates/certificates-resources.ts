import { type Clock, formatTime, systemClock } from '../../util/clock.js';
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { validateObjectMetaUpdate } from '../meta/object-meta-validation.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import { csrTableColumns } from './certificates-columns.js';
import { csrFieldLabels } from './certificates-field-labels.js';
import { certificateSigningRequestSchema } from './certificates-v1-schemas.js';
import {
  prepareCsrApprovalUpdate,
  prepareCsrForCreate,
  prepareCsrForUpdate,
  prepareCsrStatusUpdate,
} from './csr-prepare.js';
import { type CertificateSigningRequest, validateCsr, validateCsrUpdate } from './csr-validation.js';

/** Any name is a valid CSR name (kube's `ValidateCertificateRequestName`); only path safety applies. */
const anyName = () => [];

/**
 * `certificates.<domain>/v1` `certificatesigningrequests` (`csr`, cluster-scoped) with `status`
 * and `approval`: the requester's name, uid, groups and extra are recorded at create and never
 * change; the main resource changes only metadata, `approval` only the conditions (Approved or
 * Denied, exclusive), `status` the rest of the status (never the approval). `clock` stamps
 * condition times.
 */
export function certificateSigningRequestResource(
  domain: ApiDomain = ORCH_DOMAIN,
  clock: Clock = systemClock,
): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(certificateSigningRequestSchema);
  const now = () => formatTime(clock.now());
  const subresource = (
    name: string,
    prepare: (csr: CertificateSigningRequest, old: CertificateSigningRequest) => void,
    approval: boolean,
  ) => ({
    name,
    verbs: ['get', 'patch', 'update'],
    resetFields: approval ? ['spec', 'status.certificate'] : ['spec', 'status.conditions'],
    strategy: subresourceStrategy<CertificateSigningRequest>({
      schema,
      prepareForUpdate: prepare,
      validateUpdate: (csr, old) => [
        ...validateCsrUpdate(
          csr,
          old,
          domain,
          approval ? { allowSettingApprovalConditions: true } : { allowSettingCertificate: true },
        ),
        ...validateObjectMetaUpdate(csr.metadata, old.metadata),
      ],
    }),
  });
  return {
    group: domain.group('certificates'),
    version: 'v1',
    kind: 'CertificateSigningRequest',
    listKind: 'CertificateSigningRequestList',
    resource: 'certificatesigningrequests',
    singular: 'certificatesigningrequest',
    namespaced: false,
    shortNames: ['csr'],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [
      subresource('approval', (csr, old) => prepareCsrApprovalUpdate(csr, old, now()), true),
      subresource('status', (csr, old) => prepareCsrStatusUpdate(csr, old, now()), false),
    ],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema: certificateSigningRequestSchema,
    resetFields: ['status'],
    fieldLabels: csrFieldLabels,
    strategy: schemaStrategy<CertificateSigningRequest>({
      schema,
      namespaced: false,
      nameValidator: anyName,
      prepareForCreate: (csr, context) => prepareCsrForCreate(csr, context?.user),
      prepareForUpdate: prepareCsrForUpdate,
      validateCreate: (csr) => validateCsr(csr, domain),
      validateUpdate: (csr, old) => validateCsrUpdate(csr, old, domain),
    }),
    tableColumns: csrTableColumns(certificateSigningRequestSchema),
    listDescription: 'A list of certificate signing requests.',
  };
}

/** The kinds of `certificates.<domain>/v1`. */
export function certificatesResources(
  domain: ApiDomain = ORCH_DOMAIN,
  clock: Clock = systemClock,
): BuiltinResourceDefinition[] {
  return [certificateSigningRequestResource(domain, clock)];
}
