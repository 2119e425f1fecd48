import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { tokenRequestSchema } from '../authentication/authentication-v1-schemas.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { standardFinalizers } from '../meta/object-meta-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import type { SubresourceCreate, SubresourceDefinition } from '../resource-definition.js';
import { isPlainObject } from '../schema/json-value.js';
import { serviceAccountTableColumns } from '../table/builtin-columns.js';
import { serviceAccountSchema } from './core-v1-schemas.js';

export interface ServiceAccount extends ApiObject {
  secrets?: Record<string, unknown>[];
  imagePullSecrets?: { name?: string }[];
  automountServiceAccountToken?: boolean;
}

/** kube keeps only the name of each `secrets` reference. */
export function cleanSecretReferences(sa: ServiceAccount): void {
  // Ill-typed lists are left for validation to report.
  const wellTyped = (r: unknown) => isPlainObject(r) && (r.name === undefined || typeof r.name === 'string');
  if (!Array.isArray(sa.secrets) || !sa.secrets.every(wellTyped)) return;
  sa.secrets = sa.secrets.map((ref) => (typeof ref.name === 'string' && ref.name !== '' ? { name: ref.name } : {}));
}

/**
 * `serviceaccounts/<name>/token`: POST a TokenRequest (`authentication.<domain>/v1`), answered by
 * `create` with the issued token (201).
 */
export function serviceAccountTokenSubresource(
  domain: ApiDomain,
  create: SubresourceCreate['create'],
): SubresourceDefinition {
  return {
    name: 'token',
    verbs: ['create'],
    create: {
      group: domain.group('authentication'),
      version: 'v1',
      kind: 'TokenRequest',
      schema: tokenRequestSchema,
      create,
    },
  };
}

/** core/v1 `serviceaccounts` (the `token` sub-resource is added by the server, which issues tokens). */
export function serviceAccountResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return {
    group: '',
    version: 'v1',
    kind: 'ServiceAccount',
    listKind: 'ServiceAccountList',
    resource: 'serviceaccounts',
    singular: 'serviceaccount',
    namespaced: true,
    shortNames: ['sa'],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema: serviceAccountSchema,
    tableColumns: serviceAccountTableColumns(),
    listDescription: 'A list of service accounts.',
    listItemsDescription: 'The service accounts.',
    strategy: schemaStrategy<ServiceAccount>({
      schema: nativeValidationSchema(serviceAccountSchema),
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      prepareForCreate: cleanSecretReferences,
      prepareForUpdate: (sa) => cleanSecretReferences(sa),
    }),
  };
}
