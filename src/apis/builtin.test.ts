import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { builtinResources } from './builtin.js';
import { csrRequestField } from './certificates/testing/csr-fixtures.js';
import type { ApiObject } from './object.js';
import type { Schema } from './schema/schema.js';

/** Every object schema reachable from `schema`, with its path. */
function* objectSchemas(schema: Schema, path: string): Generator<[string, Schema]> {
  if (schema.properties) {
    yield [path, schema];
    for (const [k, v] of Object.entries(schema.properties)) yield* objectSchemas(v, `${path}.${k}`);
  }
  if (schema.items) yield* objectSchemas(schema.items, `${path}[]`);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    yield* objectSchemas(schema.additionalProperties, `${path}{}`);
  }
}

const containers = [{ name: 'c', image: 'i' }];

/** An apps/v1 workload selecting its template's labels. */
function workload(kind: string, ns: string): ApiObject {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name: 'w', namespace: ns },
    spec: {
      selector: { matchLabels: { app: 'w' } },
      template: { metadata: { labels: { app: 'w' } }, spec: { containers } },
    },
  };
}

const minimal: Record<string, (ns: string) => ApiObject> = {
  Namespace: () => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }),
  ConfigMap: (ns) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: ns } }),
  Secret: (ns) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: ns } }),
  ServiceAccount: (ns) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: ns } }),
  Event: (ns) => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e', namespace: ns },
    involvedObject: { kind: 'ConfigMap', name: 'c', namespace: ns },
  }),
  'events.orch.io/Event': (ns) => ({
    apiVersion: 'events.orch.io/v1',
    kind: 'Event',
    metadata: { name: 'e', namespace: ns },
    eventTime: '2026-01-02T03:04:05.000000Z',
    reportingController: 'example.com/test',
    reportingInstance: 'test-1',
    action: 'Testing',
    reason: 'Tested',
    type: 'Normal',
    regarding: { kind: 'ConfigMap', name: 'c', namespace: ns },
  }),
  Lease: (ns) => ({ apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name: 'l', namespace: ns } }),
  LeaseCandidate: (ns) => ({
    apiVersion: 'coordination.orch.io/v1alpha2',
    kind: 'LeaseCandidate',
    metadata: { name: 'c', namespace: ns },
    spec: { leaseName: 'l', binaryVersion: '1.32.0', emulationVersion: '1.32.0', strategy: 'OldestEmulationVersion' },
  }),
  ClusterRoleBinding: () => ({
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'crb' },
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
  }),
  ClusterRole: () => ({ apiVersion: 'rbac.authorization.orch.io/v1', kind: 'ClusterRole', metadata: { name: 'cr' } }),
  RoleBinding: (ns) => ({
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'rb', namespace: ns },
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'r' },
  }),
  Role: (ns) => ({ apiVersion: 'rbac.authorization.orch.io/v1', kind: 'Role', metadata: { name: 'r', namespace: ns } }),
  Pod: (ns) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: ns },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  }),
  PodTemplate: (ns) => ({
    apiVersion: 'v1',
    kind: 'PodTemplate',
    metadata: { name: 't', namespace: ns },
    template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  }),
  Node: () => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } }),
  PersistentVolume: () => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pv' },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
  }),
  PersistentVolumeClaim: (ns) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'pvc', namespace: ns },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  }),
  LimitRange: (ns) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l', namespace: ns } }),
  ResourceQuota: (ns) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: ns } }),
  PodDisruptionBudget: (ns) => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'pdb', namespace: ns },
    spec: { minAvailable: 1 },
  }),
  PriorityClass: () => ({
    apiVersion: 'scheduling.orch.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'p' },
    value: 1,
  }),
  RuntimeClass: () => ({ apiVersion: 'node.orch.io/v1', kind: 'RuntimeClass', metadata: { name: 'rc' }, handler: 'h' }),
  CSIDriver: () => ({ apiVersion: 'storage.orch.io/v1', kind: 'CSIDriver', metadata: { name: 'd.csi.io' }, spec: {} }),
  CSINode: () => ({
    apiVersion: 'storage.orch.io/v1',
    kind: 'CSINode',
    metadata: { name: 'node-1' },
    spec: { drivers: [] },
  }),
  CSIStorageCapacity: (ns) => ({
    apiVersion: 'storage.orch.io/v1',
    kind: 'CSIStorageCapacity',
    metadata: { name: 'c', namespace: ns },
    storageClassName: 'fast',
  }),
  StorageClass: () => ({
    apiVersion: 'storage.orch.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'sc' },
    provisioner: 'p.io/x',
  }),
  VolumeAttachment: () => ({
    apiVersion: 'storage.orch.io/v1',
    kind: 'VolumeAttachment',
    metadata: { name: 'va' },
    spec: { attacher: 'd.csi.io', nodeName: 'node-1', source: { persistentVolumeName: 'pv' } },
  }),
  CertificateSigningRequest: () => ({
    apiVersion: 'certificates.orch.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'csr' },
    spec: { request: MINIMAL_CSR, signerName: 'example.com/signer', usages: ['client auth'] },
  }),
  FlowSchema: () => ({
    apiVersion: 'flowcontrol.apiserver.orch.io/v1',
    kind: 'FlowSchema',
    metadata: { name: 'fs' },
    spec: { priorityLevelConfiguration: { name: 'global-default' } },
  }),
  PriorityLevelConfiguration: () => ({
    apiVersion: 'flowcontrol.apiserver.orch.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'pl' },
    spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
  }),
  Service: (ns) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 's', namespace: ns },
    spec: { ports: [{ port: 80 }] },
  }),
  Endpoints: (ns) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 's', namespace: ns } }),
  EndpointSlice: (ns) => ({
    apiVersion: 'discovery.orch.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 's', namespace: ns },
    addressType: 'IPv4',
  }),
  IngressClass: () => ({
    apiVersion: 'networking.orch.io/v1',
    kind: 'IngressClass',
    metadata: { name: 'c' },
    spec: { controller: 'example.com/ingress' },
  }),
  Ingress: (ns) => ({
    apiVersion: 'networking.orch.io/v1',
    kind: 'Ingress',
    metadata: { name: 'i', namespace: ns },
    spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
  }),
  NetworkPolicy: (ns) => ({
    apiVersion: 'networking.orch.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'n', namespace: ns },
  }),
  ReplicationController: (ns) => ({
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'rc', namespace: ns },
    spec: { template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
  }),
  ControllerRevision: (ns) => ({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name: 'cr', namespace: ns },
    data: {},
    revision: 1,
  }),
  DaemonSet: (ns) => workload('DaemonSet', ns),
  Deployment: (ns) => workload('Deployment', ns),
  ReplicaSet: (ns) => workload('ReplicaSet', ns),
  StatefulSet: (ns) => workload('StatefulSet', ns),
  CronJob: (ns) => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'cj', namespace: ns },
    spec: {
      schedule: '@hourly',
      jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers } } } },
    },
  }),
  Job: (ns) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'j', namespace: ns, uid: 'u' },
    spec: { template: { spec: { restartPolicy: 'Never', containers } } },
  }),
  HorizontalPodAutoscaler: (ns) => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'h', namespace: ns },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'd', apiVersion: 'apps/v1' }, maxReplicas: 2 },
  }),
};

