import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { formatFieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { formatHpaMetrics, hpaTableColumns } from './autoscaling-columns.js';
import { hpaAnnotations, hpaV1ToV2, hpaV2ToV1 } from './hpa-conversion.js';
import {
  defaultHpaV1,
  defaultHpaV2,
  minReplicasLowerBound,
  quantitySign,
  validateHpaSpec,
  validateHpaStatus,
} from './hpa-rules.js';

const KEYS = hpaAnnotations(ORCH_DOMAIN);

function v2(
  spec: Record<string, unknown>,
  status?: Record<string, unknown>,
  annotations?: Record<string, string>,
): ApiObject {
  const o: ApiObject = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, maxReplicas: 5, ...spec },
  };
  if (status) o.status = status;
  return o;
}

const full = () =>
  v2(
    {
      minReplicas: 2,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
        { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
        {
          type: 'Pods',
          pods: {
            metric: { name: 'qps', selector: { matchLabels: { a: 'b' } } },
            target: { type: 'AverageValue', averageValue: '10' },
          },
        },
      ],
      behavior: {
        scaleUp: {
          stabilizationWindowSeconds: 0,
          selectPolicy: 'Max',
          policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }],
        },
        scaleDown: { selectPolicy: 'Min', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] },
      },
    },
    {
      currentReplicas: 3,
      desiredReplicas: 4,
      currentMetrics: [
        { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '250m', averageUtilization: 55 } } },
        { type: 'Pods', pods: { metric: { name: 'qps' }, current: { averageValue: '7' } } },
      ],
      conditions: [
        { type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'ReadyForNewScale' },
      ],
    },
    { keep: 'me' },
  );

describe('HorizontalPodAutoscaler conversion', () => {
  it('shows v2 as v1: the CPU target in its field, the rest in annotations', () => {
    const v1 = hpaV2ToV1(full(), KEYS);
    assert.equal(v1.apiVersion, 'autoscaling/v1');
    assert.deepEqual(v1.spec, {
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 2,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 60,
    });
    assert.deepEqual(v1.status, { currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 55 });
    const a = v1.metadata.annotations ?? {};
    assert.equal(a.keep, 'me');
    assert.equal(
      a['autoscaling.alpha.orch.io/metrics'],
      '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"500Mi"}},{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10","selector":{"matchLabels":{"a":"b"}}}}]',
    );
    assert.equal(
      a['autoscaling.alpha.orch.io/current-metrics'],
      '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":55,"currentAverageValue":"250m"}},{"type":"Pods","pods":{"metricName":"qps","currentAverageValue":"7"}}]',
    );
    assert.equal(
      a['autoscaling.alpha.orch.io/conditions'],
      '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z","reason":"ReadyForNewScale"}]',
    );
    assert.equal(
      a['autoscaling.alpha.orch.io/behavior'],
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}]},"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Min","Policies":[{"Type":"Percent","Value":10,"PeriodSeconds":60}]}}',
    );
  });

  it('loses nothing on the way back to v2, and a v1 round trip is stable', () => {
    const original = full();
    const back = hpaV1ToV2(hpaV2ToV1(original, KEYS), KEYS);
    const m = (o: ApiObject) => (o.spec as { metrics: unknown[] }).metrics;
    // kube puts the annotated metrics first and the CPU target last.
    assert.deepEqual(m(back), [m(original)[1], m(original)[2], m(original)[0]]);
    assert.deepEqual((back.spec as { behavior: unknown }).behavior, (original.spec as { behavior: unknown }).behavior);
    assert.deepEqual(back.status, original.status);
    assert.deepEqual(back.metadata, original.metadata);
    const v1 = hpaV2ToV1(back, KEYS);
    assert.deepEqual(hpaV2ToV1(hpaV1ToV2(v1, KEYS), KEYS), v1);
  });

  it('reads a v1 object without metrics as the implicit 80% CPU target, and ignores malformed annotations', () => {
    const v1: ApiObject = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'x', annotations: { [KEYS.metrics]: 'not json', [KEYS.behavior]: '{}' } },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 3 },
    };
    const converted = hpaV1ToV2(v1, KEYS);
    assert.deepEqual(converted.spec, {
      scaleTargetRef: { kind: 'Deployment', name: 'x' },
      maxReplicas: 3,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
      ],
    });
    assert.equal(converted.metadata.annotations, undefined);
  });

  it('uses the kube names of the annotations under the k8s.io profile', () => {
    assert.equal(hpaAnnotations(apiDomain('k8s.io')).behavior, 'autoscaling.alpha.kubernetes.io/behavior');
  });
});

