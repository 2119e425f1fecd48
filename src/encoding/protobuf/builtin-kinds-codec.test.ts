import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import {
  controllerRevisionSchema,
  daemonSetSchema,
  deploymentSchema,
  replicaSetSchema,
  statefulSetSchema,
} from '../../apis/apps/apps-v1-schemas.js';
import {
  horizontalPodAutoscalerSchema as hpaV1Schema,
  scaleSchema,
} from '../../apis/autoscaling/autoscaling-v1-schemas.js';
import { horizontalPodAutoscalerSchema as hpaV2Schema } from '../../apis/autoscaling/autoscaling-v2-schemas.js';
import { cronJobSchema, jobSchema } from '../../apis/batch/batch-v1-schemas.js';
import { certificateSigningRequestSchema } from '../../apis/certificates/certificates-v1-schemas.js';
import {
  bindingSchema,
  endpointsSchema,
  limitRangeSchema,
  nodeSchema,
  persistentVolumeClaimSchema,
  persistentVolumeSchema,
  podSchema,
  podTemplateSchema,
  replicationControllerSchema,
  resourceQuotaSchema,
  serviceSchema,
} from '../../apis/core/core-v1-schemas.js';
import { endpointSliceSchema } from '../../apis/discovery/discovery-v1-schemas.js';
import { flowSchemaSchema, priorityLevelConfigurationSchema } from '../../apis/flowcontrol/flowcontrol-v1-schemas.js';
import { ingressClassSchema, ingressSchema, networkPolicySchema } from '../../apis/networking/networking-v1-schemas.js';
import { runtimeClassSchema } from '../../apis/node/node-v1-schemas.js';
import { evictionSchema, podDisruptionBudgetSchema } from '../../apis/policy/policy-v1-schemas.js';
import { priorityClassSchema } from '../../apis/scheduling/scheduling-v1-schemas.js';
import type { Schema } from '../../apis/schema/schema.js';
import {
  csiDriverSchema,
  csiNodeSchema,
  csiStorageCapacitySchema,
  storageClassSchema,
  volumeAttachmentSchema,
} from '../../apis/storage/storage-v1-schemas.js';
import { decodeObject, encodeObject } from './object-codec.js';
import { sampleObject } from './testing/sample-object.js';

/** Every generated kind of the plan with its apiVersion. */
const KINDS: [string, Schema][] = [
  ['apps/v1', controllerRevisionSchema],
  ['apps/v1', daemonSetSchema],
  ['apps/v1', deploymentSchema],
  ['apps/v1', replicaSetSchema],
  ['apps/v1', statefulSetSchema],
  ['autoscaling/v1', hpaV1Schema],
  ['autoscaling/v1', scaleSchema],
  ['autoscaling/v2', hpaV2Schema],
  ['batch/v1', cronJobSchema],
  ['batch/v1', jobSchema],
  [`${ORCH_DOMAIN.group('certificates')}/v1`, certificateSigningRequestSchema],
  ['v1', bindingSchema],
  ['v1', endpointsSchema],
  ['v1', limitRangeSchema],
  ['v1', nodeSchema],
  ['v1', persistentVolumeClaimSchema],
  ['v1', persistentVolumeSchema],
  ['v1', podSchema],
  ['v1', podTemplateSchema],
  ['v1', replicationControllerSchema],
  ['v1', resourceQuotaSchema],
  ['v1', serviceSchema],
  [`${ORCH_DOMAIN.group('discovery')}/v1`, endpointSliceSchema],
  [`${ORCH_DOMAIN.group('flowcontrol.apiserver')}/v1`, flowSchemaSchema],
  [`${ORCH_DOMAIN.group('flowcontrol.apiserver')}/v1`, priorityLevelConfigurationSchema],
  [`${ORCH_DOMAIN.group('networking')}/v1`, ingressClassSchema],
  [`${ORCH_DOMAIN.group('networking')}/v1`, ingressSchema],
  [`${ORCH_DOMAIN.group('networking')}/v1`, networkPolicySchema],
  [`${ORCH_DOMAIN.group('node')}/v1`, runtimeClassSchema],
  ['policy/v1', evictionSchema],
  ['policy/v1', podDisruptionBudgetSchema],
  [`${ORCH_DOMAIN.group('scheduling')}/v1`, priorityClassSchema],
  [`${ORCH_DOMAIN.group('storage')}/v1`, csiDriverSchema],
  [`${ORCH_DOMAIN.group('storage')}/v1`, csiNodeSchema],
  [`${ORCH_DOMAIN.group('storage')}/v1`, csiStorageCapacitySchema],
  [`${ORCH_DOMAIN.group('storage')}/v1`, storageClassSchema],
  [`${ORCH_DOMAIN.group('storage')}/v1`, volumeAttachmentSchema],
];

/** Every object key, depth first, so key order is compared too (maps come back sorted; metadata has its own tests). */
function keyPaths(v: unknown, path = ''): string[] {
  if (path === '.metadata') return [];
  if (Array.isArray(v)) return v.flatMap((x, i) => keyPaths(x, `${path}[${i}]`));
  if (v === null || typeof v !== 'object') return [];
  return Object.entries(v).flatMap(([k, x]) => [`${path}.${k}`, ...keyPaths(x, `${path}.${k}`)]);
}

describe('protobuf round trips of the generated built-in kinds', () => {
  for (const [apiVersion, schema] of KINDS) {
    const kind = (schema['x-orch-type-name'] as string).split('.').pop() as string;
    it(`${apiVersion} ${kind}: a fully populated object survives JSON → protobuf → JSON`, () => {
      assert.ok(schema.properties?.apiVersion && schema.properties.kind && schema.properties.metadata);
      const obj = sampleObject(schema, kind, apiVersion);
      const encoded = encodeObject(schema, obj);
      const decoded = decodeObject(schema, encoded, { apiVersion, kind });
      assert.deepEqual(decoded, obj);
      assert.deepEqual(keyPaths(decoded), keyPaths(obj));
      assert.deepEqual(encodeObject(schema, decoded), encoded);
    });
  }
});

describe('zero values of the generated kinds in Protobuf', () => {
  it('keeps an int-or-string 0 and a zero Go always prints (maxSurge: 0, attached: false)', () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'd' },
      spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
    };
    const dsBack = decodeObject(daemonSetSchema, encodeObject(daemonSetSchema, ds), {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
    }) as typeof ds;
    assert.deepEqual(dsBack.spec.updateStrategy.rollingUpdate, { maxUnavailable: 1, maxSurge: 0 });
    const apiVersion = `${ORCH_DOMAIN.group('storage')}/v1`;
    const va = {
      apiVersion,
      kind: 'VolumeAttachment',
      metadata: { name: 'v' },
      spec: { attacher: 'csi.example', nodeName: 'n1', source: { persistentVolumeName: 'pv' } },
      status: { attached: false },
    };
    const vaBack = decodeObject(volumeAttachmentSchema, encodeObject(volumeAttachmentSchema, va), {
      apiVersion,
      kind: 'VolumeAttachment',
    }) as typeof va;
    assert.deepEqual(vaBack.status, { attached: false });
  });
});
