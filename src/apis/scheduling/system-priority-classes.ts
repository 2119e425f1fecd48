import type { ApiObject } from '../object.js';

/**
 * kube's two built-in priority classes (`SystemPriorityClasses`): names with the `system-` prefix
 * are reserved for them, they are created at start and cannot be deleted.
 */

/** Names starting with this are reserved for the system priority classes. */
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
/** The highest value a user-defined class may have (kube's `HighestUserDefinablePriority`). */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** The value of `system-cluster-critical` (kube's `SystemCriticalPriority`). */
export const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;

/** One system priority class: name, value and description (none is the global default). */
export interface SystemPriorityClassFacts {
  readonly name: string;
  readonly value: number;
  readonly description: string;
}

/** `system-node-critical` and `system-cluster-critical`, with kube v1.32's values and descriptions. */
export const SYSTEM_PRIORITY_CLASSES: readonly SystemPriorityClassFacts[] = Object.freeze([
  Object.freeze({
    name: 'system-node-critical',
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  }),
  Object.freeze({
    name: 'system-cluster-critical',
    value: SYSTEM_CRITICAL_PRIORITY,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  }),
]);

/** Whether `name` is one of the system priority classes. */
export function isSystemPriorityClassName(name: string): boolean {
  return SYSTEM_PRIORITY_CLASSES.some((c) => c.name === name);
}

/**
 * kube's `IsKnownSystemPriorityClass`: undefined when `name` is a system class with exactly its
 * value and `globalDefault: false`, else the reason it is not.
 */
export function systemPriorityClassMismatch(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${known.name} PriorityClass must be ${known.value}`;
  if (globalDefault) return `globalDefault of ${known.name} PriorityClass must be false`;
  return undefined;
}

/** The system priority classes as objects of `apiVersion` (fresh objects on every call). */
export function systemPriorityClassObjects(apiVersion: string): ApiObject[] {
  return SYSTEM_PRIORITY_CLASSES.map((c) => ({
    apiVersion,
    kind: 'PriorityClass',
    metadata: { name: c.name },
    value: c.value,
    description: c.description,
  }));
}
