import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import type { AdmissionPlugin } from '../admission-plugin.js';

export const PRIORITY = 'Priority';

/** The PriorityClasses that exist now, and the group they are served in. */
export interface PriorityClassLister {
  /** `scheduling.<domain>`. */
  readonly group: string;
  /**
   * The classes, current; with `cached`, as the watch cache holds them (kube's plugin reads an
   * informer's cache), which spares a write the wait for the cache to catch up.
   */
  list(signal: AbortSignal, options?: { readonly cached?: boolean }): Promise<readonly ApiObject[]>;
}

/** kube's priority of pods when no PriorityClass is the global default. */
const DEFAULT_PRIORITY = 0;
const PREEMPT_LOWER_PRIORITY = 'PreemptLowerPriority';

/** The global default class: of those marked `globalDefault`, the one with the lowest value. */
function defaultClass(classes: readonly ApiObject[]): ApiObject | undefined {
  let current: ApiObject | undefined;
  for (const pc of classes) {
    if (pc.globalDefault !== true) continue;
    if (!current || (current.value as number) > (pc.value as number)) current = pc;
  }
  return current;
}

/**
 * The pod part (mutating): on create, `spec.priorityClassName` resolves to `spec.priority` and
 * `spec.preemptionPolicy` (no name: the global default class, or priority 0 and
 * PreemptLowerPriority); an unknown class, or a priority or policy the pod sets that differs from
 * the class's, is a 403. On update, the old pod's priority and policy are kept when the new one
 * omits them.
 */
async function admitPod(a: AdmissionAttributes, lister: PriorityClassLister, signal: AbortSignal): Promise<void> {
  const spec = a.object?.spec as Record<string, unknown> | undefined;
  if (!spec) return;
  if (a.operation === 'UPDATE') {
    const old = a.oldObject?.spec as Record<string, unknown> | undefined;
    if (spec.priority === undefined && old?.priority !== undefined) spec.priority = old.priority;
    if (spec.preemptionPolicy === undefined && old?.preemptionPolicy !== undefined) {
      spec.preemptionPolicy = old.preemptionPolicy;
    }
    return;
  }
  let priority: number;
  let policy: unknown;
  const classes = await lister.list(signal, { cached: true });
  const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
  if (className === '') {
    const dpc = defaultClass(classes);
    if (dpc) spec.priorityClassName = dpc.metadata.name ?? '';
    priority = dpc ? (dpc.value as number) : DEFAULT_PRIORITY;
    policy = dpc ? dpc.preemptionPolicy : PREEMPT_LOWER_PRIORITY;
  } else {
    const pc = classes.find((c) => c.metadata.name === className);
    if (!pc) throw new Error(`no PriorityClass with name ${className} was found`);
    priority = pc.value as number;
    policy = pc.preemptionPolicy;
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    throw new Error(
      `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    );
  }
  spec.priority = priority;
  if (typeof policy === 'string') {
    const given = spec.preemptionPolicy;
    if (given !== undefined && given !== null && given !== policy) {
      throw new Error(
        `the string value of PreemptionPolicy (${String(given)}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    }
    spec.preemptionPolicy = policy;
  }
}

/**
 * kube's `Priority` admission plugin. Its PriorityClass part (validating): a class may be created
 * or updated as `globalDefault` only while no other class is the default (the existing default
 * with the lowest value is named in the 403). Its pod part (mutating) resolves pod priorities,
 * see `admitPod`.
 */
export function priorityPlugin(lister: PriorityClassLister): AdmissionPlugin {
  return {
    name: PRIORITY,
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    async admit(a: AdmissionAttributes, signal: AbortSignal): Promise<void> {
      if (a.subresource !== '' || a.resource.group !== '' || a.resource.resource !== 'pods') return;
      await admitPod(a, lister, signal);
    },
    async validate(a: AdmissionAttributes, signal: AbortSignal): Promise<void> {
      if (a.subresource !== '' || a.resource.group !== lister.group || a.resource.resource !== 'priorityclasses')
        return;
      if (a.object?.globalDefault !== true) return;
      const current = defaultClass(await lister.list(signal));
      if (!current) return;
      const currentName = current.metadata.name ?? '';
      if (a.operation === 'CREATE' || currentName !== a.name) {
        throw apiErrors.forbidden(
          { group: a.resource.group, resource: a.resource.resource },
          a.name,
          `PriorityClass ${currentName} is already marked as default. Only one default can exist`,
        );
      }
    },
  };
}
