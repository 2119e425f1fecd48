/**
 * The pure part of kube's `pods/eviction` (pkg/registry/core/pod/storage/eviction.go, v1.32):
 * which pods skip disruption budgets, which budgets cover a pod, and the check-and-decrement of
 * a budget with kube's errors.
 */
import type { Pod } from '../core/pod-types.js';
import { apiErrors, StatusError } from '../meta/status.js';
import { cloneJson } from '../schema/json-value.js';
import { matchesLabels } from '../selectors/label-selector.js';
import { labelSelectorFromObject } from '../selectors/label-selector-object.js';
import type { PodDisruptionBudget, PodDisruptionBudgetCondition } from './pdb-rules.js';

/** kube's `MaxDisruptedPodSize`: evictions approved but not yet seen by the budget's controller. */
export const MAX_DISRUPTED_POD_SIZE = 2000;

/** The cause type kube attaches to refusals (`policyv1.DisruptionBudgetCause`). */
export const DISRUPTION_BUDGET_CAUSE = 'DisruptionBudget';

/** Terminal, pending or already deleting pods are deleted without consulting any budget. */
export function canIgnoreBudgets(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp;
}

/** Whether the pod delete must be conditional on the pod read (not terminal, not deleting). */
export function shouldEnforceResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata.deletionTimestamp);
}

/** kube's `IsPodReady`: a `Ready` condition that is `True`. */
export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * The budgets of the pod's namespace whose selector matches its labels. A budget with an
 * invalid, missing or empty selector covers nothing.
 */
export function budgetsCovering(pod: Pod, budgets: readonly PodDisruptionBudget[]): PodDisruptionBudget[] {
  const labels = pod.metadata.labels ?? {};
  return budgets.filter((pdb) => {
    if (pdb.metadata.namespace !== pod.metadata.namespace) return false;
    const sel = pdb.spec?.selector;
    if (!sel) return false;
    if (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0) return false;
    try {
      return matchesLabels(labelSelectorFromObject(sel), labels);
    } catch {
      return false;
    }
  });
}

/** kube's `createTooManyRequestsError`: the budget has not been processed yet (retry in 10 s). */
export function budgetNotProcessedError(pdbName: string): StatusError {
  return new StatusError(
    429,
    'TooManyRequests',
    "Cannot evict pod as it would violate the pod's disruption budget.",
    {
      causes: [
        {
          reason: DISRUPTION_BUDGET_CAUSE,
          message: `The disruption budget ${pdbName} is still being processed by the server.`,
        },
      ],
      retryAfterSeconds: 10,
    },
    { headers: { 'retry-after': '10' } },
  );
}

/** kube's refusal when the budget allows no disruption now. */
export function budgetExhaustedError(pdb: PodDisruptionBudget): StatusError {
  const s = pdb.status ?? {};
  return new StatusError(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
    causes: [
      {
        reason: DISRUPTION_BUDGET_CAUSE,
        message: `The disruption budget ${pdb.metadata.name} needs ${s.desiredHealthy ?? 0} healthy pods and has ${s.currentHealthy ?? 0} currently`,
      },
    ],
  });
}

/** kube's 500 answer (as a Status body) for a pod covered by more than one budget. */
export const MULTIPLE_BUDGETS_MESSAGE =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

/**
 * kube's `UpdateDisruptionAllowedCondition`: `DisruptionAllowed` True (`SufficientPods`) or False
 * (`InsufficientPods`); the transition time changes only with the status.
 */
export function setDisruptionAllowedCondition(pdb: PodDisruptionBudget, now: string): void {
  pdb.status ??= {};
  const status = pdb.status;
  const allowed = (status.disruptionsAllowed ?? 0) > 0;
  const next: PodDisruptionBudgetCondition = {
    type: 'DisruptionAllowed',
    status: allowed ? 'True' : 'False',
    observedGeneration: status.observedGeneration ?? 0,
    lastTransitionTime: now,
    reason: allowed ? 'SufficientPods' : 'InsufficientPods',
    message: '',
  };
  status.conditions ??= [];
  const conditions = status.conditions;
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i === -1) {
    conditions.push(next);
    return;
  }
  const old = conditions[i];
  if (old.status === next.status && old.lastTransitionTime) next.lastTransitionTime = old.lastTransitionTime;
  conditions[i] = next;
}

/**
 * kube's `checkAndDecrement`: the budget must be observed at its generation (else 429, retry in
 * 10 s), not negative or flooded with unconfirmed evictions (403), and allow a disruption (else
 * 429 naming the healthy counts). Returns the budget to write: one disruption fewer (its
 * condition updated when none are left) and, unless `dryRun`, the pod recorded in
 * `status.disruptedPods` at `now`.
 */
export function checkAndDecrement(
  pdb: PodDisruptionBudget,
  podName: string,
  options: { readonly now: string; readonly dryRun: boolean },
): PodDisruptionBudget {
  const status = pdb.status ?? {};
  const name = pdb.metadata.name ?? '';
  const forbidden = (reason: string) =>
    apiErrors.forbidden({ group: 'policy', resource: 'poddisruptionbudget' }, name, reason);
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw budgetNotProcessedError(name);
  if ((status.disruptionsAllowed ?? 0) < 0) throw forbidden('pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    throw forbidden('DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if ((status.disruptionsAllowed ?? 0) === 0) throw budgetExhaustedError(pdb);
  const next = cloneJson(pdb);
  next.status ??= {};
  const nextStatus = next.status;
  nextStatus.disruptionsAllowed = (status.disruptionsAllowed ?? 0) - 1;
  if (nextStatus.disruptionsAllowed === 0) setDisruptionAllowedCondition(next, options.now);
  if (!options.dryRun) nextStatus.disruptedPods = { ...(nextStatus.disruptedPods ?? {}), [podName]: options.now };
  return next;
}
