import type { Pod } from '../../apis/core/pod-types.js';
import { timeMs } from '../controller-support.js';
import { isPodActive, isPodReady, readyCondition } from './pod-status.js';

const PHASE_ORDER: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

function phaseOrdinal(pod: Pod): number {
  return PHASE_ORDER[pod.status?.phase ?? ''] ?? 0;
}

/** kube's `GetDeletionCostFromPodAnnotations` (0 when absent or unreadable). */
function deletionCost(pod: Pod, annotation: string): number {
  const v = pod.metadata.annotations?.[annotation];
  return v !== undefined && /^-?\d+$/.test(v) ? Number(v) : 0;
}

function maxRestarts(pod: Pod): number {
  const counts = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].map(
    (s) => s.restartCount ?? 0,
  );
  return counts.length > 0 ? Math.max(...counts) : 0;
}

/** log2 of the time since `t` in ns (kube's logarithmic buckets), -1 when not in the past. */
function logRank(tMs: number, nowMs: number): number {
  const d = (nowMs - tMs) * 1e6;
  return d > 0 ? Math.floor(Math.log2(d)) : -1;
}

/**
 * kube's ordering of two times where the later (or missing) one sorts first, by logarithmic
 * bucket when `now` is known (LogarithmicScaleDown), ties broken by uid. Undefined: equal.
 */
function newerFirst(a: Pod, b: Pod, ta: number | undefined, tb: number | undefined, nowMs: number): number | undefined {
  if (ta === tb) return undefined;
  if (ta === undefined) return -1;
  if (tb === undefined) return 1;
  const diff = logRank(ta, nowMs) - logRank(tb, nowMs);
  if (diff === 0) return (a.metadata.uid ?? '') < (b.metadata.uid ?? '') ? -1 : 1;
  return diff;
}

/**
 * kube's `ActivePodsWithRanks` order, the pods to delete first first: unassigned before
 * assigned; Pending before Unknown before Running; not ready before ready; lower
 * `pod-deletion-cost`; more related pods on the same node; ready for less time; more container
 * restarts; newer. `ranks[i]` is the number of related pods on pod i's node.
 */
export function rankPodsForDeletion(
  pods: readonly Pod[],
  o: { readonly relatedPods: readonly Pod[]; readonly nowMs: number; readonly deletionCostAnnotation: string },
): Pod[] {
  const onNode = new Map<string, number>();
  for (const p of o.relatedPods) {
    const node = p.spec?.nodeName;
    if (node && isPodActive(p)) onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const rank = (p: Pod) => onNode.get(p.spec?.nodeName ?? '') ?? 0;
  const cmp = (a: Pod, b: Pod): number => {
    const na = a.spec?.nodeName ?? '';
    const nb = b.spec?.nodeName ?? '';
    if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
    if (phaseOrdinal(a) !== phaseOrdinal(b)) return phaseOrdinal(a) - phaseOrdinal(b);
    if (isPodReady(a) !== isPodReady(b)) return isPodReady(a) ? 1 : -1;
    const ca = deletionCost(a, o.deletionCostAnnotation);
    const cb = deletionCost(b, o.deletionCostAnnotation);
    if (ca !== cb) return ca - cb;
    if (rank(a) !== rank(b)) return rank(b) - rank(a);
    if (isPodReady(a) && isPodReady(b)) {
      const r = newerFirst(
        a,
        b,
        timeMs(readyCondition(a)?.lastTransitionTime),
        timeMs(readyCondition(b)?.lastTransitionTime),
        o.nowMs,
      );
      if (r !== undefined) return r;
    }
    if (maxRestarts(a) !== maxRestarts(b)) return maxRestarts(b) - maxRestarts(a);
    const r = newerFirst(a, b, timeMs(a.metadata.creationTimestamp), timeMs(b.metadata.creationTimestamp), o.nowMs);
    return r ?? 0;
  };
  return [...pods].sort(cmp);
}
