/**
 * One case per workload kind for the end-to-end tests: where it is served, a valid manifest,
 * the defaults kube v1.32 fills in, and a change for update, patch and apply.
 */

const containers = [{ name: 'app', image: 'registry.example/app:1.0' }];
const podTemplate = (labels: Record<string, string>, restartPolicy?: string) => ({
  metadata: { labels },
  spec: { ...(restartPolicy ? { restartPolicy } : {}), containers },
});

export interface WorkloadCase {
  readonly kind: string;
  readonly apiVersion: string;
  /** Collection path in namespace `ns`. */
  path(ns: string): string;
  /** A valid manifest named `name`. */
  manifest(name: string): Record<string, unknown>;
  /** Fields the server must have defaulted (a subset check at these dotted paths). */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** A field (dotted path under the object) and a new value, changed by update, patch and apply. */
  readonly change: { readonly path: string; readonly values: readonly [unknown, unknown, unknown] };
}

const apps = (resource: string) => (ns: string) => `/apis/apps/v1/namespaces/${ns}/${resource}`;
const selected =
  (kind: string, extra: Record<string, unknown> = {}) =>
  (name: string) => ({
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, labels: { app: name } },
    spec: { selector: { matchLabels: { app: name } }, template: podTemplate({ app: name }), ...extra },
  });

export const WORKLOADS: readonly WorkloadCase[] = [
  {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    path: apps('deployments'),
    manifest: selected('Deployment'),
    defaults: {
      'spec.replicas': 1,
      'spec.strategy': { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      'spec.revisionHistoryLimit': 10,
      'spec.progressDeadlineSeconds': 600,
      'spec.template.spec.restartPolicy': 'Always',
      'metadata.generation': 1,
    },
    change: { path: 'spec.replicas', values: [2, 3, 4] },
  },
  {
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    path: apps('replicasets'),
    manifest: selected('ReplicaSet'),
    defaults: { 'spec.replicas': 1, 'status.replicas': 0 },
    change: { path: 'spec.replicas', values: [2, 3, 4] },
  },
  {
    kind: 'StatefulSet',
    apiVersion: 'apps/v1',
    path: apps('statefulsets'),
    manifest: selected('StatefulSet', { serviceName: 'db' }),
    defaults: {
      'spec.podManagementPolicy': 'OrderedReady',
      'spec.updateStrategy': { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      'spec.persistentVolumeClaimRetentionPolicy': { whenDeleted: 'Retain', whenScaled: 'Retain' },
      'spec.replicas': 1,
      'spec.revisionHistoryLimit': 10,
    },
    change: { path: 'spec.replicas', values: [2, 3, 4] },
  },
  {
    kind: 'DaemonSet',
    apiVersion: 'apps/v1',
    path: apps('daemonsets'),
    manifest: selected('DaemonSet'),
    defaults: {
      'spec.updateStrategy': { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      'spec.revisionHistoryLimit': 10,
      'metadata.annotations': { 'deprecated.daemonset.template.generation': '1' },
    },
    change: { path: 'spec.minReadySeconds', values: [5, 6, 7] },
  },
  {
    kind: 'ControllerRevision',
    apiVersion: 'apps/v1',
    path: apps('controllerrevisions'),
    manifest: (name) => ({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name },
      data: { spec: 'v1' },
      revision: 1,
    }),
    defaults: { revision: 1 },
    change: { path: 'metadata.labels', values: [{ a: '1' }, { a: '2' }, { a: '3' }] },
  },
  {
    kind: 'ReplicationController',
    apiVersion: 'v1',
    path: (ns) => `/api/v1/namespaces/${ns}/replicationcontrollers`,
    manifest: (name) => ({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name },
      spec: { template: podTemplate({ app: name }) },
    }),
    defaults: { 'spec.replicas': 1, 'status.replicas': 0 },
    change: { path: 'spec.replicas', values: [2, 3, 4] },
  },
  {
    kind: 'Job',
    apiVersion: 'batch/v1',
    path: (ns) => `/apis/batch/v1/namespaces/${ns}/jobs`,
    manifest: (name) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: { template: podTemplate({ app: name }, 'Never') },
    }),
    defaults: {
      'spec.completions': 1,
      'spec.parallelism': 1,
      'spec.backoffLimit': 6,
      'spec.completionMode': 'NonIndexed',
      'spec.suspend': false,
      'spec.manualSelector': false,
      'spec.podReplacementPolicy': 'TerminatingOrFailed',
    },
    change: { path: 'spec.activeDeadlineSeconds', values: [100, 200, 300] },
  },
  {
    kind: 'CronJob',
    apiVersion: 'batch/v1',
    path: (ns) => `/apis/batch/v1/namespaces/${ns}/cronjobs`,
    manifest: (name) => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name },
      spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate({ app: name }, 'OnFailure') } } },
    }),
    defaults: {
      'spec.concurrencyPolicy': 'Allow',
      'spec.suspend': false,
      'spec.successfulJobsHistoryLimit': 3,
      'spec.failedJobsHistoryLimit': 1,
    },
    change: { path: 'spec.schedule', values: ['@hourly', '@daily', '0 1 * * *'] },
  },
  {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v2',
    path: (ns) => `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`,
    manifest: (name) => ({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, maxReplicas: 5 },
    }),
    defaults: {
      'spec.minReplicas': 1,
      'spec.metrics': [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
      ],
    },
    change: { path: 'spec.maxReplicas', values: [6, 7, 8] },
  },
  {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v1',
    path: (ns) => `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`,
    manifest: (name) => ({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 60,
      },
    }),
    defaults: { 'spec.minReplicas': 1, 'status.currentReplicas': 0, 'status.desiredReplicas': 0 },
    change: { path: 'spec.targetCPUUtilizationPercentage', values: [61, 62, 63] },
  },
];

/** The value at a dotted path. */
export function at(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const p of path.split('.'))
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
  return cur;
}

/** A copy of `obj` with the value at a dotted path set. */
export function withValue<T>(obj: T, path: string, value: unknown): T {
  const copy = structuredClone(obj) as Record<string, unknown>;
  const parts = path.split('.');
  let cur = copy;
  for (const p of parts.slice(0, -1)) {
    if (!cur[p] || typeof cur[p] !== 'object') cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
  return copy as T;
}

/** A merge patch setting the value at a dotted path. */
export function patchOf(path: string, value: unknown): Record<string, unknown> {
  return withValue({}, path, value);
}
