/**
 * kube's policy/v1 PodDisruptionBudget rules: the status every budget starts with and kube's
 * `ValidatePodDisruptionBudget` / `ValidatePodDisruptionBudgetStatusUpdate`.
 */
import { isValidPercent } from '../core/value-formats.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isQualifiedName } from '../meta/name-validation.js';
import type { ApiObject } from '../object.js';
import { validateLabelSelector } from '../rbac/label-selector-validation.js';
import { isPlainObject } from '../schema/json-value.js';
import type { LabelSelectorObject } from '../selectors/label-selector-object.js';

export interface PodDisruptionBudgetCondition {
  type?: string;
  status?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  conditions?: PodDisruptionBudgetCondition[];
}

export interface PodDisruptionBudget extends ApiObject {
  spec?: {
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    selector?: LabelSelectorObject;
    unhealthyPodEvictionPolicy?: string;
  };
  status?: PodDisruptionBudgetStatus;
}

/** The counters of a budget's status are Go ints without `omitempty`: kube always serializes them. */
export function fillStatusCounters(status: PodDisruptionBudgetStatus): void {
  status.disruptionsAllowed ??= 0;
  status.currentHealthy ??= 0;
  status.desiredHealthy ??= 0;
  status.expectedPods ??= 0;
}

/** kube's `PrepareForCreate`: the status starts empty (its counters at 0). */
export function resetBudgetStatus(pdb: PodDisruptionBudget): void {
  pdb.status = {};
  fillStatusCounters(pdb.status);
  if (!isPlainObject(pdb.spec)) pdb.spec = {};
}

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** kube's `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent`. */
function validateIntOrPercent(value: number | string, path: string): FieldError[] {
  if (typeof value === 'string') {
    const errs = isValidPercent(value).map((m) => fieldErrors.invalid(path, value, m));
    if (errs.length === 0 && Number(value.slice(0, -1)) > 100) {
      errs.push(fieldErrors.invalid(path, value, 'must not be greater than 100%'));
    }
    return errs;
  }
  return value < 0 ? [fieldErrors.invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** kube's `ValidatePodDisruptionBudget` beyond metadata. */
export function validatePodDisruptionBudget(pdb: PodDisruptionBudget, allowInvalidLabelValue = false): FieldError[] {
  const spec = pdb.spec ?? {};
  const errs: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(fieldErrors.invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  if (spec.minAvailable !== undefined) errs.push(...validateIntOrPercent(spec.minAvailable, 'spec.minAvailable'));
  if (spec.maxUnavailable !== undefined) errs.push(...validateIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
  errs.push(
    ...validateLabelSelector(spec.selector, 'spec.selector', {
      allowInvalidLabelValueInSelector: allowInvalidLabelValue,
    }),
  );
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !EVICTION_POLICIES.includes(policy)) {
    errs.push(fieldErrors.notSupported('spec.unhealthyPodEvictionPolicy', policy, EVICTION_POLICIES));
  }
  return errs;
}

const CONDITION_REASON = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const NOT_NEGATIVE = 'must be greater than or equal to 0';

/** kube's `ValidateConditions` (metav1 conditions) as status updates check them. */
function validateConditions(conditions: readonly PodDisruptionBudgetCondition[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  conditions.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const type = c.type ?? '';
    if (types.has(type)) errs.push(fieldErrors.duplicate(`${p}.type`, type));
    types.add(type);
    errs.push(...isQualifiedName(type).map((m) => fieldErrors.invalid(`${p}.type`, type, m)));
    if (!['True', 'False', 'Unknown'].includes(c.status ?? '')) {
      errs.push(fieldErrors.notSupported(`${p}.status`, c.status ?? '', ['False', 'True', 'Unknown']));
    }
    if ((c.observedGeneration ?? 0) < 0) {
      errs.push(
        fieldErrors.invalid(`${p}.observedGeneration`, c.observedGeneration, 'must be greater than or equal to zero'),
      );
    }
    if (!c.lastTransitionTime) errs.push(fieldErrors.required(`${p}.lastTransitionTime`, 'must be set'));
    const reason = c.reason ?? '';
    if (!reason) errs.push(fieldErrors.required(`${p}.reason`, 'must be set'));
    else {
      if (!CONDITION_REASON.test(reason)) {
        errs.push(
          fieldErrors.invalid(
            `${p}.reason`,
            reason,
            "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')",
          ),
        );
      }
      if (reason.length > 1024) errs.push(fieldErrors.tooLong(`${p}.reason`, 1024));
    }
    if ((c.message ?? '').length > 32768) errs.push(fieldErrors.tooLong(`${p}.message`, 32768));
  });
  return errs;
}

/** kube's `ValidatePodDisruptionBudgetStatusUpdate` (policy/v1): valid conditions, counters not negative. */
export function validatePodDisruptionBudgetStatus(status: PodDisruptionBudgetStatus | undefined): FieldError[] {
  const s = status ?? {};
  const errs = validateConditions(s.conditions ?? [], 'status.conditions');
  for (const f of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) {
    const v = s[f] ?? 0;
    if (v < 0) errs.push(fieldErrors.invalid(`status.${f}`, v, NOT_NEGATIVE));
  }
  return errs;
}
