/**
 * Test table of manifest conversions: an old (or served) manifest, the target version and the
 * manifest expected in it. Shared by the conversion unit tests and the end-to-end test that
 * creates every expected object on a real server. `served` is false for the targets the server
 * does not serve yet (events, admissionregistration and apiregistration v1).
 */
import type { ApiDomain } from '../../api-domain.js';
import type { ApiObject } from '../../object.js';
import { MAX_INT32 } from '../apps-conversion.js';

export interface ConversionCase {
  readonly name: string;
  readonly input: ApiObject;
  /** `--output-version`; the kind's preferred version when absent. */
  readonly target?: string;
  readonly expected: ApiObject;
  readonly served: boolean;
}

type Json = Record<string, unknown>;

const podTemplate = (labels: Record<string, string>): Json => ({
  metadata: { labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

/** An object; an empty `name` leaves metadata empty, as access reviews require. */
function obj(apiVersion: string, kind: string, name: string, body: Json, namespace?: string): ApiObject {
  const metadata = name === '' ? {} : namespace ? { name, namespace } : { name };
  return { apiVersion, kind, metadata, ...body };
}

/** The cases, group names from `domain`; `csrRequest` is the base64 PEM request the CSRs carry. */
export function conversionCases(d: ApiDomain, csrRequest = 'cmVxdWVzdA=='): ConversionCase[] {
  const g = (base: string) => d.group(base);
  const ns = 'default';
  const app = { app: 'web' };
  const zoneKey = d.key('topology', 'zone');
  const hostKey = d.key('', 'hostname');
  const pdbKey = d.key('pdb', 'deprecated-v1beta1-empty-selector-match');
  const hpaMetric = (n: number) => ({
    type: 'Resource',
    resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } },
  });
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
  const schema = {
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
    },
  };
  return [
    // networking
    {
      name: 'extensions/v1beta1 Ingress: backend, service name and port number, default pathType',
      input: obj(
        'extensions/v1beta1',
        'Ingress',
        'ing',
        {
          spec: {
            backend: { serviceName: 'default-backend', servicePort: 80 },
            rules: [
              {
                host: 'a.example.com',
                http: { paths: [{ path: '/api', backend: { serviceName: 'api', servicePort: 8080 } }] },
              },
            ],
          },
        },
        ns,
      ),
      expected: obj(
        `${g('networking')}/v1`,
        'Ingress',
        'ing',
        {
          spec: {
            defaultBackend: { service: { name: 'default-backend', port: { number: 80 } } },
            rules: [
              {
                host: 'a.example.com',
                http: {
                  paths: [
                    {
                      path: '/api',
                      backend: { service: { name: 'api', port: { number: 8080 } } },
                      pathType: 'ImplementationSpecific',
                    },
                  ],
                },
              },
            ],
          },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'networking v1beta1 Ingress: named port, resource backend, explicit pathType, TLS and class kept',
      input: obj(
        `${g('networking')}/v1beta1`,
        'Ingress',
        'ing2',
        {
          spec: {
            ingressClassName: 'nginx',
            tls: [{ hosts: ['b.example.com'], secretName: 'tls' }],
            rules: [
              {
                host: 'b.example.com',
                http: {
                  paths: [
                    { path: '/', pathType: 'Prefix', backend: { serviceName: 'web', servicePort: 'http' } },
                    {
                      path: '/static',
                      pathType: 'Exact',
                      backend: { resource: { apiGroup: 'example.com', kind: 'Bucket', name: 'b' } },
                    },
                  ],
                },
              },
            ],
          },
        },
        ns,
      ),
      target: `${g('networking')}/v1`,
      expected: obj(
        `${g('networking')}/v1`,
        'Ingress',
        'ing2',
        {
          spec: {
            ingressClassName: 'nginx',
            tls: [{ hosts: ['b.example.com'], secretName: 'tls' }],
            rules: [
              {
                host: 'b.example.com',
                http: {
                  paths: [
                    { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { name: 'http' } } } },
                    {
                      path: '/static',
                      pathType: 'Exact',
                      backend: { resource: { apiGroup: 'example.com', kind: 'Bucket', name: 'b' } },
                    },
                  ],
                },
              },
            ],
          },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'networking v1beta1 IngressClass',
      input: obj(`${g('networking')}/v1beta1`, 'IngressClass', 'nginx', {
        spec: { controller: 'example.com/ingress' },
      }),
      expected: obj(`${g('networking')}/v1`, 'IngressClass', 'nginx', { spec: { controller: 'example.com/ingress' } }),
      served: true,
    },
    {
      name: 'extensions/v1beta1 NetworkPolicy',
      input: obj(
        'extensions/v1beta1',
        'NetworkPolicy',
        'deny',
        { spec: { podSelector: { matchLabels: app }, policyTypes: ['Ingress'] } },
        ns,
      ),
      expected: obj(
        `${g('networking')}/v1`,
        'NetworkPolicy',
        'deny',
        { spec: { podSelector: { matchLabels: app }, policyTypes: ['Ingress'] } },
        ns,
      ),
      served: true,
    },
    // apps
    {
      name: 'extensions/v1beta1 Deployment: selector and labels from the template, old defaults explicit, rollbackTo dropped',
      input: obj(
        'extensions/v1beta1',
        'Deployment',
        'web',
        { spec: { replicas: 2, rollbackTo: { revision: 1 }, template: podTemplate(app) } },
        ns,
      ),
      target: 'apps/v1',
      expected: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: ns, labels: app },
        spec: {
          replicas: 2,
          template: podTemplate(app),
          revisionHistoryLimit: MAX_INT32,
          progressDeadlineSeconds: MAX_INT32,
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } },
          selector: { matchLabels: app },
        },
      },
      served: true,
    },
    {
      name: 'apps/v1beta1 Deployment: Recreate kept, 2 revisions, no deadline, labels kept',
      input: {
        apiVersion: 'apps/v1beta1',
        kind: 'Deployment',
        metadata: { name: 'web1', namespace: ns, labels: { tier: 'front' } },
        spec: { selector: { matchLabels: app }, strategy: { type: 'Recreate' }, template: podTemplate(app) },
      },
      target: 'apps/v1',
      expected: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web1', namespace: ns, labels: { tier: 'front' } },
        spec: {
          selector: { matchLabels: app },
          strategy: { type: 'Recreate' },
          template: podTemplate(app),
          revisionHistoryLimit: 2,
          progressDeadlineSeconds: MAX_INT32,
        },
      },
      served: true,
    },
    {
      name: 'apps/v1beta2 Deployment: v1 shape',
      input: obj(
        'apps/v1beta2',
        'Deployment',
        'web2',
        { spec: { selector: { matchLabels: app }, template: podTemplate(app) } },
        ns,
      ),
      expected: obj(
        'apps/v1',
        'Deployment',
        'web2',
        { spec: { selector: { matchLabels: app }, template: podTemplate(app) } },
        ns,
      ),
      served: true,
    },
    {
      name: 'extensions/v1beta1 DaemonSet: OnDelete by default, templateGeneration dropped',
      input: obj(
        'extensions/v1beta1',
        'DaemonSet',
        'agent',
        { spec: { templateGeneration: 3, template: podTemplate(app) } },
        ns,
      ),
      expected: {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'agent', namespace: ns, labels: app },
        spec: { template: podTemplate(app), updateStrategy: { type: 'OnDelete' }, selector: { matchLabels: app } },
      },
      served: true,
    },
    {
      name: 'apps/v1beta2 DaemonSet: rolling update kept',
      input: obj(
        'apps/v1beta2',
        'DaemonSet',
        'agent2',
        {
          spec: {
            selector: { matchLabels: app },
            updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
            template: podTemplate(app),
          },
        },
        ns,
      ),
      expected: obj(
        'apps/v1',
        'DaemonSet',
        'agent2',
        {
          spec: {
            selector: { matchLabels: app },
            updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
            template: podTemplate(app),
          },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'apps/v1beta1 StatefulSet: OnDelete by default, selector and labels from the template',
      input: obj('apps/v1beta1', 'StatefulSet', 'db', { spec: { serviceName: 'db', template: podTemplate(app) } }, ns),
      expected: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db', namespace: ns, labels: app },
        spec: {
          serviceName: 'db',
          template: podTemplate(app),
          updateStrategy: { type: 'OnDelete' },
          selector: { matchLabels: app },
        },
      },
      served: true,
    },
    {
      name: 'apps/v1beta2 StatefulSet: v1 shape',
      input: obj(
        'apps/v1beta2',
        'StatefulSet',
        'db2',
        { spec: { serviceName: 'db', selector: { matchLabels: app }, template: podTemplate(app) } },
        ns,
      ),
      expected: obj(
        'apps/v1',
        'StatefulSet',
        'db2',
        { spec: { serviceName: 'db', selector: { matchLabels: app }, template: podTemplate(app) } },
        ns,
      ),
      served: true,
    },
    {
      name: 'extensions/v1beta1 ReplicaSet: selector and labels from the template',
      input: obj('extensions/v1beta1', 'ReplicaSet', 'rs', { spec: { replicas: 1, template: podTemplate(app) } }, ns),
      expected: {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'rs', namespace: ns, labels: app },
        spec: { replicas: 1, template: podTemplate(app), selector: { matchLabels: app } },
      },
      served: true,
    },
    {
      name: 'apps/v1beta2 ControllerRevision',
      input: obj('apps/v1beta2', 'ControllerRevision', 'rev', { revision: 1, data: { a: 1 } }, ns),
      expected: obj('apps/v1', 'ControllerRevision', 'rev', { revision: 1, data: { a: 1 } }, ns),
      served: true,
    },
    // batch, policy
    {
      name: 'batch/v1beta1 CronJob',
      input: obj(
        'batch/v1beta1',
        'CronJob',
        'cj',
        {
          spec: {
            schedule: '*/5 * * * *',
            jobTemplate: {
              spec: {
                template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } },
              },
            },
          },
        },
        ns,
      ),
      expected: obj(
        'batch/v1',
        'CronJob',
        'cj',
        {
          spec: {
            schedule: '*/5 * * * *',
            jobTemplate: {
              spec: {
                template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } },
              },
            },
          },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'policy/v1beta1 PodDisruptionBudget: an empty selector (none) becomes one matching nothing',
      input: obj('policy/v1beta1', 'PodDisruptionBudget', 'pdb-none', { spec: { minAvailable: 1, selector: {} } }, ns),
      expected: obj(
        'policy/v1',
        'PodDisruptionBudget',
        'pdb-none',
        {
          spec: { minAvailable: 1, selector: { matchExpressions: [{ key: pdbKey, operator: 'Exists' }] } },
        },
        ns,
      ),
      served: true,
    },
    {
      name: "policy/v1beta1 PodDisruptionBudget: v1beta1's match-all becomes v1's empty selector",
      input: obj(
        'policy/v1beta1',
        'PodDisruptionBudget',
        'pdb-all',
        {
          spec: { maxUnavailable: '10%', selector: { matchExpressions: [{ key: pdbKey, operator: 'DoesNotExist' }] } },
        },
        ns,
      ),
      expected: obj(
        'policy/v1',
        'PodDisruptionBudget',
        'pdb-all',
        { spec: { maxUnavailable: '10%', selector: {} } },
        ns,
      ),
      served: true,
    },
    {
      name: 'policy/v1beta1 PodDisruptionBudget: a label selector is kept',
      input: obj(
        'policy/v1beta1',
        'PodDisruptionBudget',
        'pdb',
        { spec: { minAvailable: 2, selector: { matchLabels: app } } },
        ns,
      ),
      expected: obj(
        'policy/v1',
        'PodDisruptionBudget',
        'pdb',
        { spec: { minAvailable: 2, selector: { matchLabels: app } } },
        ns,
      ),
      served: true,
    },
    // autoscaling
    {
      name: 'autoscaling/v2beta1 HorizontalPodAutoscaler: flat metric fields become targets',
      input: obj(
        'autoscaling/v2beta1',
        'HorizontalPodAutoscaler',
        'hpa',
        {
          spec: {
            scaleTargetRef: ref,
            minReplicas: 1,
            maxReplicas: 5,
            metrics: [
              { type: 'Resource', resource: { name: 'cpu', targetAverageUtilization: 60 } },
              { type: 'Resource', resource: { name: 'memory', targetAverageValue: '500Mi' } },
              { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } },
              {
                type: 'Object',
                object: {
                  target: { kind: 'Service', name: 'web', apiVersion: 'v1' },
                  metricName: 'hits',
                  targetValue: '100',
                },
              },
              {
                type: 'External',
                external: {
                  metricName: 'queue',
                  metricSelector: { matchLabels: { q: 'a' } },
                  targetAverageValue: '30',
                },
              },
            ],
          },
        },
        ns,
      ),
      expected: obj(
        'autoscaling/v2',
        'HorizontalPodAutoscaler',
        'hpa',
        {
          spec: {
            scaleTargetRef: ref,
            minReplicas: 1,
            maxReplicas: 5,
            metrics: [
              hpaMetric(60),
              {
                type: 'Resource',
                resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } },
              },
              { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
              {
                type: 'Object',
                object: {
                  describedObject: { kind: 'Service', name: 'web', apiVersion: 'v1' },
                  target: { type: 'Value', value: '100' },
                  metric: { name: 'hits' },
                },
              },
              {
                type: 'External',
                external: {
                  metric: { name: 'queue', selector: { matchLabels: { q: 'a' } } },
                  target: { type: 'AverageValue', averageValue: '30' },
                },
              },
            ],
          },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'autoscaling/v2beta2 HorizontalPodAutoscaler: v2 shape',
      input: obj(
        'autoscaling/v2beta2',
        'HorizontalPodAutoscaler',
        'hpa2',
        {
          spec: {
            scaleTargetRef: ref,
            maxReplicas: 3,
            metrics: [hpaMetric(70)],
            behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
          },
        },
        ns,
      ),
      target: 'autoscaling/v2',
      expected: obj(
        'autoscaling/v2',
        'HorizontalPodAutoscaler',
        'hpa2',
        {
          spec: {
            scaleTargetRef: ref,
            maxReplicas: 3,
            metrics: [hpaMetric(70)],
            behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
          },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'autoscaling/v2beta1 HorizontalPodAutoscaler to autoscaling/v1: the CPU target',
      input: obj(
        'autoscaling/v2beta1',
        'HorizontalPodAutoscaler',
        'hpa3',
        {
          spec: {
            scaleTargetRef: ref,
            maxReplicas: 4,
            metrics: [{ type: 'Resource', resource: { name: 'cpu', targetAverageUtilization: 50 } }],
          },
        },
        ns,
      ),
      target: 'autoscaling/v1',
      expected: obj(
        'autoscaling/v1',
        'HorizontalPodAutoscaler',
        'hpa3',
        {
          spec: { scaleTargetRef: ref, maxReplicas: 4, targetCPUUtilizationPercentage: 50 },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'autoscaling/v1 HorizontalPodAutoscaler to autoscaling/v2',
      input: obj(
        'autoscaling/v1',
        'HorizontalPodAutoscaler',
        'hpa4',
        {
          spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 4, targetCPUUtilizationPercentage: 75 },
        },
        ns,
      ),
      target: 'autoscaling/v2',
      expected: obj(
        'autoscaling/v2',
        'HorizontalPodAutoscaler',
        'hpa4',
        {
          spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 4, metrics: [hpaMetric(75)] },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'autoscaling/v2 HorizontalPodAutoscaler to autoscaling/v1',
      input: obj(
        'autoscaling/v2',
        'HorizontalPodAutoscaler',
        'hpa5',
        {
          spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 4, metrics: [hpaMetric(75)] },
        },
        ns,
      ),
      target: 'autoscaling/v1',
      expected: obj(
        'autoscaling/v1',
        'HorizontalPodAutoscaler',
        'hpa5',
        {
          spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 4, targetCPUUtilizationPercentage: 75 },
        },
        ns,
      ),
      served: true,
    },
    // discovery, events
    {
      name: 'discovery v1beta1 EndpointSlice: topology to nodeName, zone and deprecatedTopology',
      input: obj(
        `${g('discovery')}/v1beta1`,
        'EndpointSlice',
        'eps',
        {
          addressType: 'IPv4',
          ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
          endpoints: [
            {
              addresses: ['10.0.0.1'],
              conditions: { ready: true },
              topology: { [hostKey]: 'node-1', [zoneKey]: 'z1', rack: 'r1' },
            },
            { addresses: ['10.0.0.2'], nodeName: 'node-2', topology: { [hostKey]: 'node-2' } },
            { addresses: ['10.0.0.3'] },
          ],
        },
        ns,
      ),
      expected: obj(
        `${g('discovery')}/v1`,
        'EndpointSlice',
        'eps',
        {
          addressType: 'IPv4',
          ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
          endpoints: [
            {
              addresses: ['10.0.0.1'],
              conditions: { ready: true },
              zone: 'z1',
              nodeName: 'node-1',
              deprecatedTopology: { rack: 'r1' },
            },
            { addresses: ['10.0.0.2'], nodeName: 'node-2' },
            { addresses: ['10.0.0.3'] },
          ],
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'events v1beta1 Event',
      input: obj(
        `${g('events')}/v1beta1`,
        'Event',
        'ev',
        {
          eventTime: '2024-01-01T00:00:00.000000Z',
          reportingController: 'example.com/ctl',
          reportingInstance: 'ctl-1',
          action: 'Scaled',
          reason: 'Scaled',
          type: 'Normal',
          regarding: { kind: 'Deployment', name: 'web', namespace: ns },
        },
        ns,
      ),
      expected: obj(
        `${g('events')}/v1`,
        'Event',
        'ev',
        {
          eventTime: '2024-01-01T00:00:00.000000Z',
          reportingController: 'example.com/ctl',
          reportingInstance: 'ctl-1',
          action: 'Scaled',
          reason: 'Scaled',
          type: 'Normal',
          regarding: { kind: 'Deployment', name: 'web', namespace: ns },
        },
        ns,
      ),
      served: false,
    },
    // rbac, scheduling, coordination, node, storage
    {
      name: 'rbac v1beta1 Role',
      input: obj(
        `${g('rbac.authorization')}/v1beta1`,
        'Role',
        'reader',
        { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
        ns,
      ),
      expected: obj(
        `${g('rbac.authorization')}/v1`,
        'Role',
        'reader',
        { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
        ns,
      ),
      served: true,
    },
    {
      name: 'rbac v1beta1 ClusterRoleBinding',
      input: obj(`${g('rbac.authorization')}/v1beta1`, 'ClusterRoleBinding', 'crb', {
        roleRef: { apiGroup: g('rbac.authorization'), kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', apiGroup: g('rbac.authorization'), name: 'alice' }],
      }),
      expected: obj(`${g('rbac.authorization')}/v1`, 'ClusterRoleBinding', 'crb', {
        roleRef: { apiGroup: g('rbac.authorization'), kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', apiGroup: g('rbac.authorization'), name: 'alice' }],
      }),
      served: true,
    },
    {
      name: 'scheduling v1beta1 PriorityClass',
      input: obj(`${g('scheduling')}/v1beta1`, 'PriorityClass', 'high', { value: 1000, description: 'high' }),
      expected: obj(`${g('scheduling')}/v1`, 'PriorityClass', 'high', { value: 1000, description: 'high' }),
      served: true,
    },
    {
      name: 'coordination v1beta1 Lease',
      input: obj(
        `${g('coordination')}/v1beta1`,
        'Lease',
        'lock',
        { spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
        ns,
      ),
      expected: obj(
        `${g('coordination')}/v1`,
        'Lease',
        'lock',
        { spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
        ns,
      ),
      served: true,
    },
    {
      name: 'node v1beta1 RuntimeClass',
      input: obj(`${g('node')}/v1beta1`, 'RuntimeClass', 'gvisor', { handler: 'runsc' }),
      expected: obj(`${g('node')}/v1`, 'RuntimeClass', 'gvisor', { handler: 'runsc' }),
      served: true,
    },
    {
      name: 'storage v1beta1 StorageClass',
      input: obj(`${g('storage')}/v1beta1`, 'StorageClass', 'fast', {
        provisioner: 'example.com/disk',
        reclaimPolicy: 'Retain',
      }),
      expected: obj(`${g('storage')}/v1`, 'StorageClass', 'fast', {
        provisioner: 'example.com/disk',
        reclaimPolicy: 'Retain',
      }),
      served: true,
    },
    {
      name: 'storage v1beta1 CSIDriver',
      input: obj(`${g('storage')}/v1beta1`, 'CSIDriver', 'disk.example.com', { spec: { attachRequired: false } }),
      expected: obj(`${g('storage')}/v1`, 'CSIDriver', 'disk.example.com', { spec: { attachRequired: false } }),
      served: true,
    },
    {
      name: 'storage v1beta1 CSIStorageCapacity',
      input: obj(
        `${g('storage')}/v1beta1`,
        'CSIStorageCapacity',
        'cap',
        { storageClassName: 'fast', capacity: '10Gi' },
        ns,
      ),
      expected: obj(
        `${g('storage')}/v1`,
        'CSIStorageCapacity',
        'cap',
        { storageClassName: 'fast', capacity: '10Gi' },
        ns,
      ),
      served: true,
    },
    {
      name: 'storage v1beta1 VolumeAttachment',
      input: obj(`${g('storage')}/v1beta1`, 'VolumeAttachment', 'va', {
        spec: { attacher: 'disk.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } },
      }),
      expected: obj(`${g('storage')}/v1`, 'VolumeAttachment', 'va', {
        spec: { attacher: 'disk.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } },
      }),
      served: true,
    },
    // certificates
    {
      name: 'certificates v1beta1 CertificateSigningRequest: usages made explicit',
      input: obj(`${g('certificates')}/v1beta1`, 'CertificateSigningRequest', 'csr', {
        spec: { request: csrRequest, signerName: 'example.com/signer' },
      }),
      expected: obj(`${g('certificates')}/v1`, 'CertificateSigningRequest', 'csr', {
        spec: {
          request: csrRequest,
          signerName: 'example.com/signer',
          usages: ['digital signature', 'key encipherment'],
        },
      }),
      served: true,
    },
    // admissionregistration
    {
      name: 'admissionregistration v1beta1 ValidatingWebhookConfiguration: v1beta1 defaults explicit',
      input: obj(`${g('admissionregistration')}/v1beta1`, 'ValidatingWebhookConfiguration', 'vwc', {
        webhooks: [
          { name: 'check.example.com', sideEffects: 'None', clientConfig: { url: 'https://hook.example.com/check' } },
        ],
      }),
      expected: obj(`${g('admissionregistration')}/v1`, 'ValidatingWebhookConfiguration', 'vwc', {
        webhooks: [
          {
            name: 'check.example.com',
            sideEffects: 'None',
            clientConfig: { url: 'https://hook.example.com/check' },
            failurePolicy: 'Ignore',
            matchPolicy: 'Exact',
            timeoutSeconds: 30,
            admissionReviewVersions: ['v1beta1'],
          },
        ],
      }),
      served: false,
    },
    {
      name: 'admissionregistration v1beta1 MutatingWebhookConfiguration: explicit values kept',
      input: obj(`${g('admissionregistration')}/v1beta1`, 'MutatingWebhookConfiguration', 'mwc', {
        webhooks: [
          {
            name: 'mutate.example.com',
            sideEffects: 'NoneOnDryRun',
            failurePolicy: 'Fail',
            matchPolicy: 'Equivalent',
            timeoutSeconds: 5,
            admissionReviewVersions: ['v1', 'v1beta1'],
            clientConfig: { service: { namespace: ns, name: 'hook' } },
          },
        ],
      }),
      expected: obj(`${g('admissionregistration')}/v1`, 'MutatingWebhookConfiguration', 'mwc', {
        webhooks: [
          {
            name: 'mutate.example.com',
            sideEffects: 'NoneOnDryRun',
            failurePolicy: 'Fail',
            matchPolicy: 'Equivalent',
            timeoutSeconds: 5,
            admissionReviewVersions: ['v1', 'v1beta1'],
            clientConfig: { service: { namespace: ns, name: 'hook' } },
          },
        ],
      }),
      served: false,
    },
    // apiextensions
    {
      name: 'apiextensions v1beta1 CustomResourceDefinition: CRD-wide fields into versions, conversion webhook moved',
      input: obj(`${g('apiextensions')}/v1beta1`, 'CustomResourceDefinition', 'widgets.example.com', {
        spec: {
          group: 'example.com',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
          version: 'v1',
          validation: schema,
          subresources: { status: {} },
          additionalPrinterColumns: [{ name: 'Size', type: 'integer', JSONPath: '.spec.size' }],
          conversion: {
            strategy: 'Webhook',
            webhookClientConfig: { service: { namespace: ns, name: 'conv', path: '/convert' } },
          },
        },
      }),
      expected: obj(`${g('apiextensions')}/v1`, 'CustomResourceDefinition', 'widgets.example.com', {
        spec: {
          group: 'example.com',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
          conversion: {
            strategy: 'Webhook',
            webhook: {
              clientConfig: { service: { namespace: ns, name: 'conv', path: '/convert' } },
              conversionReviewVersions: ['v1beta1'],
            },
          },
          scope: 'Namespaced',
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema,
              subresources: { status: {} },
              additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
            },
          ],
        },
      }),
      served: true,
    },
    {
      name: 'apiextensions v1beta1 CustomResourceDefinition: per-version fields kept, cluster scope',
      input: obj(`${g('apiextensions')}/v1beta1`, 'CustomResourceDefinition', 'gadgets.example.com', {
        spec: {
          group: 'example.com',
          scope: 'Cluster',
          preserveUnknownFields: false,
          names: { plural: 'gadgets', kind: 'Gadget' },
          versions: [
            { name: 'v2', served: true, storage: true, schema },
            {
              name: 'v1',
              served: true,
              storage: false,
              schema,
              additionalPrinterColumns: [{ name: 'S', type: 'integer', JSONPath: '.spec.size' }],
            },
          ],
        },
      }),
      expected: obj(`${g('apiextensions')}/v1`, 'CustomResourceDefinition', 'gadgets.example.com', {
        spec: {
          group: 'example.com',
          scope: 'Cluster',
          names: { plural: 'gadgets', kind: 'Gadget' },
          versions: [
            { name: 'v2', served: true, storage: true, schema },
            {
              name: 'v1',
              served: true,
              storage: false,
              schema,
              additionalPrinterColumns: [{ name: 'S', type: 'integer', jsonPath: '.spec.size' }],
            },
          ],
        },
      }),
      served: true,
    },
    // flowcontrol
    {
      name: 'flowcontrol v1beta1 PriorityLevelConfiguration: unset assuredConcurrencyShares is an explicit 30',
      input: obj(`${g('flowcontrol.apiserver')}/v1beta1`, 'PriorityLevelConfiguration', 'plc1', {
        spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
      }),
      expected: obj(`${g('flowcontrol.apiserver')}/v1`, 'PriorityLevelConfiguration', 'plc1', {
        spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' }, nominalConcurrencyShares: 30 } },
      }),
      served: true,
    },
    {
      name: 'flowcontrol v1beta2 PriorityLevelConfiguration: assuredConcurrencyShares renamed',
      input: obj(`${g('flowcontrol.apiserver')}/v1beta2`, 'PriorityLevelConfiguration', 'plc2', {
        spec: {
          type: 'Limited',
          limited: { assuredConcurrencyShares: 5, lendablePercent: 10, limitResponse: { type: 'Reject' } },
        },
      }),
      expected: obj(`${g('flowcontrol.apiserver')}/v1`, 'PriorityLevelConfiguration', 'plc2', {
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 5, lendablePercent: 10, limitResponse: { type: 'Reject' } },
        },
      }),
      served: true,
    },
    {
      name: 'flowcontrol v1beta3 PriorityLevelConfiguration: a zero (unset) share count is 30',
      input: obj(`${g('flowcontrol.apiserver')}/v1beta3`, 'PriorityLevelConfiguration', 'plc3', {
        spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } } },
      }),
      expected: obj(`${g('flowcontrol.apiserver')}/v1`, 'PriorityLevelConfiguration', 'plc3', {
        spec: { type: 'Limited', limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Reject' } } },
      }),
      served: true,
    },
    {
      name: 'flowcontrol v1beta3 FlowSchema',
      input: obj(`${g('flowcontrol.apiserver')}/v1beta3`, 'FlowSchema', 'fs', {
        spec: {
          priorityLevelConfiguration: { name: 'global-default' },
          matchingPrecedence: 5000,
          rules: [
            {
              subjects: [{ kind: 'Group', group: { name: 'devs' } }],
              nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
            },
          ],
        },
      }),
      expected: obj(`${g('flowcontrol.apiserver')}/v1`, 'FlowSchema', 'fs', {
        spec: {
          priorityLevelConfiguration: { name: 'global-default' },
          matchingPrecedence: 5000,
          rules: [
            {
              subjects: [{ kind: 'Group', group: { name: 'devs' } }],
              nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
            },
          ],
        },
      }),
      served: true,
    },
    // authorization, authentication, apiregistration
    {
      name: 'authorization v1beta1 SubjectAccessReview: group becomes groups',
      input: obj(`${g('authorization')}/v1beta1`, 'SubjectAccessReview', '', {
        spec: { user: 'alice', group: ['devs'], resourceAttributes: { verb: 'get', resource: 'pods', namespace: ns } },
      }),
      expected: obj(`${g('authorization')}/v1`, 'SubjectAccessReview', '', {
        spec: { user: 'alice', groups: ['devs'], resourceAttributes: { verb: 'get', resource: 'pods', namespace: ns } },
      }),
      served: true,
    },
    {
      name: 'authorization v1beta1 SelfSubjectAccessReview',
      input: obj(`${g('authorization')}/v1beta1`, 'SelfSubjectAccessReview', '', {
        spec: { nonResourceAttributes: { verb: 'get', path: '/api' } },
      }),
      expected: obj(`${g('authorization')}/v1`, 'SelfSubjectAccessReview', '', {
        spec: { nonResourceAttributes: { verb: 'get', path: '/api' } },
      }),
      served: true,
    },
    {
      name: 'authentication v1beta1 TokenReview',
      input: obj(`${g('authentication')}/v1beta1`, 'TokenReview', 'tr', { spec: { token: 'not-a-token' } }),
      expected: obj(`${g('authentication')}/v1`, 'TokenReview', 'tr', { spec: { token: 'not-a-token' } }),
      served: true,
    },
    {
      name: 'apiregistration v1beta1 APIService',
      input: obj(`${g('apiregistration')}/v1beta1`, 'APIService', 'v1.example.com', {
        spec: {
          group: 'example.com',
          version: 'v1',
          groupPriorityMinimum: 100,
          versionPriority: 10,
          service: { namespace: ns, name: 'api' },
        },
      }),
      expected: obj(`${g('apiregistration')}/v1`, 'APIService', 'v1.example.com', {
        spec: {
          group: 'example.com',
          version: 'v1',
          groupPriorityMinimum: 100,
          versionPriority: 10,
          service: { namespace: ns, name: 'api' },
        },
      }),
      served: false,
    },
    // served kinds pass through
    {
      name: 'core v1 ConfigMap without an output version stays v1',
      input: obj('v1', 'ConfigMap', 'cm', { data: { a: 'b' } }, ns),
      expected: obj('v1', 'ConfigMap', 'cm', { data: { a: 'b' } }, ns),
      served: true,
    },
  ];
}
