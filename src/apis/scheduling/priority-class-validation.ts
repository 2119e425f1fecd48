import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { validateImmutableField } from '../meta/object-meta-validation.js';
import type { ApiObject } from '../object.js';
import {
  HIGHEST_USER_DEFINABLE_PRIORITY,
  SYSTEM_PRIORITY_CLASS_PREFIX,
  systemPriorityClassMismatch,
} from './system-priority-classes.js';

/** A PriorityClass as the rules read it. */
export interface PriorityClass extends ApiObject {
  value?: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: string;
}

/** The preemption policies kube knows, in the order its message lists them. */
export const PREEMPTION_POLICIES: readonly string[] = ['PreemptLowerPriority', 'Never'];

/** kube's v1 defaults: `preemptionPolicy: PreemptLowerPriority` when unset. Mutates. */
export function defaultPriorityClass(pc: PriorityClass): void {
  if (pc.preemptionPolicy === undefined || pc.preemptionPolicy === null) pc.preemptionPolicy = 'PreemptLowerPriority';
}

/**
 * kube's `ValidatePriorityClass` beyond metadata: `system-` names only for the system classes with
 * their exact value (and not the global default), other classes at most 1000000000, a known
 * preemption policy.
 */
export function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  const name = pc.metadata.name ?? '';
  const value = pc.value ?? 0;
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const mismatch = systemPriorityClassMismatch(name, value, pc.globalDefault === true);
    if (mismatch) {
      errs.push(
        fieldErrors.forbidden(
          'metadata.name',
          `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${mismatch}`,
        ),
      );
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(
      fieldErrors.forbidden(
        'value',
        `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
      ),
    );
  }
  if (pc.preemptionPolicy === '') errs.push(fieldErrors.required('preemptionPolicy'));
  else if (pc.preemptionPolicy !== undefined && !PREEMPTION_POLICIES.includes(pc.preemptionPolicy)) {
    errs.push(fieldErrors.notSupported('preemptionPolicy', pc.preemptionPolicy, PREEMPTION_POLICIES));
  }
  return errs;
}

/** kube's `ValidatePriorityClassUpdate`: `value` and `preemptionPolicy` never change. */
export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  if ((pc.value ?? 0) !== (old.value ?? 0))
    errs.push(fieldErrors.forbidden('value', 'may not be changed in an update.'));
  errs.push(...validateImmutableField(pc.preemptionPolicy ?? null, old.preemptionPolicy ?? null, 'preemptionPolicy'));
  return errs;
}
