import type { ApiObject } from '../../../apis/object.js';
import { richMetadata } from './fixtures.js';

const TIME = '2024-05-06T07:08:09Z';
const PEM = Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n').toString(
  'base64',
);

/**
 * One rich object per cluster kind (scheduling, node, storage, certificates, flowcontrol), every
 * non-pointer scalar set to a non-zero value so the Protobuf round trip is the identity.
 */
export function clusterKindObjects(): Record<string, ApiObject> {
  return {
    PriorityClass: {
      apiVersion: 'scheduling.orch.io/v1',
      kind: 'PriorityClass',
      metadata: richMetadata('high'),
      value: 1000,
      globalDefault: true,
      description: 'for important pods',
      preemptionPolicy: 'Never',
    },
    RuntimeClass: {
      apiVersion: 'node.orch.io/v1',
      kind: 'RuntimeClass',
      metadata: richMetadata('gvisor'),
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
      scheduling: {
        nodeSelector: { sandbox: 'true' },
        tolerations: [{ key: 'sandbox', operator: 'Equal', value: 'yes', effect: 'NoExecute', tolerationSeconds: 30 }],
      },
    },
    StorageClass: {
      apiVersion: 'storage.orch.io/v1',
      kind: 'StorageClass',
      metadata: richMetadata('fast'),
      provisioner: 'csi.example.com',
      parameters: { type: 'ssd', iops: '3000' },
      reclaimPolicy: 'Retain',
      mountOptions: ['ro', 'noatime'],
      allowVolumeExpansion: true,
      volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['a', 'b'] }] }],
    },
    CSIDriver: {
      apiVersion: 'storage.orch.io/v1',
      kind: 'CSIDriver',
      metadata: richMetadata('csi.example.com'),
      spec: {
        attachRequired: false,
        podInfoOnMount: true,
        volumeLifecycleModes: ['Persistent', 'Ephemeral'],
        storageCapacity: true,
        fsGroupPolicy: 'File',
        tokenRequests: [{ audience: 'vault', expirationSeconds: 3600 }],
        requiresRepublish: true,
        seLinuxMount: true,
      },
    },
    CSINode: {
      apiVersion: 'storage.orch.io/v1',
      kind: 'CSINode',
      metadata: richMetadata('node-1'),
      spec: {
        drivers: [{ name: 'csi.example.com', nodeID: 'i-0123', topologyKeys: ['zone'], allocatable: { count: 16 } }],
      },
    },
    VolumeAttachment: {
      apiVersion: 'storage.orch.io/v1',
      kind: 'VolumeAttachment',
      metadata: richMetadata('attach-1'),
      spec: { attacher: 'csi.example.com', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' },
      status: {
        attached: true,
        attachmentMetadata: { device: '/dev/xvdb' },
        attachError: { time: TIME, message: 'timed out' },
        detachError: { time: TIME, message: 'busy' },
      },
    },
    CSIStorageCapacity: {
      apiVersion: 'storage.orch.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: richMetadata('cap-1', 'default'),
      nodeTopology: { matchLabels: { zone: 'a' } },
      storageClassName: 'fast',
      capacity: '10Gi',
      maximumVolumeSize: '1Gi',
    },
    CertificateSigningRequest: {
      apiVersion: 'certificates.orch.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: richMetadata('csr-1'),
      spec: {
        request: PEM,
        signerName: 'example.com/signer',
        expirationSeconds: 3600,
        usages: ['client auth', 'digital signature'],
        username: 'alice',
        uid: 'u-1',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: ['a', 'b'] },
      },
      status: {
        conditions: [
          {
            type: 'Approved',
            status: 'True',
            reason: 'OK',
            message: 'ok',
            lastUpdateTime: TIME,
            lastTransitionTime: TIME,
          },
        ],
        certificate: Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64'),
      },
    },
    FlowSchema: {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1',
      kind: 'FlowSchema',
      metadata: richMetadata('robots'),
      spec: {
        priorityLevelConfiguration: { name: 'workload-low' },
        matchingPrecedence: 500,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: [
              { kind: 'User', user: { name: 'robot' } },
              { kind: 'ServiceAccount', serviceAccount: { namespace: 'ci', name: 'builder' } },
            ],
            resourceRules: [
              { verbs: ['get'], apiGroups: [''], resources: ['pods'], clusterScope: true, namespaces: ['*'] },
            ],
            nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
          },
        ],
      },
      status: {
        conditions: [{ type: 'Dangling', status: 'False', lastTransitionTime: TIME, reason: 'Found', message: 'ok' }],
      },
    },
    PriorityLevelConfiguration: {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: richMetadata('workload-low'),
      spec: {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 100,
          limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
          lendablePercent: 90,
          borrowingLimitPercent: 10,
        },
      },
      status: {
        conditions: [
          { type: 'ConcurrencyShared', status: 'True', lastTransitionTime: TIME, reason: 'R', message: 'm' },
        ],
      },
    },
  };
}