describe('HorizontalPodAutoscaler rules', () => {
  it('default v1 and v2, filling the behavior rules that are not set', () => {
    const a = v2({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } });
    defaultHpaV2(a);
    assert.deepEqual(a.spec, {
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      maxReplicas: 5,
      minReplicas: 1,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
      ],
      behavior: {
        scaleUp: {
          stabilizationWindowSeconds: 0,
          selectPolicy: 'Max',
          policies: [
            { type: 'Pods', value: 4, periodSeconds: 15 },
            { type: 'Percent', value: 100, periodSeconds: 15 },
          ],
        },
        scaleDown: {
          selectPolicy: 'Max',
          policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
          stabilizationWindowSeconds: 60,
        },
      },
    });
    const b: ApiObject = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: {}, spec: {} };
    defaultHpaV1(b);
    assert.deepEqual(b.spec, { minReplicas: 1 });
  });

  it('report v2 paths, also for a v1 CPU target', () => {
    const v1: ApiObject = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'x' },
      spec: {
        scaleTargetRef: { kind: '', name: 'a/b' },
        minReplicas: 0,
        maxReplicas: 0,
        targetCPUUtilizationPercentage: 0,
      },
    };
    assert.deepEqual(validateHpaSpec(hpaV1ToV2(v1, KEYS)).map(formatFieldError), [
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.scaleTargetRef.kind: Required value',
      'spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\'',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
    assert.equal(minReplicasLowerBound(hpaV1ToV2(v1, KEYS)), 0);
  });

  it('check metric sources, targets and behavior policies', () => {
    const h = v2({
      metrics: [
        { type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 5 } } },
        {
          type: 'External',
          external: { metric: { name: 'q' }, target: { type: 'Value', value: '-1', averageValue: '2' } },
        },
        { type: 'Weird' },
      ],
      behavior: {
        scaleUp: { selectPolicy: 'Most', policies: [] },
        scaleDown: { policies: [{ type: 'Pods', value: 0, periodSeconds: 3600 }] },
      },
    });
    assert.deepEqual(validateHpaSpec(h).map(formatFieldError), [
      'spec.metrics[0].pods: Required value: must populate information for the given metric source',
      'spec.metrics[1].external.target.value: Invalid value: -1: must be positive',
      'spec.metrics[1].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target',
      'spec.metrics[2].type: Unsupported value: "Weird": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Most": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy',
      'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 3600: must be less than or equal to 1800',
    ]);
    assert.deepEqual(validateHpaStatus(v2({}, { currentReplicas: -1 })).map(formatFieldError), [
      'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
    assert.deepEqual(
      [quantitySign('0.5'), quantitySign('-2Mi'), quantitySign('0'), quantitySign(undefined)],
      [1, -1, 0, 0],
    );
  });
});

describe('HorizontalPodAutoscaler columns', () => {
  it('show reference, targets, bounds and replicas, from v1 through v2', () => {
    const v1 = hpaV2ToV1(full(), KEYS);
    v1.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
    const cols = hpaTableColumns((o) => (o.apiVersion === 'autoscaling/v1' ? hpaV1ToV2(o, KEYS) : o));
    assert.deepEqual(
      cols.columnDefinitions.map((c) => c.name),
      ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    );
    assert.deepEqual(cols.cells(v1, new Date('2024-01-01T00:00:30Z')), [
      'web',
      'Deployment/web',
      // kube pairs specs and statuses by index.
      'memory: 250m/500Mi, 7/10 + 1 more...',
      '2',
      5,
      3,
      '30s',
    ]);
    assert.equal(formatHpaMetrics([], []), '<none>');
    assert.equal(
      formatHpaMetrics(
        [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
        [],
      ),
      'cpu: <unknown>/50%',
    );
  });
});
