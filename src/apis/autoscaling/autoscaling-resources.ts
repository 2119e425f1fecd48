/**
 * HorizontalPodAutoscalers as kube-apiserver v1.32 serves them: one stored object (in
 * autoscaling/v2) with two views, autoscaling/v1 and autoscaling/v2, each with `status`, short
 * name `hpa`, category `all`. The v1 view converts at the storage boundary (see
 * `StorageVersionConversion`); its rules run on the v2 form. Orch runs no autoscaler: status
 * is what clients write.
 */
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import {
  keepStatus,
  LIST_METADATA_DESCRIPTION,
  resetStatus,
  statusSubresource,
  validationSchema,
  workloadDefinition,
} from '../apps/workload-definition.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import type { StorageVersionConversion } from '../resource-definition.js';
import { hpaTableColumns } from './autoscaling-columns.js';
import { horizontalPodAutoscalerSchema as hpaV1Schema } from './autoscaling-v1-schemas.js';
import { horizontalPodAutoscalerSchema as hpaV2Schema } from './autoscaling-v2-schemas.js';
import { type HpaAnnotations, hpaAnnotations, hpaV1ToV2, hpaV2ToV1 } from './hpa-conversion.js';
import { defaultHpaV1, defaultHpaV2, minReplicasLowerBound, validateHpaSpec, validateHpaStatus } from './hpa-rules.js';

const NAMES = {
  group: 'autoscaling',
  kind: 'HorizontalPodAutoscaler',
  resource: 'horizontalpodautoscalers',
  shortNames: ['hpa'],
  categories: ['all'],
  listDescription: 'A list of horizontal pod autoscalers.',
  listItemsDescription: 'The horizontal pod autoscalers.',
  listMetadataDescription: LIST_METADATA_DESCRIPTION,
};

/** The v1 view's conversion: stored as v2 (with v2's defaults, which kube applies when it reads). */
export function hpaV1Conversion(keys: HpaAnnotations): StorageVersionConversion {
  return {
    apiVersion: 'autoscaling/v2',
    toStorage(obj) {
      const v2 = hpaV1ToV2(obj, keys);
      defaultHpaV2(v2);
      return v2;
    },
    fromStorage: (stored) => hpaV2ToV1(stored, keys),
  };
}

/** autoscaling/v2 `horizontalpodautoscalers`, the storage version. */
export function hpaV2Resource(): BuiltinResourceDefinition {
  const schema = validationSchema(hpaV2Schema);
  return workloadDefinition(
    {
      ...NAMES,
      version: 'v2',
    },
    {
      schema: hpaV2Schema,
      hasGeneration: false,
      tableColumns: hpaTableColumns((o) => o),
      subresources: [statusSubresource<ApiObject>({ schema, validate: validateHpaStatus })],
      strategy: schemaStrategy<ApiObject>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        defaults: defaultHpaV2,
        prepareForCreate: (hpa) => resetStatus(hpa, schema),
        prepareForUpdate: (hpa, old) => keepStatus(hpa, old),
        validateCreate: (hpa) => validateHpaSpec(hpa),
        validateUpdate: (hpa, old) => validateHpaSpec(hpa, minReplicasLowerBound(old)),
      }),
    },
  );
}

/** autoscaling/v1 `horizontalpodautoscalers`, a view of the v2 objects. */
export function hpaV1Resource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = validationSchema(hpaV1Schema);
  const keys = hpaAnnotations(domain);
  const v2 = (o: ApiObject) => hpaV1ToV2(o, keys);
  return workloadDefinition(
    {
      ...NAMES,
      version: 'v1',
    },
    {
      schema: hpaV1Schema,
      hasGeneration: false,
      storageVersion: hpaV1Conversion(keys),
      tableColumns: hpaTableColumns(v2),
      subresources: [statusSubresource<ApiObject>({ schema, validate: (hpa) => validateHpaStatus(hpa) })],
      strategy: schemaStrategy<ApiObject>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        defaults: defaultHpaV1,
        prepareForCreate: (hpa) => resetStatus(hpa, schema),
        prepareForUpdate: (hpa, old) => keepStatus(hpa, old),
        validateCreate: (hpa) => validateHpaSpec(v2(hpa)),
        validateUpdate: (hpa, old) => validateHpaSpec(v2(hpa), minReplicasLowerBound(v2(old))),
      }),
    },
  );
}

/** Both versions, v2 (the preferred version) first. */
export function autoscalingResources(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition[] {
  return [hpaV2Resource(), hpaV1Resource(domain)];
}
