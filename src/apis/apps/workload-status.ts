/**
 * The status rules of the replica-managing kinds (kube's `Validate<Kind>Status`): counts are
 * never negative, some never exceed `status.replicas`, available never exceeds ready, and a
 * collision count never goes down.
 */
import type { FieldError } from '../meta/field-error.js';
import { invalidShown } from '../meta/field-error.js';
import { isPlainObject } from '../schema/json-value.js';
import { goScalar } from './go-values.js';
import { validateNonnegative } from './workload-validation.js';

export interface ReplicaCountRules {
  /** Counts that must be ≥ 0, in kube's order. */
  readonly counts: readonly string[];
  /** Counts that may not exceed `replicas` (`cannot be greater than status.replicas`), in kube's order. */
  readonly atMostReplicas: readonly string[];
  /** Whether `collisionCount` (when set) must be ≥ 0, checked after the counts. */
  readonly collisionCount?: boolean;
  /** The message when `availableReplicas` exceeds `readyReplicas`; absent: not checked. */
  readonly availableAtMostReady?: string;
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** The count rules of a status object at `path`. */
export function validateReplicaCounts(
  status: Record<string, unknown>,
  path: string,
  rules: ReplicaCountRules,
): FieldError[] {
  const errs: FieldError[] = [];
  for (const c of rules.counts) errs.push(...validateNonnegative(status[c], `${path}.${c}`));
  if (rules.collisionCount) errs.push(...validateNonnegative(status.collisionCount, `${path}.collisionCount`));
  const replicas = num(status.replicas);
  for (const c of rules.atMostReplicas) {
    if (num(status[c]) > replicas) {
      errs.push(invalidShown(`${path}.${c}`, goScalar(num(status[c])), 'cannot be greater than status.replicas'));
    }
  }
  if (rules.availableAtMostReady && num(status.availableReplicas) > num(status.readyReplicas)) {
    errs.push(
      invalidShown(`${path}.availableReplicas`, goScalar(num(status.availableReplicas)), rules.availableAtMostReady),
    );
  }
  return errs;
}

/** `collisionCount`, against the old status, not decremented (`cannot be decremented`). */
export function validateCollisionCountUpdate(status: unknown, oldStatus: unknown): FieldError[] {
  const now = isPlainObject(status) ? status.collisionCount : undefined;
  const before = isPlainObject(oldStatus) ? oldStatus.collisionCount : undefined;
  // kube's IsDecremented: an old value that is now missing or smaller.
  if (typeof before === 'number' && (typeof now !== 'number' || now < before)) {
    return [
      invalidShown('status.collisionCount', goScalar(typeof now === 'number' ? now : 0), 'cannot be decremented'),
    ];
  }
  return [];
}
