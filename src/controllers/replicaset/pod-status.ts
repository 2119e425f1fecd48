import type { Pod, PodCondition } from '../../apis/core/pod-types.js';
import { timeMs } from '../controller-support.js';

/** The pod's `Ready` condition, if any. */
export function readyCondition(pod: Pod): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

/** kube's `IsPodReady`: the `Ready` condition is `True`. */
export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/**
 * kube's `IsPodAvailable`: ready, and (with `minReadySeconds`) ready since more than that long
 * before `nowMs`, by the Ready condition's `lastTransitionTime`.
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = timeMs(readyCondition(pod)?.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 < nowMs;
}

/** kube's `IsPodTerminal`: phase `Succeeded` or `Failed`. */
export function isPodTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** kube's `IsPodActive`: not terminal and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  return !isPodTerminal(pod) && !pod.metadata.deletionTimestamp;
}
