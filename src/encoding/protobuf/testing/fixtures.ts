import type { ApiObject } from '../../../apis/object.js';
import { clusterKindObjects } from './cluster-fixtures.js';
import { podKindObjects } from './pod-fixtures.js';
import { serviceAreaObjects } from './service-fixtures.js';

/**
 * Rich objects of every built-in kind for codec tests: every field kind (strings, int32/int64
 * including explicit zeros and negatives, bools, maps, bytes, repeated strings and messages,
 * Time, MicroTime, FieldsV1) in canonical JSON form, so JSON → protobuf → JSON is the identity.
 */

/** ObjectMeta with every field set; `namespace` only for namespaced kinds. */
export function richMetadata(name: string, namespace?: string): Record<string, unknown> {
  return {
    name,
    generateName: `${name}-`,
    ...(namespace ? { namespace } : {}),
    selfLink: `/self/${name}`,
    uid: '6f1c1f0e-5b6f-4a63-9d4c-3c3c6e1f0a01',
    resourceVersion: '184467',
    generation: 3,
    creationTimestamp: '2024-05-06T07:08:09Z',
    deletionTimestamp: '2030-01-02T03:04:05Z',
    // A Go pointer field: zero is a set value and must survive.
    deletionGracePeriodSeconds: 0,
    labels: { app: name, 'orch.io/empty': '' },
    annotations: { 'example.com/unicode': 'grüße ✓ 🚀', 'example.com/long': 'x'.repeat(300) },
    ownerReferences: [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        name: 'owner',
        uid: '0b3e4a52-0000-4000-8000-000000000001',
        controller: true,
        blockOwnerDeletion: false,
      },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: '0b3e4a52-0000-4000-8000-000000000002' },
    ],
    finalizers: ['example.com/one', 'example.com/two'],
    managedFields: [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2024-05-06T07:08:09Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      },
      {
        manager: 'controller',
        operation: 'Apply',
        apiVersion: 'v1',
        time: '1969-07-20T20:17:40Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': {} },
        subresource: 'status',
      },
    ],
  };
}

const objectReference = {
  kind: 'Pod',
  namespace: 'default',
  name: 'web-0',
  uid: '7d0c2b1a-1111-4222-8333-444455556666',
  apiVersion: 'v1',
  resourceVersion: '99',
  fieldPath: 'spec.containers{web}',
};

/** One rich object per built-in kind, keyed by kind. */
export function richObjects(): Record<string, ApiObject> {
  return {
    Namespace: {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: richMetadata('team-a'),
      spec: { finalizers: ['orch', 'example.com/cleanup'] },
      status: {
        phase: 'Terminating',
        conditions: [
          {
            type: 'NamespaceDeletionContentFailure',
            status: 'True',
            lastTransitionTime: '2024-05-06T07:08:10Z',
            reason: 'ContentDeletionFailed',
            message: 'failed to delete some content',
          },
        ],
      },
    },
    ConfigMap: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: richMetadata('settings', 'default'),
      immutable: false,
      data: { 'app.properties': 'a=1\nb=2\n', empty: '', 'big.txt': 'y'.repeat(20000) },
      binaryData: { 'blob.bin': Buffer.from([0, 1, 2, 253, 254, 255]).toString('base64'), none: '' },
    },
    Secret: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: richMetadata('tls', 'default'),
      immutable: true,
      data: { 'tls.crt': Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64'), 'tls.key': 'AP8=' },
      stringData: { extra: 'plain text' },
      type: 'kubernetes.io/tls',
    },
    ServiceAccount: {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: richMetadata('builder', 'ci'),
      secrets: [{ name: 'builder-token' }, objectReference],
      imagePullSecrets: [{ name: 'registry' }, {}],
      automountServiceAccountToken: false,
    },
    Event: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: richMetadata('web-0.17c5', 'default'),
      involvedObject: objectReference,
      reason: 'BackOff',
      message: 'Back-off restarting failed container',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2024-05-06T07:00:00Z',
      lastTimestamp: '2024-05-06T07:08:00Z',
      count: 42,
      type: 'Warning',
      eventTime: '2024-05-06T07:08:09.123456Z',
      series: { count: 7, lastObservedTime: '2024-05-06T07:08:09.000001Z' },
      action: 'Restarting',
      related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' },
      reportingComponent: 'orch.io/kubelet',
      reportingInstance: 'kubelet-node-1',
    },
    Lease: {
      apiVersion: 'coordination.orch.io/v1',
      kind: 'Lease',
      metadata: richMetadata('controller-manager', 'orch-system'),
      spec: {
        // Pointer fields: the empty holder and zero transitions are set values.
        holderIdentity: '',
        leaseDurationSeconds: 15,
        acquireTime: '2024-05-06T07:08:09.000000Z',
        renewTime: '2024-05-06T07:08:24.999999Z',
        leaseTransitions: 0,
        strategy: 'OldestEmulationVersion',
        preferredHolder: 'node-2',
      },
    },
    ClusterRole: {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'ClusterRole',
      metadata: richMetadata('monitoring'),
      rules: [
        { verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods', 'deployments/scale'] },
        { verbs: ['get'], nonResourceURLs: ['/metrics', '/healthz/*'] },
      ],
      aggregationRule: {
        clusterRoleSelectors: [
          { matchLabels: { 'example.com/aggregate': 'true' } },
          { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] },
        ],
      },
    },
    Role: {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'Role',
      metadata: richMetadata('settings-reader', 'default'),
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }],
    },
    ClusterRoleBinding: {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: richMetadata('monitoring'),
      subjects: [
        { kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'system:monitoring' },
        { kind: 'ServiceAccount', name: 'prometheus', namespace: 'monitoring' },
      ],
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'monitoring' },
    },
    RoleBinding: {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'RoleBinding',
      metadata: richMetadata('settings', 'default'),
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'alice' }],
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'settings-reader' },
    },
    ...clusterKindObjects(),
    ...podKindObjects(),
    ...serviceAreaObjects(richMetadata),
  };
}
