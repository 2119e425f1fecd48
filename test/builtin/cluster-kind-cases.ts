import { csrRequestField } from '../../src/apis/certificates/testing/csr-fixtures.js';

/**
 * The cluster kinds' end-to-end cases: a valid object of each kind, a change an update may make
 * (and the field it shows in), and a strategic-merge patch, all under the default `orch.io` domain.
 */

// biome-ignore lint/suspicious/noExplicitAny: tests build arbitrary JSON
export type Json = any;

export interface KindCase {
  readonly kind: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace?: string;
  /** A valid object named `name` (without apiVersion/kind). */
  body(name: string): Promise<Json> | Json;
  /** Changes an update may make (applied to the stored object). */
  change(obj: Json): void;
  /** Where the change shows, and its value after `change`. */
  readonly changed: (obj: Json) => unknown;
  readonly changedValue: unknown;
  /** A strategic-merge patch, and the value it leaves at `patched`. */
  readonly patch: Json;
  readonly patched: (obj: Json) => unknown;
  readonly patchedValue: unknown;
  /**
   * A status written through `status` before the Protobuf comparison. VolumeAttachment needs one:
   * Orch's Protobuf encoder leaves out `status.attached: false` (a zero scalar), which Go writes.
   */
  readonly status?: Json;
}

const queueSpec = (shares: number) => ({
  type: 'Limited',
  limited: { nominalConcurrencyShares: shares, limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 4 } } },
});

