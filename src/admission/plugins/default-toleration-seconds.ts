import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import type { AdmissionPlugin } from '../admission-plugin.js';

export const DEFAULT_TOLERATION_SECONDS = 'DefaultTolerationSeconds';

/** kube's `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds`. */
const DEFAULT_SECONDS = 300;

export interface TolerationTaintKeys {
  /** `node.<key domain>/not-ready`. */
  readonly notReady: string;
  /** `node.<key domain>/unreachable`. */
  readonly unreachable: string;
}

interface Toleration {
  readonly key?: string;
  readonly effect?: string;
}

/** Whether `t` tolerates the NoExecute taint `key` (an empty key or effect matches any). */
function tolerates(t: Toleration, key: string): boolean {
  return (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect);
}

/**
 * kube's `DefaultTolerationSeconds` (mutating, pods on create and update): a pod that does not
 * tolerate the NoExecute `not-ready` or `unreachable` node taints gets a toleration of each for
 * 300 seconds.
 */
export function defaultTolerationSeconds(keys: TolerationTaintKeys): AdmissionPlugin {
  return {
    name: DEFAULT_TOLERATION_SECONDS,
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    async admit(a: AdmissionAttributes): Promise<void> {
      if (a.subresource !== '' || a.resource.group !== '' || a.resource.resource !== 'pods') return;
      const spec = a.object?.spec as Record<string, unknown> | undefined;
      if (!spec) return;
      const tolerations = Array.isArray(spec.tolerations) ? (spec.tolerations as Toleration[]) : [];
      const added: Record<string, unknown>[] = [];
      for (const key of [keys.notReady, keys.unreachable]) {
        if (tolerations.some((t) => tolerates(t ?? {}, key))) continue;
        added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_SECONDS });
      }
      if (added.length > 0) spec.tolerations = [...tolerations, ...added];
    },
  };
}
