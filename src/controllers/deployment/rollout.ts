import type { Pod } from '../../apis/core/pod-types.js';
import type { Deployment, ReplicaSet } from './deployment-types.js';
import {
  activeReplicaSets,
  byCreation,
  maxUnavailable,
  newRSNewReplicas,
  replicasOf,
  specReplicas,
  statusCount,
} from './deployment-util.js';

/** Scales one ReplicaSet (with the replica annotations of the Deployment); returns the result. */
export type ScaleFn = (rs: ReplicaSet, replicas: number) => Promise<ReplicaSet>;

/**
 * kube's `reconcileNewReplicaSet`: the new ReplicaSet grows as far as maxSurge allows (or
 * shrinks to `spec.replicas`). True when it was scaled.
 */
export async function reconcileNewReplicaSet(
  d: Deployment,
  all: readonly ReplicaSet[],
  newRS: ReplicaSet,
  scale: ScaleFn,
): Promise<boolean> {
  const want = replicasOf(d);
  if (replicasOf(newRS) === want) return false;
  if (replicasOf(newRS) > want) {
    await scale(newRS, want);
    return true;
  }
  const next = newRSNewReplicas(d, all, newRS);
  if (next === replicasOf(newRS)) return false;
  await scale(newRS, next);
  return true;
}

/**
 * kube's `reconcileOldReplicaSets`: old ReplicaSets shrink while at least
 * `replicas − maxUnavailable` pods stay available: first their unavailable pods
 * (`cleanupUnhealthyReplicas`), then available ones oldest ReplicaSet first. True when any shrank.
 */
export async function reconcileOldReplicaSets(
  d: Deployment,
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet,
  scale: ScaleFn,
): Promise<boolean> {
  if (specReplicas(oldRSs) === 0) return false;
  const all = [...oldRSs, newRS];
  const minAvailable = replicasOf(d) - maxUnavailable(d);
  const newUnavailable = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = specReplicas(all) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  // Unhealthy replicas first: they do not count as available anyway.
  let cleaned = 0;
  const olds = [...oldRSs].sort(byCreation);
  for (let i = 0; i < olds.length && cleaned < maxScaledDown; i++) {
    const rs = olds[i];
    const available = rs.status?.availableReplicas ?? 0;
    if (replicasOf(rs) === 0 || replicasOf(rs) === available) continue;
    const down = Math.min(maxScaledDown - cleaned, replicasOf(rs) - available);
    olds[i] = await scale(rs, replicasOf(rs) - down);
    cleaned += down;
  }
  // Then available ones, keeping minAvailable.
  const availableNow = statusCount([...olds, newRS], 'availableReplicas');
  let scaled = 0;
  if (availableNow > minAvailable) {
    const budget = availableNow - minAvailable;
    for (let i = 0; i < olds.length && scaled < budget; i++) {
      const rs = olds[i];
      if (replicasOf(rs) === 0) continue;
      const down = Math.min(replicasOf(rs), budget - scaled);
      olds[i] = await scale(rs, replicasOf(rs) - down);
      scaled += down;
    }
  }
  return cleaned + scaled > 0;
}

/** kube's `oldPodsRunning` (Recreate): old ReplicaSets still have pods that are not finished. */
export function oldPodsRunning(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
  podsByRS: ReadonlyMap<string, readonly Pod[]>,
): boolean {
  if (statusCount(oldRSs, 'replicas') > 0) return true;
  for (const [uid, pods] of podsByRS) {
    if (newRS && uid === newRS.metadata.uid) continue;
    for (const p of pods) {
      const phase = p.status?.phase;
      // Unknown may still be running; anything else is not finished.
      if (phase !== 'Failed' && phase !== 'Succeeded') return true;
    }
  }
  return false;
}

/** kube's `scaleDownOldReplicaSetsForRecreate`: every active old ReplicaSet to 0. */
export async function scaleDownOldForRecreate(oldRSs: readonly ReplicaSet[], scale: ScaleFn): Promise<boolean> {
  let scaled = false;
  for (const rs of activeReplicaSets(oldRSs)) {
    await scale(rs, 0);
    scaled = true;
  }
  return scaled;
}
