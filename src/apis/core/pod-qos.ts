import type { Quantity } from '../../util/go-quantity.js';
import type { Container, Pod } from './pod-types.js';
import { quantityOf } from './resource-validation.js';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const COMPUTE = ['cpu', 'memory'] as const;

function addPositive(into: Map<string, Quantity>, list: Record<string, unknown> | undefined): Set<string> {
  const found = new Set<string>();
  for (const name of COMPUTE) {
    const q = list && Object.hasOwn(list, name) ? quantityOf(list[name]) : undefined;
    if (!q || q.sign() <= 0) continue;
    found.add(name);
    const sum = into.get(name);
    into.set(name, sum ? sum.add(q) : q);
  }
  return found;
}

/**
 * kube's `ComputePodQOS` (v1.32, without pod-level resources): BestEffort when no container or
 * init container requests or limits any cpu or memory; Guaranteed when every one of them limits
 * both and the summed requests equal the summed limits; Burstable otherwise. Ephemeral containers
 * never count.
 */
export function podQOSClass(pod: Pod): QOSClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  const containers: Container[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  for (const c of containers) {
    addPositive(requests, c.resources?.requests);
    const limited = addPositive(limits, c.resources?.limits);
    if (!limited.has('cpu') || !limited.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (lim?.cmp(req) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