/** A PEM PKCS#10 request (EC P-256, CN=minimal), base64 as `spec.request` carries it. */
let MINIMAL_CSR = '';

/** Kinds whose strategy counts spec changes in `metadata.generation` (kube's do). */
const WITH_GENERATION = new Set([
  'PodTemplate',
  'PodDisruptionBudget',
  'EndpointSlice',
  'IngressClass',
  'Ingress',
  'NetworkPolicy',
  'ReplicationController',
  'DaemonSet',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'CronJob',
  'Job',
]);
/** Kinds in kube's `all` category. */
const IN_ALL = new Set([
  'Pod',
  'Service',
  'ReplicationController',
  'DaemonSet',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'CronJob',
  'Job',
  'HorizontalPodAutoscaler',
]);

describe('builtinResources', () => {
  const defs = builtinResources();
  before(async () => {
    MINIMAL_CSR = await csrRequestField('minimal');
  });

  it('lists the compiled-in kinds once each', () => {
    assert.deepEqual(
      defs.map((d) => `${d.group}/${d.version}/${d.resource}`),
      [
        '/v1/namespaces',
        '/v1/configmaps',
        '/v1/secrets',
        '/v1/serviceaccounts',
        '/v1/events',
        'coordination.orch.io/v1/leases',
        'coordination.orch.io/v1alpha2/leasecandidates',
        'rbac.authorization.orch.io/v1/clusterrolebindings',
        'rbac.authorization.orch.io/v1/clusterroles',
        'rbac.authorization.orch.io/v1/rolebindings',
        'rbac.authorization.orch.io/v1/roles',
        '/v1/pods',
        '/v1/podtemplates',
        '/v1/nodes',
        '/v1/persistentvolumes',
        '/v1/persistentvolumeclaims',
        '/v1/limitranges',
        '/v1/resourcequotas',
        'policy/v1/poddisruptionbudgets',
        'scheduling.orch.io/v1/priorityclasses',
        'node.orch.io/v1/runtimeclasses',
        'storage.orch.io/v1/csidrivers',
        'storage.orch.io/v1/csinodes',
        'storage.orch.io/v1/csistoragecapacities',
        'storage.orch.io/v1/storageclasses',
        'storage.orch.io/v1/volumeattachments',
        'certificates.orch.io/v1/certificatesigningrequests',
        'flowcontrol.apiserver.orch.io/v1/flowschemas',
        'flowcontrol.apiserver.orch.io/v1/prioritylevelconfigurations',
        '/v1/services',
        '/v1/endpoints',
        'discovery.orch.io/v1/endpointslices',
        'networking.orch.io/v1/ingressclasses',
        'networking.orch.io/v1/ingresses',
        'networking.orch.io/v1/networkpolicies',
        '/v1/replicationcontrollers',
        'apps/v1/controllerrevisions',
        'apps/v1/daemonsets',
        'apps/v1/deployments',
        'apps/v1/replicasets',
        'apps/v1/statefulsets',
        'events.orch.io/v1/events',
        'batch/v1/cronjobs',
        'batch/v1/jobs',
        'autoscaling/v2/horizontalpodautoscalers',
        'autoscaling/v1/horizontalpodautoscalers',
      ],
    );
    for (const d of defs) {
      assert.equal(d.listKind, `${d.kind}List`);
      assert.equal(d.singular, d.kind.toLowerCase());
      assert.deepEqual(d.categories, IN_ALL.has(d.kind) ? ['all'] : []);
      // kube tracks generation of the flow-control kinds and of these.
      assert.equal(
        d.hasGeneration,
        d.group.startsWith('flowcontrol.') || WITH_GENERATION.has(d.kind),
        `${d.kind}: generation as kube tracks it`,
      );
      assert.deepEqual([...d.verbs].sort(), [...d.verbs], 'verbs sorted');
    }
  });

  it('names every kind schema for OpenAPI and keeps protobuf numbers unique per message', () => {
    for (const d of defs) {
      assert.match(d.schema['x-orch-type-name'] ?? '', /^io\.orch\.api\./);
      for (const [path, schema] of objectSchemas(d.schema, d.kind)) {
        // Properties of a struct Go embeds inline travel inside that struct's own message.
        const inlined = new Set((schema['x-orch-protobuf-inline'] ?? []).flatMap((g) => g.properties));
        const numbers = Object.entries(schema.properties ?? {})
          .filter(([name]) => !inlined.has(name))
          .map(([, p]) => p['x-orch-protobuf-field'])
          .filter((n) => n !== undefined);
        assert.equal(new Set(numbers).size, numbers.length, `duplicate protobuf field number in ${path}`);
      }
    }
  });

  it('accepts a minimal object of every kind', () => {
    for (const d of defs) {
      const obj = (minimal[`${d.group}/${d.kind}`] ?? minimal[d.kind])(d.namespaced ? 'default' : '');
      d.strategy.defaults?.(obj);
      d.strategy.prepareForCreate(obj);
      assert.deepEqual(d.strategy.validateCreate(obj), [], d.kind);
    }
  });

  it('freezes the shared schemas', () => {
    assert.ok(Object.isFrozen(defs[1].schema));
    assert.ok(Object.isFrozen(defs[1].schema.properties?.metadata?.properties?.labels));
  });

  it('builds independent definitions on every call', () => {
    const again = builtinResources();
    assert.notEqual(again[0], defs[0]);
    assert.deepEqual(
      again.map((d) => d.kind),
      defs.map((d) => d.kind),
    );
  });
});
