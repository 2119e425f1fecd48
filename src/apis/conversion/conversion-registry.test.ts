import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../api-domain.js';
import type { ApiObject } from '../object.js';
import { cloneJson } from '../schema/json-value.js';
import { conversionRegistry } from './conversion-registry.js';
import {
  type ConversionError,
  ConversionRefusedError,
  KindNotRegisteredError,
  NotSuitableForTargetError,
  parseGroupVersion,
} from './conversion-types.js';
import { conversionCases } from './testing/conversion-cases.js';

const registry = conversionRegistry(ORCH_DOMAIN);
const g = (base: string) => ORCH_DOMAIN.group(base);
const target = (t?: string) => (t === undefined ? undefined : parseGroupVersion(t));

describe('manifest conversions', () => {
  for (const c of conversionCases(ORCH_DOMAIN)) {
    it(c.name, () => {
      const before = cloneJson(c.input);
      assert.deepEqual(registry.convert(c.input, target(c.target)), c.expected);
      assert.deepEqual(c.input, before, 'the input is not changed');
    });
    it(`${c.name}: converting the result again changes nothing`, () => {
      assert.deepEqual(registry.convert(c.expected, target(c.target)), c.expected);
    });
  }
});

describe('the k8s.io profile', () => {
  const kube = apiDomain('k8s.io');
  for (const c of conversionCases(kube)) {
    it(c.name, () => {
      assert.deepEqual(conversionRegistry(kube).convert(c.input, target(c.target)), c.expected);
    });
  }
  it('names of the other domain are unknown', () => {
    const ingress = conversionCases(kube)[1].input;
    assert.throws(() => registry.convert(ingress), KindNotRegisteredError);
    assert.throws(
      () => conversionRegistry(kube).convert(conversionCases(ORCH_DOMAIN)[1].input),
      KindNotRegisteredError,
    );
  });
});

