import type { Quantity } from '../../util/go-quantity.js';
import type { Container, Pod } from './pod-types.js';
import { quantityOf } from './resource-validation.js';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** A positive cpu or memory quantity of a resource list, undefined when it has none. */
function positive(list: Record<string, unknown> | undefined, name: 'cpu' | 'memory'): Quantity | undefined {
  const q = list && Object.hasOwn(list, name) ? quantityOf(list[name]) : undefined;
  return q && q.sign() > 0 ? q : undefined;
}

/** The sum of the pod's positive requests or limits of cpu or memory over `containers`. */
interface Sums {
  requestsCpu?: Quantity;
  requestsMemory?: Quantity;
  limitsCpu?: Quantity;
  limitsMemory?: Quantity;
}

function plus(sum: Quantity | undefined, q: Quantity): Quantity {
  return sum ? sum.add(q) : q;
}

/** Adds the containers' quantities to `sums`; false when one of them does not limit both cpu and memory. */
function addContainers(sums: Sums, containers: readonly Container[] | undefined): boolean {
  let limitsBoth = true;
  for (const c of containers ?? []) {
    const requests = c.resources?.requests;
    const limits = c.resources?.limits;
    const rc = positive(requests, 'cpu');
    if (rc) sums.requestsCpu = plus(sums.requestsCpu, rc);
    const rm = positive(requests, 'memory');
    if (rm) sums.requestsMemory = plus(sums.requestsMemory, rm);
    const lc = positive(limits, 'cpu');
    if (lc) sums.limitsCpu = plus(sums.limitsCpu, lc);
    const lm = positive(limits, 'memory');
    if (lm) sums.limitsMemory = plus(sums.limitsMemory, lm);
    if (!lc || !lm) limitsBoth = false;
  }
  return limitsBoth;
}

/** Whether a summed request equals its summed limit (a request without a limit does not). */
function matches(request: Quantity | undefined, limit: Quantity | undefined): boolean {
  return request === undefined || (limit !== undefined && limit.cmp(request) === 0);
}

/**
 * kube's `ComputePodQOS` (v1.32, without pod-level resources): BestEffort when no container or
 * init container requests or limits any cpu or memory; Guaranteed when every one of them limits
 * both and the summed requests equal the summed limits; Burstable otherwise. Ephemeral containers
 * never count.
 */
export function podQOSClass(pod: Pod): QOSClass {
  const sums: Sums = {};
  const regular = addContainers(sums, pod.spec?.containers);
  const init = addContainers(sums, pod.spec?.initContainers);
  const { requestsCpu, requestsMemory, limitsCpu, limitsMemory } = sums;
  const requested = (requestsCpu ? 1 : 0) + (requestsMemory ? 1 : 0);
  const limited = (limitsCpu ? 1 : 0) + (limitsMemory ? 1 : 0);
  if (requested === 0 && limited === 0) return 'BestEffort';
  const guaranteed =
    regular &&
    init &&
    matches(requestsCpu, limitsCpu) &&
    matches(requestsMemory, limitsMemory) &&
    requested === limited;
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
