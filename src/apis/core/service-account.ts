import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { tokenRequestSchema } from '../authentication/token-request-schema.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { objectMetaField } from '../meta/object-meta-schema.js';
import { standardFinalizers } from '../meta/object-meta-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import { apiVersionField, kindField } from '../meta/type-meta-fields.js';
import type { ApiObject } from '../object.js';
import type { SubresourceCreate, SubresourceDefinition } from '../resource-definition.js';
import { isPlainObject } from '../schema/json-value.js';
import { booleanField, namedType, pb, pbPointer } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';
import { serviceAccountTableColumns } from '../table/builtin-columns.js';
import { CORE_V1, localObjectReferenceSchema, objectReferenceSchema } from './object-reference-schema.js';

export interface ServiceAccount extends ApiObject {
  secrets?: Record<string, unknown>[];
  imagePullSecrets?: { name?: string }[];
  automountServiceAccountToken?: boolean;
}

export const serviceAccountSchema: Schema = namedType(
  `${CORE_V1}.ServiceAccount`,
  'ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets',
  {
    type: 'object',
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(),
      secrets: {
        type: 'array',
        items: objectReferenceSchema,
        description:
          'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret',
        'x-orch-list-type': 'map',
        'x-orch-list-map-keys': ['name'],
        'x-orch-patch-strategy': 'merge',
        'x-orch-patch-merge-key': 'name',
        ...pb(2),
      },
      imagePullSecrets: {
        type: 'array',
        items: localObjectReferenceSchema,
        description:
          'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount. ImagePullSecrets are distinct from Secrets because Secrets can be mounted in the pod, but ImagePullSecrets are only accessed by the kubelet. More info: https://kubernetes.io/docs/concepts/containers/images/#specifying-imagepullsecrets-on-a-pod',
        'x-orch-list-type': 'atomic',
        ...pb(3),
      },
      automountServiceAccountToken: booleanField(
        'AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted. Can be overridden at the pod level.',
        pbPointer(4),
      ),
    },
  },
);

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
    tableColumns: serviceAccountTableColumns(serviceAccountSchema),
    listDescription: 'ServiceAccountList is a list of ServiceAccount objects',
    listItemsDescription:
      'List of ServiceAccounts. More info: https://kubernetes.io/docs/tasks/configure-pod-container/configure-service-account/',
    strategy: schemaStrategy<ServiceAccount>({
      schema: serviceAccountSchema,
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      prepareForCreate: cleanSecretReferences,
      prepareForUpdate: (sa) => cleanSecretReferences(sa),
    }),
  };
}
