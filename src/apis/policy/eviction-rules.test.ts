import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../core/pod-types.js';
import { formatFieldError } from '../meta/field-error.js';
import { StatusError } from '../meta/status.js';
import { budgetsCovering, canIgnoreBudgets, checkAndDecrement, isPodReady } from './eviction-rules.js';
import {
  type PodDisruptionBudget,
  resetBudgetStatus,
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetStatus,
} from './pdb-rules.js';

const now = '2025-01-01T00:00:00Z';

function pdb(
  status: PodDisruptionBudget['status'],
  generation = 1,
  selector: object = { matchLabels: { app: 'web' } },
): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'budget', namespace: 'ns', generation },
    spec: { minAvailable: 1, selector },
    status,
  };
}

function pod(
  phase: string,
  labels: Record<string, string> = { app: 'web' },
  extra: Partial<Pod['metadata']> = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', labels, ...extra },
    status: { phase },
  };
}

function statusOf(f: () => unknown): { code: number; reason: string; message: string; details: unknown } {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof StatusError);
    return { code: e.code, reason: e.reason, message: e.message, details: e.details };
  }
  assert.fail('expected a StatusError');
}

describe('eviction arithmetic', () => {
  it('pending, terminal and deleting pods skip budgets', () => {
    assert.equal(canIgnoreBudgets(pod('Pending')), true);
    assert.equal(canIgnoreBudgets(pod('Succeeded')), true);
    assert.equal(canIgnoreBudgets(pod('Running', {}, { deletionTimestamp: now })), true);
    assert.equal(canIgnoreBudgets(pod('Running')), false);
  });

  it('finds the budgets whose selector matches, never empty or foreign ones', () => {
    const matching = pdb({});
    const empty = pdb({}, 1, {});
    const other = { ...pdb({}), metadata: { name: 'x', namespace: 'other' } };
    const invalid = pdb({}, 1, { matchExpressions: [{ key: 'app', operator: 'Bogus' }] });
    assert.deepEqual(budgetsCovering(pod('Running'), [matching, empty, other, invalid]), [matching]);
    assert.deepEqual(budgetsCovering(pod('Running', { app: 'db' }), [matching]), []);
  });

  it('refuses with 429 and the DisruptionBudget cause when no disruption is allowed', () => {
    const s = statusOf(() =>
      checkAndDecrement(
        pdb({ observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 }),
        'p',
        { now, dryRun: false },
      ),
    );
    assert.deepEqual(s, {
      code: 429,
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget budget needs 1 healthy pods and has 1 currently',
          },
        ],
      },
    });
  });

  it('asks to retry in 10s while the budget is not observed at its generation', () => {
    const s = statusOf(() =>
      checkAndDecrement(pdb({ observedGeneration: 1, disruptionsAllowed: 5 }, 2), 'p', { now, dryRun: false }),
    );
    assert.equal(s.code, 429);
    assert.deepEqual(s.details, {
      causes: [
        { reason: 'DisruptionBudget', message: 'The disruption budget budget is still being processed by the server.' },
      ],
      retryAfterSeconds: 10,
    });
  });

  it('forbids negative budgets', () => {
    const s = statusOf(() =>
      checkAndDecrement(pdb({ observedGeneration: 1, disruptionsAllowed: -1 }), 'p', { now, dryRun: false }),
    );
    assert.equal(s.code, 403);
    assert.equal(s.message, 'poddisruptionbudget.policy "budget" is forbidden: pdb disruptions allowed is negative');
  });

  it('decrements, records the pod and flips the condition at zero', () => {
    const next = checkAndDecrement(
      pdb({ observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1 }),
      'p',
      { now, dryRun: false },
    );
    assert.equal(next.status?.disruptionsAllowed, 0);
    assert.deepEqual(next.status?.disruptedPods, { p: now });
    assert.deepEqual(next.status?.conditions, [
      {
        type: 'DisruptionAllowed',
        status: 'False',
        observedGeneration: 1,
        lastTransitionTime: now,
        reason: 'InsufficientPods',
        message: '',
      },
    ]);
    const dry = checkAndDecrement(pdb({ observedGeneration: 1, disruptionsAllowed: 3 }), 'p', { now, dryRun: true });
    assert.equal(dry.status?.disruptionsAllowed, 2);
    assert.equal(dry.status?.disruptedPods, undefined);
    assert.equal(dry.status?.conditions, undefined);
  });

  it('reads readiness from the Ready condition', () => {
    const p = pod('Running');
    assert.equal(isPodReady(p), false);
    p.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    assert.equal(isPodReady(p), true);
  });
});

describe('PodDisruptionBudget rules', () => {
  it('starts with zero counters', () => {
    const b = pdb({ disruptionsAllowed: 3 });
    resetBudgetStatus(b);
    assert.deepEqual(b.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  });
  it('validates the spec', () => {
    const b: PodDisruptionBudget = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'b' },
      spec: {
        minAvailable: '150%',
        maxUnavailable: -1,
        unhealthyPodEvictionPolicy: 'Never',
        selector: { matchLabels: { 'a b': 'c' } },
      },
    };
    assert.deepEqual(validatePodDisruptionBudget(b).map(formatFieldError), [
      'spec: Invalid value: {"minAvailable":"150%","maxUnavailable":-1,"unhealthyPodEvictionPolicy":"Never","selector":{"matchLabels":{"a b":"c"}}}: minAvailable and maxUnavailable cannot be both set',
      'spec.minAvailable: Invalid value: "150%": must not be greater than 100%',
      'spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
      "spec.selector.matchLabels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
    ]);
    assert.deepEqual(validatePodDisruptionBudget({ ...b, spec: { maxUnavailable: '5x' } }).map(formatFieldError), [
      "spec.maxUnavailable: Invalid value: \"5x\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ]);
  });
  it('validates status updates', () => {
    assert.deepEqual(
      validatePodDisruptionBudgetStatus({
        disruptionsAllowed: -1,
        conditions: [{ type: 'DisruptionAllowed', status: 'Maybe' }],
      }).map(formatFieldError),
      [
        'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
        'status.conditions[0].lastTransitionTime: Required value: must be set',
        'status.conditions[0].reason: Required value: must be set',
        'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
      ],
    );
  });
});
