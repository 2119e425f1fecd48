import { nativeValidationSchema } from '../meta/native-validation-schema.js';
/**
 * core/v1 `nodes` (with `status`; `proxy` is added by the server) and the storage and quota kinds
 * `persistentvolumes`, `persistentvolumeclaims` (each with `status`), `limitranges` and
 * `resourcequotas` (with `status`), as kube-apiserver v1.32 serves them.
 */

import { type Clock, formatTime, systemClock } from '../../util/clock.js';
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import type { FieldError } from '../meta/field-error.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { standardFinalizers, validateObjectMetaUpdate } from '../meta/object-meta-validation.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import type { SubresourceDefinition } from '../resource-definition.js';
import { cloneJson, isPlainObject } from '../schema/json-value.js';
import type { Schema } from '../schema/schema.js';
import {
  nodeTableColumns,
  persistentVolumeClaimTableColumns,
  persistentVolumeTableColumns,
  resourceQuotaTableColumns,
} from './cluster-columns.js';
import {
  limitRangeSchema,
  nodeSchema,
  persistentVolumeClaimSchema,
  persistentVolumeSchema,
  resourceQuotaSchema,
} from './core-v1-schemas.js';
import { defaultNode, type Node, validateNode, validateNodeUpdate } from './node-rules.js';
import {
  defaultClaimSpec,
  defaultPersistentVolume,
  normalizeDataSources,
  type PersistentVolume,
  type PersistentVolumeClaim,
  validateClaimSpec,
  validateClaimStatusUpdate,
  validateClaimUpdate,
  validatePersistentVolumeSpec,
  validatePersistentVolumeUpdate,
} from './persistent-volume-rules.js';
import { canonicalizeQuantities } from './quantity-fields.js';
import {
  defaultLimitRange,
  type LimitRange,
  type ResourceQuota,
  validateLimitRange,
  validateResourceQuotaSpec,
  validateResourceQuotaStatus,
  validateResourceQuotaStatusUpdate,
  validateResourceQuotaUpdate,
} from './quota-rules.js';

export interface CoreKindOptions {
  /** Stamps `status.lastPhaseTransitionTime` of persistent volumes. */
  readonly clock?: Clock;
}

interface KindNames {
  readonly kind: string;
  readonly resource: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
}

function definition(
  names: KindNames,
  schema: Schema,
  rest: Pick<BuiltinResourceDefinition, 'strategy' | 'listDescription' | 'listItemsDescription'> &
    Partial<BuiltinResourceDefinition>,
): BuiltinResourceDefinition {
  return {
    group: '',
    version: 'v1',
    kind: names.kind,
    listKind: `${names.kind}List`,
    resource: names.resource,
    singular: names.kind.toLowerCase(),
    namespaced: names.namespaced,
    shortNames: names.shortNames ?? [],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema,
    ...rest,
  };
}

/** A `status` sub-resource that keeps `spec` and checks the metadata update plus `rules`. */
function statusSubresource<T extends ApiObject>(
  schema: Schema,
  published: Schema,
  domain: ApiDomain,
  rules: { prepare?(obj: T, old: T): void; validate?(obj: T, old: T): FieldError[] } = {},
): SubresourceDefinition {
  const standard = standardFinalizers(domain);
  return {
    name: 'status',
    verbs: ['get', 'patch', 'update'],
    resetFields: ['spec'],
    strategy: subresourceStrategy<T>({
      schema,
      prepareForUpdate(obj, old) {
        canonicalizeQuantities(published, obj);
        (obj as ApiObject).spec = cloneJson((old as ApiObject).spec ?? {});
        rules.prepare?.(obj, old);
      },
      validateUpdate: (obj, old) => [
        ...validateObjectMetaUpdate(obj.metadata, old.metadata, { standardFinalizers: standard }),
        ...(rules.validate?.(obj, old) ?? []),
      ],
    }),
  };
}

/** core/v1 `nodes` (cluster-scoped; short name `no`). */
export function nodeResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(nodeSchema);
  const prepare = (n: Node) => {
    canonicalizeQuantities(nodeSchema, n);
    defaultNode(n);
  };
  return definition({ kind: 'Node', resource: 'nodes', namespaced: false, shortNames: ['no'] }, nodeSchema, {
    listDescription: 'A list of nodes.',
    listItemsDescription: 'The nodes.',
    resetFields: ['status'],
    tableColumns: nodeTableColumns(nodeSchema),
    subresources: [
      statusSubresource<Node>(schema, nodeSchema, domain, {
        prepare: (n) => defaultNode(n),
        validate: (n, old) => validateNodeUpdate(n, old),
      }),
    ],
    strategy: schemaStrategy<Node>({
      schema,
      namespaced: false,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      defaults: prepare,
      prepareForUpdate(n, old) {
        n.status = cloneJson(old.status ?? {});
      },
      validateCreate: validateNode,
      validateUpdate: validateNodeUpdate,
    }),
  });
}