/** The spec's "Removals by release" table: every removed version and kind this tool reads. */
const REMOVED: readonly [string, string[]][] = [
  [`${g('flowcontrol.apiserver')}/v1beta3`, ['FlowSchema', 'PriorityLevelConfiguration']],
  [`${g('flowcontrol.apiserver')}/v1beta2`, ['FlowSchema', 'PriorityLevelConfiguration']],
  [`${g('flowcontrol.apiserver')}/v1beta1`, ['FlowSchema', 'PriorityLevelConfiguration']],
  [`${g('storage')}/v1beta1`, ['CSIStorageCapacity', 'CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment']],
  ['autoscaling/v2beta2', ['HorizontalPodAutoscaler']],
  ['autoscaling/v2beta1', ['HorizontalPodAutoscaler']],
  ['batch/v1beta1', ['CronJob']],
  [`${g('discovery')}/v1beta1`, ['EndpointSlice']],
  [`${g('events')}/v1beta1`, ['Event']],
  ['policy/v1beta1', ['PodDisruptionBudget']],
  [`${g('node')}/v1beta1`, ['RuntimeClass']],
  [`${g('admissionregistration')}/v1beta1`, ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']],
  [`${g('apiextensions')}/v1beta1`, ['CustomResourceDefinition']],
  [`${g('apiregistration')}/v1beta1`, ['APIService']],
  [`${g('authentication')}/v1beta1`, ['TokenReview']],
  [
    `${g('authorization')}/v1beta1`,
    ['SubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SelfSubjectRulesReview'],
  ],
  [`${g('certificates')}/v1beta1`, ['CertificateSigningRequest']],
  [`${g('coordination')}/v1beta1`, ['Lease']],
  ['extensions/v1beta1', ['Ingress', 'NetworkPolicy', 'DaemonSet', 'Deployment', 'ReplicaSet']],
  [`${g('networking')}/v1beta1`, ['Ingress', 'IngressClass']],
  [`${g('rbac.authorization')}/v1beta1`, ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']],
  [`${g('scheduling')}/v1beta1`, ['PriorityClass']],
  ['apps/v1beta1', ['Deployment', 'StatefulSet']],
  ['apps/v1beta2', ['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet']],
];

describe('removed versions', () => {
  for (const [apiVersion, kinds] of REMOVED) {
    for (const kind of kinds) {
      it(`${apiVersion} ${kind} converts to a served version`, () => {
        assert.ok(registry.knows(apiVersion, kind));
        const spec = kind === 'CertificateSigningRequest' ? { signerName: 'example.com/signer' } : {};
        const out = registry.convert({ apiVersion, kind, metadata: { name: 'x' }, spec });
        assert.notEqual(out.apiVersion, apiVersion);
        assert.equal(out.kind, kind);
        assert.ok(registry.knows(out.apiVersion, kind));
      });
    }
  }
  it('are never a target', () => {
    assert.throws(
      () => registry.convert(conversionCases(ORCH_DOMAIN)[4].expected, parseGroupVersion('extensions/v1beta1')),
      {
        message:
          'apps.Deployment is not suitable for converting to "extensions/v1beta1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
      },
    );
  });
});

describe('errors', () => {
  const csr = (spec: Record<string, unknown>): ApiObject => ({
    apiVersion: `${g('certificates')}/v1beta1`,
    kind: 'CertificateSigningRequest',
    metadata: { name: 'csr' },
    spec: { request: 'cmVxdWVzdA==', ...spec },
  });
  const table: {
    name: string;
    input: ApiObject;
    target?: string;
    error: new (...args: never[]) => ConversionError;
    message: string;
  }[] = [
    {
      name: 'an unknown kind',
      input: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } },
      error: KindNotRegisteredError,
      message:
        'no kind "Widget" is registered for version "example.com/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    },
    {
      name: 'a known kind in a version it never had',
      input: { apiVersion: 'apps/v1beta1', kind: 'DaemonSet', metadata: { name: 'd' } },
      error: KindNotRegisteredError,
      message:
        'no kind "DaemonSet" is registered for version "apps/v1beta1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    },
    {
      name: 'PodSecurityPolicy, removed without replacement',
      input: { apiVersion: 'policy/v1beta1', kind: 'PodSecurityPolicy', metadata: { name: 'p' } },
      error: KindNotRegisteredError,
      message:
        'no kind "PodSecurityPolicy" is registered for version "policy/v1beta1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    },
    {
      name: 'a target the kind does not have',
      input: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } },
      target: `${g('networking')}/v1`,
      error: NotSuitableForTargetError,
      message: `core.Service is not suitable for converting to "${g('networking')}/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"`,
    },
    {
      name: 'a CSR without a signer (the legacy-unknown default)',
      input: csr({}),
      error: ConversionRefusedError,
      message: `CertificateSigningRequest "csr" cannot be converted: spec.signerName: Invalid value: "orch.io/legacy-unknown": the legacy signerName is not allowed via this API version`,
    },
    {
      name: 'a CSR for the legacy-unknown signer',
      input: csr({ signerName: 'orch.io/legacy-unknown' }),
      error: ConversionRefusedError,
      message: `CertificateSigningRequest "csr" cannot be converted: spec.signerName: Invalid value: "orch.io/legacy-unknown": the legacy signerName is not allowed via this API version`,
    },
    {
      name: 'a CRD preserving unknown fields',
      input: {
        apiVersion: `${g('apiextensions')}/v1beta1`,
        kind: 'CustomResourceDefinition',
        metadata: { name: 'a.example.com' },
        spec: { preserveUnknownFields: true, version: 'v1' },
      },
      error: ConversionRefusedError,
      message:
        'CustomResourceDefinition "a.example.com" cannot be converted: spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    },
    {
      name: 'webhooks with unknown (defaulted) or some side effects',
      input: {
        apiVersion: `${g('admissionregistration')}/v1beta1`,
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'v' },
        webhooks: [{ name: 'a.example.com' }, { name: 'b.example.com', sideEffects: 'Some' }],
      },
      error: ConversionRefusedError,
      message:
        'ValidatingWebhookConfiguration "v" cannot be converted: [webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun", webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"]',
    },
  ];
  for (const c of table) {
    it(c.name, () => {
      assert.throws(
        () => registry.convert(c.input, target(c.target)),
        (e: unknown) => {
          assert.ok(e instanceof c.error, String(e));
          assert.equal((e as Error).message, c.message);
          return true;
        },
      );
    });
  }
  it('an output version with two slashes', () => {
    assert.throws(() => parseGroupVersion('a/b/c'), { message: 'unexpected GroupVersion string: a/b/c' });
  });
});

describe('round trips between served versions (autoscaling v1 and v2)', () => {
  const v2: ApiObject[] = [
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'a', namespace: 'default', annotations: { keep: 'me' } },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 10,
        metrics: [
          // v1 holds the CPU target in its own field, which comes back after the other metrics.
          { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
        ],
        behavior: {
          scaleUp: {
            stabilizationWindowSeconds: 0,
            selectPolicy: 'Max',
            policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }],
          },
          scaleDown: {
            stabilizationWindowSeconds: 300,
            selectPolicy: 'Max',
            policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
          },
        },
      },
      status: {
        currentReplicas: 2,
        desiredReplicas: 3,
        currentMetrics: [
          { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '200m', averageUtilization: 70 } } },
        ],
        conditions: [
          {
            type: 'AbleToScale',
            status: 'True',
            lastTransitionTime: '2024-01-01T00:00:00Z',
            reason: 'ReadyForNewScale',
            message: 'ok',
          },
        ],
      },
    },
  ];
  const v1 = parseGroupVersion('autoscaling/v1');
  const hub = parseGroupVersion('autoscaling/v2');
  for (const o of v2) {
    it(`v2 → v1 → v2 keeps ${o.metadata.name}`, () => {
      const down = registry.convert(o, v1);
      assert.equal(down.apiVersion, 'autoscaling/v1');
      assert.deepEqual(registry.convert(down, hub), o);
    });
  }
  it('v1 → v2 → v1 keeps a v1 object', () => {
    const o: ApiObject = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'b', namespace: 'default' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        minReplicas: 2,
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 40,
      },
      status: { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 30 },
    };
    const back = registry.convert(registry.convert(o, hub), v1);
    // As kube's, the way back records v2's current metrics (here the CPU one) in an annotation.
    const { annotations, ...meta } = back.metadata;
    assert.deepEqual({ ...back, metadata: meta }, o);
    assert.deepEqual(Object.keys(annotations ?? {}), [ORCH_DOMAIN.key('autoscaling.alpha', 'current-metrics')]);
  });
  it('v1 → v2 → v1 keeps a v1 object without status exactly', () => {
    const o: ApiObject = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'c', namespace: 'default' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 60 },
    };
    assert.deepEqual(registry.convert(registry.convert(o, hub), v1), o);
  });
});
