import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsDNS1035Label, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { standardFinalizers, validateObjectMetaUpdate } from '../meta/object-meta-validation.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import { endpointsSchema, serviceSchema } from './core-v1-schemas.js';
import { validateEndpoints } from './endpoints-validation.js';
import { endpointsTableColumns, serviceTableColumns } from './service-columns.js';
import { defaultEndpoints, defaultService } from './service-defaults.js';
import { serviceFieldLabels } from './service-field-labels.js';
import { emptyServiceStatus, prepareServiceForCreate, prepareServiceForUpdate } from './service-normalize.js';
import { serviceProxySubresource } from './service-proxy.js';
import { type Endpoints, hasServiceShape, type Service } from './service-types.js';
import {
  serviceAnnotationKeys,
  validateService,
  validateServiceStatusUpdate,
  validateServiceUpdate,
} from './service-validation.js';

const LIST_METADATA = 'Standard list metadata.';

/**
 * core/v1 `services` (kube v1.32): defaults and validation of kube's Service strategy, cluster
 * IP fields normalized and allocated values carried over on update, fields of a former type
 * dropped; the cluster IPs and node ports themselves are allocated by the registry's Service
 * hooks. `services/status` changes only the status (the load balancer's ingress points);
 * `services/proxy` answers what a connect request gets (see `proxy`).
 */
export function serviceResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(serviceSchema);
  const keys = serviceAnnotationKeys(domain);
  const finalizers = standardFinalizers(domain);
  return {
    group: '',
    version: 'v1',
    kind: 'Service',
    listKind: 'ServiceList',
    resource: 'services',
    singular: 'service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    verbs: STANDARD_VERBS,
    subresources: [
      serviceProxySubresource(),
      {
        name: 'status',
        verbs: ['get', 'patch', 'update'],
        resetFields: ['spec'],
        strategy: subresourceStrategy<Service>({
          schema,
          prepareForUpdate(svc, old) {
            svc.spec = structuredClone(old.spec);
            if (hasServiceShape(svc)) defaultService(svc);
          },
          validateUpdate: (svc, old) => [
            ...validateObjectMetaUpdate(svc.metadata, old.metadata, { standardFinalizers: finalizers }),
            ...validateServiceStatusUpdate(svc),
          ],
        }),
      },
    ],
    // kube's Service strategy allows create on update.
    allowCreateOnUpdate: true,
    hasGeneration: false,
    schema: serviceSchema,
    resetFields: ['status'],
    // kube's Service has non-pointer spec and status.
    zeroObject: () => ({ apiVersion: 'v1', kind: 'Service', metadata: {}, spec: {}, status: emptyServiceStatus() }),
    fieldLabels: serviceFieldLabels,
    tableColumns: serviceTableColumns(serviceSchema),
    listDescription: 'A list of Services.',
    listItemsDescription: 'The Services.',
    listMetadataDescription: LIST_METADATA,
    strategy: schemaStrategy<Service>({
      schema,
      namespaced: true,
      nameValidator: nameIsDNS1035Label,
      standardFinalizers: finalizers,
      // Fields of the wrong type are left for validation to report.
      defaults(svc) {
        if (hasServiceShape(svc)) defaultService(svc);
      },
      prepareForCreate(svc) {
        if (hasServiceShape(svc)) prepareServiceForCreate(svc);
      },
      prepareForUpdate(svc, old) {
        if (hasServiceShape(svc)) prepareServiceForUpdate(svc, old);
      },
      validateCreate: (svc) => validateService(svc, keys),
      validateUpdate: (svc, old) => validateServiceUpdate(svc, old, keys),
    }),
  };
}

/** core/v1 `endpoints` (kube v1.32): port protocols default to TCP; addresses must be routable. */
export function endpointsResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(endpointsSchema);
  return {
    group: '',
    version: 'v1',
    kind: 'Endpoints',
    listKind: 'EndpointsList',
    resource: 'endpoints',
    singular: 'endpoints',
    namespaced: true,
    shortNames: ['ep'],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: true,
    hasGeneration: false,
    schema: endpointsSchema,
    tableColumns: endpointsTableColumns(endpointsSchema),
    listDescription: 'A list of Endpoints.',
    listItemsDescription: 'The Endpoints.',
    listMetadataDescription: LIST_METADATA,
    strategy: schemaStrategy<Endpoints>({
      schema,
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      defaults: defaultEndpoints,
      validateCreate: validateEndpoints,
      validateUpdate: validateEndpoints,
    }),
  };
}

/** core/v1 `services` and `endpoints`. */
export function serviceResources(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition[] {
  return [serviceResource(domain), endpointsResource(domain)];
}