export const CASES: readonly KindCase[] = [
  {
    kind: 'PriorityClass',
    group: 'scheduling.orch.io',
    resource: 'priorityclasses',
    body: (name) => ({ metadata: { name }, value: 1000, description: 'first' }),
    change: (o) => {
      o.description = 'second';
    },
    changed: (o) => o.description,
    changedValue: 'second',
    patch: { description: 'patched', metadata: { labels: { tier: 'a' } } },
    patched: (o) => [o.description, o.metadata.labels.tier],
    patchedValue: ['patched', 'a'],
  },
  {
    kind: 'RuntimeClass',
    group: 'node.orch.io',
    resource: 'runtimeclasses',
    body: (name) => ({ metadata: { name }, handler: 'runsc' }),
    change: (o) => {
      o.scheduling = { nodeSelector: { sandbox: 'true' } };
    },
    changed: (o) => o.scheduling.nodeSelector.sandbox,
    changedValue: 'true',
    patch: { scheduling: { nodeSelector: { zone: 'a' } } },
    patched: (o) => o.scheduling.nodeSelector,
    patchedValue: { sandbox: 'true', zone: 'a' },
  },
  {
    kind: 'StorageClass',
    group: 'storage.orch.io',
    resource: 'storageclasses',
    body: (name) => ({ metadata: { name }, provisioner: 'csi.example.com', parameters: { type: 'ssd' } }),
    change: (o) => {
      o.allowVolumeExpansion = true;
    },
    changed: (o) => o.allowVolumeExpansion,
    changedValue: true,
    patch: { mountOptions: ['ro'] },
    patched: (o) => o.mountOptions,
    patchedValue: ['ro'],
  },
  {
    kind: 'CSIDriver',
    group: 'storage.orch.io',
    resource: 'csidrivers',
    body: (name) => ({ metadata: { name }, spec: { podInfoOnMount: true } }),
    change: (o) => {
      o.spec.requiresRepublish = true;
    },
    changed: (o) => o.spec.requiresRepublish,
    changedValue: true,
    patch: { spec: { tokenRequests: [{ audience: 'vault' }] } },
    patched: (o) => o.spec.tokenRequests.map((t: Json) => t.audience),
    patchedValue: ['vault'],
  },
  {
    kind: 'CSINode',
    group: 'storage.orch.io',
    resource: 'csinodes',
    body: (name) => ({
      metadata: { name },
      spec: { drivers: [{ name: 'a.csi.io', nodeID: 'n-1', topologyKeys: ['zone'] }] },
    }),
    change: (o) => {
      o.spec.drivers.push({ name: 'b.csi.io', nodeID: 'n-2' });
    },
    changed: (o) => o.spec.drivers.length,
    changedValue: 2,
    patch: { spec: { drivers: [{ name: 'c.csi.io', nodeID: 'n-3' }] } },
    patched: (o) => o.spec.drivers.map((d: Json) => d.name).sort(),
    patchedValue: ['a.csi.io', 'b.csi.io', 'c.csi.io'],
  },
  {
    kind: 'VolumeAttachment',
    group: 'storage.orch.io',
    resource: 'volumeattachments',
    body: (name) => ({
      metadata: { name },
      spec: { attacher: 'csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } },
    }),
    change: (o) => {
      o.metadata.labels = { pv: 'pv-1' };
    },
    changed: (o) => o.metadata.labels.pv,
    changedValue: 'pv-1',
    patch: { metadata: { annotations: { note: 'x' } } },
    patched: (o) => o.metadata.annotations.note,
    patchedValue: 'x',
    status: { attached: true, attachmentMetadata: { device: '/dev/xvdb' } },
  },
  {
    kind: 'CSIStorageCapacity',
    group: 'storage.orch.io',
    resource: 'csistoragecapacities',
    namespace: 'default',
    body: (name) => ({
      metadata: { name, namespace: 'default' },
      storageClassName: 'fast',
      capacity: '10Gi',
      nodeTopology: { matchLabels: { zone: 'a' } },
    }),
    change: (o) => {
      o.capacity = '20Gi';
    },
    changed: (o) => o.capacity,
    changedValue: '20Gi',
    patch: { maximumVolumeSize: '5Gi' },
    patched: (o) => o.maximumVolumeSize,
    patchedValue: '5Gi',
  },
  {
    kind: 'CertificateSigningRequest',
    group: 'certificates.orch.io',
    resource: 'certificatesigningrequests',
    body: async (name) => ({
      metadata: { name },
      spec: { request: await csrRequestField(name), signerName: 'example.com/signer', usages: ['client auth'] },
    }),
    change: (o) => {
      o.metadata.labels = { team: 'a' };
    },
    changed: (o) => o.metadata.labels.team,
    changedValue: 'a',
    patch: { metadata: { labels: { env: 'test' } } },
    patched: (o) => o.metadata.labels,
    patchedValue: { team: 'a', env: 'test' },
  },
  {
    kind: 'FlowSchema',
    group: 'flowcontrol.apiserver.orch.io',
    resource: 'flowschemas',
    body: (name) => ({
      metadata: { name },
      spec: {
        priorityLevelConfiguration: { name: 'workload-low' },
        matchingPrecedence: 5000,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: [{ kind: 'User', user: { name: 'robot' } }],
            nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }],
          },
        ],
      },
    }),
    change: (o) => {
      o.spec.matchingPrecedence = 5001;
    },
    changed: (o) => o.spec.matchingPrecedence,
    changedValue: 5001,
    patch: { spec: { distinguisherMethod: { type: 'ByNamespace' } } },
    patched: (o) => o.spec.distinguisherMethod.type,
    patchedValue: 'ByNamespace',
  },
  {
    kind: 'PriorityLevelConfiguration',
    group: 'flowcontrol.apiserver.orch.io',
    resource: 'prioritylevelconfigurations',
    body: (name) => ({ metadata: { name }, spec: queueSpec(7) }),
    change: (o) => {
      o.spec.limited.nominalConcurrencyShares = 8;
    },
    changed: (o) => o.spec.limited.nominalConcurrencyShares,
    changedValue: 8,
    patch: { spec: { limited: { lendablePercent: 10 } } },
    patched: (o) => o.spec.limited.lendablePercent,
    patchedValue: 10,
  },
];

/** The collection path of a case. */
export function collectionPath(c: KindCase): string {
  return `/apis/${c.group}/v1${c.namespace ? `/namespaces/${c.namespace}` : ''}/${c.resource}`;
}
