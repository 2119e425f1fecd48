/**
 * core/v1 `pods` (with `status`, `ephemeralcontainers`) and `podtemplates`, as kube-apiserver
 * v1.32 serves them. The sub-resources the server answers itself (binding, eviction, log, exec,
 * attach, portforward, proxy) are added by `podServerSubresources` (pod-resources.ts).
 */
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { standardFinalizers, validateObjectMetaUpdate } from '../meta/object-meta-validation.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import type { ResourceStrategy, SubresourceDefinition } from '../resource-definition.js';
import { cloneJson } from '../schema/json-value.js';
import type { Schema } from '../schema/schema.js';
import { podSchema, podTemplateSchema } from './core-v1-schemas.js';
import { podTableColumns, podTemplateTableColumns } from './pod-columns.js';
import { defaultPod, defaultPodSpec, defaultPodTemplateSpec } from './pod-defaults.js';
import { podFieldLabels } from './pod-field-labels.js';
import { podQOSClass } from './pod-qos.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';
import type { Pod, PodStatus, PodTemplate } from './pod-types.js';
import {
  validatePodCreate,
  validatePodEphemeralContainersUpdate,
  validatePodStatusUpdate,
  validatePodUpdate,
} from './pod-validation.js';
import { canonicalizeQuantities } from './quantity-fields.js';

/** v1 conversion keeps `podIP`/`podIPs` and `hostIP`/`hostIPs` in step (the singular one wins). */
export function syncStatusIPs(status: PodStatus | undefined): void {
  if (!status) return;
  for (const [one, many] of [
    ['podIP', 'podIPs'],
    ['hostIP', 'hostIPs'],
  ] as const) {
    const single = status[one];
    const list = status[many];
    if (single && (!Array.isArray(list) || list.length === 0 || list[0]?.ip !== single))
      status[many] = [{ ip: single }];
    const first = status[many]?.[0]?.ip;
    if (first) status[one] = first;
  }
}

/** kube's `applySchedulingGatedCondition`: a gated pod starts with `PodScheduled` False. */
function applySchedulingGatedCondition(pod: Pod): void {
  if ((pod.spec?.schedulingGates ?? []).length === 0) return;
  pod.status ??= {};
  if ((pod.status.conditions ?? []).some((c) => c.type === 'PodScheduled')) return;
  pod.status.conditions = [
    ...(pod.status.conditions ?? []),
    {
      // kube leaves both times zero (JSON null); the schema has no null times, so they are left out.
      type: 'PodScheduled',
      status: 'False',
      reason: 'SchedulingGated',
      message: 'Scheduling is blocked due to non-empty scheduling gates',
    },
  ];
}

function podStrategy(schema: Schema, domain: ApiDomain): ResourceStrategy {
  return schemaStrategy<Pod>({
    schema,
    namespaced: true,
    nameValidator: nameIsDNSSubdomain,
    standardFinalizers: standardFinalizers(domain),
    quantities: true,
    defaults(pod, decoded) {
      if (!decoded) canonicalizeQuantities(podSchema, pod);
      defaultPod(pod);
    },
    prepareForCreate(pod) {
      pod.status = { phase: 'Pending', qosClass: podQOSClass(pod) };
      applySchedulingGatedCondition(pod);
    },
    prepareForUpdate(pod, old) {
      pod.status = cloneJson(old.status ?? {});
    },
    validateCreate: (pod) => validatePodCreate(pod),
    validateUpdate: (pod, old) => validatePodUpdate(pod, old),
  });
}

function podStatusSubresource(schema: Schema, domain: ApiDomain): SubresourceDefinition {
  const standard = standardFinalizers(domain);
  return {
    name: 'status',
    verbs: ['get', 'patch', 'update'],
    resetFields: ['spec', 'metadata.deletionTimestamp', 'metadata.ownerReferences'],
    strategy: subresourceStrategy<Pod>({
      schema,
      prepareForUpdate(pod, old) {
        canonicalizeQuantities(podSchema, pod);
        pod.spec = cloneJson(old.spec ?? {});
        // Old kubelets corrupted owner references through pods/status; kube keeps them.
        if (old.metadata.ownerReferences) pod.metadata.ownerReferences = cloneJson(old.metadata.ownerReferences);
        else delete pod.metadata.ownerReferences;
        pod.status ??= {};
        if (!pod.status.qosClass && old.status?.qosClass) pod.status.qosClass = old.status.qosClass;
        syncStatusIPs(pod.status);
      },
      validateUpdate: (pod, old) => [
        ...validateObjectMetaUpdate(pod.metadata, old.metadata, { standardFinalizers: standard }),
        ...validatePodStatusUpdate(pod, old),
      ],
    }),
  };
}

