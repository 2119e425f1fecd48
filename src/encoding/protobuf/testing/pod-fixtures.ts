import {
  limitRangeSchema,
  nodeSchema,
  persistentVolumeClaimSchema,
  persistentVolumeSchema,
  podSchema,
  podTemplateSchema,
  resourceQuotaSchema,
} from '../../../apis/core/core-v1-schemas.js';
import type { ApiObject } from '../../../apis/object.js';
import { podDisruptionBudgetSchema } from '../../../apis/policy/policy-v1-schemas.js';
import type { Schema } from '../../../apis/schema/schema.js';
import { richMetadata } from './fixtures.js';
import { sampleObject } from './sample-object.js';

function sample(schema: Schema, kind: string, apiVersion: string, name: string, namespace?: string): ApiObject {
  return { ...sampleObject(schema, kind, apiVersion), metadata: richMetadata(name, namespace) } as ApiObject;
}

/**
 * One fully populated object per kind of the pod family (pods, pod templates, nodes, volumes and
 * claims, limit ranges, quotas, disruption budgets): every field of the generated schema set, keys
 * in schema order, so the Protobuf round trip is the identity.
 */
export function podKindObjects(): Record<string, ApiObject> {
  return {
    Pod: sample(podSchema, 'Pod', 'v1', 'web-0', 'default'),
    PodTemplate: sample(podTemplateSchema, 'PodTemplate', 'v1', 'web', 'default'),
    Node: sample(nodeSchema, 'Node', 'v1', 'node-a'),
    PersistentVolume: sample(persistentVolumeSchema, 'PersistentVolume', 'v1', 'pv-a'),
    PersistentVolumeClaim: sample(persistentVolumeClaimSchema, 'PersistentVolumeClaim', 'v1', 'data', 'default'),
    LimitRange: sample(limitRangeSchema, 'LimitRange', 'v1', 'limits', 'default'),
    ResourceQuota: sample(resourceQuotaSchema, 'ResourceQuota', 'v1', 'quota', 'default'),
    PodDisruptionBudget: sample(podDisruptionBudgetSchema, 'PodDisruptionBudget', 'policy/v1', 'web', 'default'),
  };
}
