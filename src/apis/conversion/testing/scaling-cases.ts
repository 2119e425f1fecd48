/** Conversion test cases of batch, policy, autoscaling, discovery and events. */
import { type CaseContext, type ConversionCase, obj } from './case-support.js';

export function scalingCases(c: CaseContext): ConversionCase[] {
  const { g, ns, app, zoneKey, hostKey, pdbKey, hpaMetric, ref } = c;
  return [
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
      served: true,
    },
  ];
}
