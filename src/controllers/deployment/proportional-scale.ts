import type { Deployment, DeploymentNames, ReplicaSet } from './deployment-types.js';
import { activeReplicaSets, isSaturated, maxSurge, replicasOf, specReplicas } from './deployment-util.js';
import type { ScaleFn } from './rollout.js';

/** kube's `getReplicaSetFraction`: this ReplicaSet's share of a resize, by its max-replicas annotation. */
function fraction(rs: ReplicaSet, d: Deployment, names: DeploymentNames): number {
  if (replicasOf(d) === 0) return -replicasOf(rs);
  const deploymentReplicas = replicasOf(d) + maxSurge(d);
  const annotated = rs.metadata.annotations?.[names.maxReplicas];
  const base = annotated !== undefined && /^\d+$/.test(annotated) ? Number(annotated) : (d.status?.replicas ?? 0);
  if (base === 0) return 0;
  return Math.round((replicasOf(rs) * deploymentReplicas) / base) - replicasOf(rs);
}

/** kube's `GetProportion`. */
function proportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number, names: DeploymentNames): number {
  if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const f = fraction(rs, d, names);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(f, allowed) : Math.max(f, allowed);
}

function newest(a: ReplicaSet, b: ReplicaSet): number {
  const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
  if (ta !== tb) return tb - ta;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? 1 : -1;
}

/**
 * kube's `scale` (a scaling event, or a paused Deployment): with at most one active ReplicaSet
 * it gets `spec.replicas`; a saturated new ReplicaSet makes the old ones 0; otherwise, during a
 * rolling update, the change is spread over the active ReplicaSets in proportion to their size
 * (larger first; the rounding leftover to the first).
 */
export async function scaleDeployment(
  d: Deployment,
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
  o: { readonly scale: ScaleFn; readonly names: DeploymentNames },
): Promise<void> {
  const active = activeReplicaSets([newRS, ...oldRSs]);
  const single =
    active.length === 1 ? active[0] : active.length === 0 ? (newRS ?? [...oldRSs].sort(newest)[0]) : undefined;
  if (single) {
    if (replicasOf(single) !== replicasOf(d)) await o.scale(single, replicasOf(d));
    return;
  }
  if (isSaturated(d, newRS, o.names)) {
    for (const rs of activeReplicaSets(oldRSs)) await o.scale(rs, 0);
    return;
  }
  if (d.spec.strategy?.type === 'Recreate') return;
  const allowed = replicasOf(d) > 0 ? replicasOf(d) + maxSurge(d) : 0;
  const toAdd = allowed - specReplicas(active);
  // Larger first; among equals the newer first when growing, the older first when shrinking.
  const ordered = [...active].sort((a, b) => {
    if (replicasOf(a) !== replicasOf(b)) return replicasOf(b) - replicasOf(a);
    return toAdd > 0 ? newest(a, b) : -newest(a, b);
  });
  const sizes = new Map<ReplicaSet, number>();
  let added = 0;
  for (const rs of ordered) {
    if (toAdd !== 0) {
      const p = proportion(rs, d, toAdd, added, o.names);
      sizes.set(rs, replicasOf(rs) + p);
      added += p;
    } else sizes.set(rs, replicasOf(rs));
  }
  if (toAdd !== added && ordered.length > 0) {
    const first = ordered[0];
    sizes.set(first, Math.max(0, (sizes.get(first) ?? 0) + toAdd - added));
  }
  for (const rs of ordered) {
    await o.scale(rs, sizes.get(rs) ?? replicasOf(rs));
  }
}