/** core/v1 `persistentvolumes` (cluster-scoped; short name `pv`). */
export function persistentVolumeResource(
  domain: ApiDomain = ORCH_DOMAIN,
  options: CoreKindOptions = {},
): BuiltinResourceDefinition {
  const clock = options.clock ?? systemClock;
  const schema = nativeValidationSchema(persistentVolumeSchema);
  const prepare = (pv: PersistentVolume) => {
    canonicalizeQuantities(persistentVolumeSchema, pv);
    defaultPersistentVolume(pv);
  };
  return definition(
    { kind: 'PersistentVolume', resource: 'persistentvolumes', namespaced: false, shortNames: ['pv'] },
    persistentVolumeSchema,
    {
      listDescription: 'A list of persistent volumes.',
      listItemsDescription: 'The persistent volumes.',
      resetFields: ['status'],
      tableColumns: persistentVolumeTableColumns(persistentVolumeSchema),
      subresources: [
        statusSubresource<PersistentVolume>(schema, persistentVolumeSchema, domain, {
          prepare(pv, old) {
            pv.status ??= {};
            if (isPlainObject(old.status) && pv.status.phase === old.status.phase) {
              pv.status.lastPhaseTransitionTime ??= old.status.lastPhaseTransitionTime;
            } else if (
              !pv.status.lastPhaseTransitionTime ||
              pv.status.lastPhaseTransitionTime === old.status?.lastPhaseTransitionTime
            ) {
              pv.status.lastPhaseTransitionTime = formatTime(clock.now());
            }
          },
          validate: (pv) =>
            pv.metadata.resourceVersion
              ? []
              : [{ type: 'FieldValueRequired', field: 'resourceVersion', message: 'Required value' }],
        }),
      ],
      strategy: schemaStrategy<PersistentVolume>({
        schema,
        namespaced: false,
        nameValidator: nameIsDNSSubdomain,
        standardFinalizers: standardFinalizers(domain),
        defaults: prepare,
        prepareForCreate(pv) {
          pv.status = { phase: 'Pending', lastPhaseTransitionTime: formatTime(clock.now()) };
        },
        prepareForUpdate(pv, old) {
          pv.status = cloneJson(old.status ?? {});
        },
        validateCreate: (pv) => validatePersistentVolumeSpec(pv.spec ?? {}),
        validateUpdate: (pv, old) => [
          ...validatePersistentVolumeSpec(pv.spec ?? {}),
          ...validatePersistentVolumeUpdate(pv, old),
        ],
      }),
    },
  );
}

/** core/v1 `persistentvolumeclaims` (short name `pvc`). */
export function persistentVolumeClaimResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(persistentVolumeClaimSchema);
  const prepare = (pvc: PersistentVolumeClaim) => {
    canonicalizeQuantities(persistentVolumeClaimSchema, pvc);
    pvc.spec ??= {};
    defaultClaimSpec(pvc.spec);
  };
  return definition(
    { kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', namespaced: true, shortNames: ['pvc'] },
    persistentVolumeClaimSchema,
    {
      listDescription: 'A list of persistent volume claims.',
      listItemsDescription: 'The persistent volume claims.',
      resetFields: ['status'],
      tableColumns: persistentVolumeClaimTableColumns(persistentVolumeClaimSchema),
      subresources: [
        statusSubresource<PersistentVolumeClaim>(schema, persistentVolumeClaimSchema, domain, {
          validate: (pvc) => validateClaimStatusUpdate(pvc),
        }),
      ],
      strategy: schemaStrategy<PersistentVolumeClaim>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        standardFinalizers: standardFinalizers(domain),
        defaults: prepare,
        prepareForCreate(pvc) {
          if (pvc.spec) normalizeDataSources(pvc.spec);
          pvc.status = { phase: 'Pending' };
        },
        prepareForUpdate(pvc, old) {
          pvc.status = cloneJson(old.status ?? {});
        },
        validateCreate: (pvc) => validateClaimSpec(pvc.spec ?? {}, 'spec'),
        validateUpdate: (pvc, old) => [...validateClaimSpec(pvc.spec ?? {}, 'spec'), ...validateClaimUpdate(pvc, old)],
      }),
    },
  );
}

/** core/v1 `limitranges` (short name `limits`; kube's default table). */
export function limitRangeResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(limitRangeSchema);
  const prepare = (lr: LimitRange) => {
    canonicalizeQuantities(limitRangeSchema, lr);
    defaultLimitRange(lr);
  };
  return definition(
    { kind: 'LimitRange', resource: 'limitranges', namespaced: true, shortNames: ['limits'] },
    limitRangeSchema,
    {
      listDescription: 'A list of limit ranges.',
      listItemsDescription: 'The limit ranges.',
      strategy: schemaStrategy<LimitRange>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        standardFinalizers: standardFinalizers(domain),
        defaults: prepare,
        validateCreate: validateLimitRange,
        validateUpdate: (lr) => validateLimitRange(lr),
      }),
    },
  );
}

/** core/v1 `resourcequotas` (short name `quota`). */
export function resourceQuotaResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(resourceQuotaSchema);
  return definition(
    { kind: 'ResourceQuota', resource: 'resourcequotas', namespaced: true, shortNames: ['quota'] },
    resourceQuotaSchema,
    {
      listDescription: 'A list of resource quotas.',
      listItemsDescription: 'The resource quotas.',
      resetFields: ['status'],
      tableColumns: resourceQuotaTableColumns(),
      subresources: [
        statusSubresource<ResourceQuota>(schema, resourceQuotaSchema, domain, {
          validate: (rq) => validateResourceQuotaStatusUpdate(rq),
        }),
      ],
      strategy: schemaStrategy<ResourceQuota>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        standardFinalizers: standardFinalizers(domain),
        defaults: (rq) => canonicalizeQuantities(resourceQuotaSchema, rq),
        prepareForCreate(rq) {
          rq.status = {};
        },
        prepareForUpdate(rq, old) {
          rq.status = cloneJson(old.status ?? {});
        },
        validateCreate: (rq) => [...validateResourceQuotaSpec(rq), ...validateResourceQuotaStatus(rq)],
        validateUpdate: (rq, old) => validateResourceQuotaUpdate(rq, old),
      }),
    },
  );
}