/** Metadata a sub-resource write may not change (kube's `ResetObjectMetaForStatus`). */
function keepMetadata(pod: Pod, old: Pod): void {
  for (const field of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
    if (old.metadata[field] === undefined) delete pod.metadata[field];
    else pod.metadata[field] = cloneJson(old.metadata[field]) as never;
  }
}

function podEphemeralContainersSubresource(schema: Schema, domain: ApiDomain): SubresourceDefinition {
  const standard = standardFinalizers(domain);
  return {
    name: 'ephemeralcontainers',
    verbs: ['get', 'patch', 'update'],
    resetFields: ['status'],
    strategy: subresourceStrategy<Pod>({
      schema,
      prepareForUpdate(pod, old) {
        const ephemeral = pod.spec?.ephemeralContainers;
        pod.spec = cloneJson(old.spec ?? {});
        if (ephemeral === undefined) delete pod.spec.ephemeralContainers;
        else pod.spec.ephemeralContainers = ephemeral;
        defaultPodSpec(pod.spec);
        pod.status = cloneJson(old.status ?? {});
        keepMetadata(pod, old);
      },
      validateUpdate: (pod, old) => [
        ...validateObjectMetaUpdate(pod.metadata, old.metadata, { standardFinalizers: standard }),
        ...validatePodEphemeralContainersUpdate(pod, old),
      ],
    }),
  };
}

/**
 * What the binding sub-resource writes: the binder computes the whole pod (node name, annotations,
 * `PodScheduled`) from the live one, and kube writes it without the pod's update rules.
 */
export const podBindingWriteStrategy: ResourceStrategy = {
  prepareForCreate() {},
  prepareForUpdate() {},
  validateCreate: () => [],
  validateUpdate: () => [],
};

/** core/v1 `pods`: short name `po`, category `all`. */
export function podResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(podSchema);
  return {
    group: '',
    version: 'v1',
    kind: 'Pod',
    listKind: 'PodList',
    resource: 'pods',
    singular: 'pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    verbs: STANDARD_VERBS,
    subresources: [podEphemeralContainersSubresource(schema, domain), podStatusSubresource(schema, domain)],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema: podSchema,
    resetFields: ['status'],
    // kube's zero Pod: spec and status are structs, and `containers` has no omitempty, so a
    // create's writer owns the fields inside spec, not spec or its containers list themselves.
    zeroObject: () => ({ apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { containers: null }, status: {} }),
    fieldLabels: podFieldLabels,
    tableColumns: podTableColumns(podSchema),
    listDescription: 'A list of pods.',
    listItemsDescription: 'The pods.',
    strategy: podStrategy(schema, domain),
  };
}

/** core/v1 `podtemplates`. */
export function podTemplateResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(podTemplateSchema);
  const prepare = (t: PodTemplate) => {
    canonicalizeQuantities(podTemplateSchema, t);
    if (t.template) defaultPodTemplateSpec(t.template);
  };
  return {
    group: '',
    version: 'v1',
    kind: 'PodTemplate',
    listKind: 'PodTemplateList',
    resource: 'podtemplates',
    singular: 'podtemplate',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: true,
    schema: podTemplateSchema,
    // kube's zero PodTemplate: its template is a struct, whose containers list has no omitempty.
    zeroObject: () => ({
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: {},
      template: { metadata: { creationTimestamp: null }, spec: { containers: null } },
    }),
    tableColumns: podTemplateTableColumns(),
    listDescription: 'A list of pod templates.',
    listItemsDescription: 'The pod templates.',
    strategy: schemaStrategy<PodTemplate>({
      schema,
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      defaults: prepare,
      validateCreate: (t) => validatePodTemplateSpec(t.template ?? {}, 'template'),
      validateUpdate: (t) => validatePodTemplateSpec(t.template ?? {}, 'template'),
    }),
  };
}
