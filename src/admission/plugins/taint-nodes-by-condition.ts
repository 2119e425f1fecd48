import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import type { AdmissionPlugin } from '../admission-plugin.js';

export const TAINT_NODES_BY_CONDITION = 'TaintNodesByCondition';

interface Taint {
  readonly key?: string;
  readonly effect?: string;
}

/**
 * kube's `TaintNodesByCondition` (mutating, nodes on create): a new node is tainted
 * `<notReadyKey>:NoSchedule` until its node agent reports it ready, unless it carries that taint
 * already.
 */
export function taintNodesByCondition(notReadyKey: string): AdmissionPlugin {
  return {
    name: TAINT_NODES_BY_CONDITION,
    handles: (op: Operation) => op === 'CREATE',
    async admit(a: AdmissionAttributes): Promise<void> {
      if (a.subresource !== '' || a.resource.group !== '' || a.resource.resource !== 'nodes' || !a.object) return;
      const node = a.object as { spec?: Record<string, unknown> };
      const spec = node.spec ?? {};
      const taints = Array.isArray(spec.taints) ? (spec.taints as Taint[]) : [];
      if (taints.some((t) => t?.key === notReadyKey && t?.effect === 'NoSchedule')) return;
      node.spec = { ...spec, taints: [...taints, { key: notReadyKey, effect: 'NoSchedule' }] };
    },
  };
}
