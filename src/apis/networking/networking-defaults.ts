import { arrayOf } from '../core/json-shape.js';
import { isPlainObject } from '../schema/json-value.js';
import type { IngressClass, NetworkPolicy } from './networking-types.js';

/**
 * kube v1.32's networking/v1 defaults (run before validation: fields of the wrong type are left
 * for it). Each mutates its object.
 */

/**
 * `SetDefaults_NetworkPolicy` and `SetDefaults_NetworkPolicyPort`: `policyTypes` defaults to
 * `[Ingress]`, plus `Egress` when there are egress rules; ports default to protocol TCP; an absent
 * `podSelector` is the empty one (kube's field is a struct, always serialized).
 */
export function defaultNetworkPolicy(np: NetworkPolicy): void {
  if (!isPlainObject(np.spec)) {
    if (np.spec !== undefined) return;
    np.spec = {};
  }
  const spec = np.spec;
  // kube's `podSelector` is a struct, never omitted: absent reads as the empty selector.
  if (spec.podSelector === undefined) spec.podSelector = {};
  if (spec.policyTypes === undefined || (Array.isArray(spec.policyTypes) && spec.policyTypes.length === 0)) {
    spec.policyTypes = arrayOf(spec.egress).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
  const rules = [...arrayOf<Record<string, unknown>>(spec.ingress), ...arrayOf<Record<string, unknown>>(spec.egress)];
  for (const rule of rules) {
    if (!isPlainObject(rule)) continue;
    for (const port of arrayOf<Record<string, unknown>>(rule.ports)) {
      if (isPlainObject(port) && port.protocol === undefined) port.protocol = 'TCP';
    }
  }
}

/** `SetDefaults_IngressClass`: parameters without a scope are cluster-scoped. */
export function defaultIngressClass(ic: IngressClass): void {
  const params = isPlainObject(ic.spec) ? ic.spec.parameters : undefined;
  if (isPlainObject(params) && params.scope === undefined) params.scope = 'Cluster';
}
