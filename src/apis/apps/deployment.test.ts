import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import {
  type Deployment,
  defaultDeployment,
  deploymentGenerationChanged,
  validateDeploymentSpec,
  validateDeploymentStatusUpdate,
  validateDeploymentUpdate,
} from './deployment.js';
import { BASIC_POD_TEMPLATE_RULES as POD } from './pod-template-rules.js';

function deployment(spec: Record<string, unknown>, meta: Record<string, unknown> = {}): Deployment {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', ...meta }, spec };
}

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const valid = () => {
  const d = deployment({ selector: { matchLabels: { app: 'web' } }, template: structuredClone(template) });
  defaultDeployment(d, POD);
  return d;
};
const messages = (errs: readonly { field: string; message: string; type: string }[]) =>
  errs.map((e) => formatFieldError(e as Parameters<typeof formatFieldError>[0]));

describe('Deployment defaults', () => {
  it('fill replicas, the rolling update strategy, history, progress deadline and the restart policy', () => {
    const d = deployment({ template: { spec: {} } });
    defaultDeployment(d, POD);
    assert.deepEqual(d.spec, {
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: { spec: { restartPolicy: 'Always' } },
    });
  });

  it('keep what is set, and give Recreate no rolling update', () => {
    const d = deployment({ replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 0 });
    defaultDeployment(d, POD);
    assert.equal(d.spec?.replicas, 0);
    assert.deepEqual(d.spec?.strategy, { type: 'Recreate' });
    assert.equal(d.spec?.revisionHistoryLimit, 0);
  });
});

describe('Deployment validation', () => {
  const cases: { name: string; change: (d: Deployment) => void; want: string[] }[] = [
    { name: 'a valid deployment', change: () => {}, want: [] },
    {
      name: 'a missing selector, also reported as not matching the template',
      change: (d) => delete d.spec?.selector,
      want: [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    },
    {
      name: 'a selector that does not match the template labels',
      change: (d) => ((d.spec as { selector: unknown }).selector = { matchLabels: { app: 'api' } }),
      want: [
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    },
    {
      name: 'an empty selector',
      change: (d) => ((d.spec as { selector: unknown }).selector = {}),
      want: [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    },
    {
      name: 'negative replicas and a restart policy other than Always',
      change: (d) => {
        (d.spec as Record<string, unknown>).replicas = -1;
        (d.spec as { template: { spec: Record<string, unknown> } }).template.spec.restartPolicy = 'Never';
      },
      want: [
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      ],
    },
    {
      name: 'both surge and unavailable zero, and more than 100% unavailable',
      change: (d) => {
        (d.spec as Record<string, unknown>).strategy = {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' },
        };
      },
      want: [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
      ],
    },
    {
      name: 'an invalid percent over 100%',
      change: (d) => {
        (d.spec as Record<string, unknown>).strategy = {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: '150%', maxSurge: 'x' },
        };
      },
      want: [
        "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"x\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
      ],
    },
    {
      name: 'a rolling update with Recreate and a deadline not above minReadySeconds',
      change: (d) => {
        const spec = d.spec as Record<string, unknown>;
        spec.strategy = { type: 'Recreate', rollingUpdate: {} };
        spec.minReadySeconds = 600;
      },
      want: [
        "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
        'spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds',
      ],
    },
    {
      name: 'an unknown strategy',
      change: (d) => ((d.spec as Record<string, unknown>).strategy = { type: 'Blue' }),
      want: [
        'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Blue", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = valid();
      c.change(d);
      assert.deepEqual(messages(validateDeploymentSpec(d, POD)), c.want);
    });
  }

  it('refuses a changed selector on update', () => {
    const old = valid();
    const d = valid();
    (d.spec as Record<string, unknown>).selector = { matchLabels: { app: 'web', tier: 'x' } };
    (d.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels.tier = 'x';
    assert.deepEqual(messages(validateDeploymentUpdate(d, old, POD)), [
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
  });

  it('checks status counts against replicas and the collision count against the old one', () => {
    const old = valid();
    old.status = { collisionCount: 2 };
    const d = valid();
    d.status = { replicas: 1, readyReplicas: 2, availableReplicas: 3, collisionCount: 1, updatedReplicas: -1 };
    assert.deepEqual(messages(validateDeploymentStatusUpdate(d, old)), [
      'status.updatedReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas',
      'status.collisionCount: Invalid value: 1: cannot be decremented',
    ]);
  });

  it('counts annotation changes in the generation', () => {
    const old = valid();
    const d = valid();
    assert.equal(deploymentGenerationChanged(d, old), false);
    d.metadata.annotations = { note: 'x' };
    assert.equal(deploymentGenerationChanged(d, old), true);
  });
});
