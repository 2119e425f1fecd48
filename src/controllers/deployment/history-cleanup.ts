import type { ResourceClient } from '../../client/api/api-client.js';
import { isStatus } from '../controller-support.js';
import type { Deployment, DeploymentNames, ReplicaSet } from './deployment-types.js';
import { byCreation, replicasOf, revisionOf } from './deployment-util.js';

/**
 * kube's `cleanupDeployment`: of the old ReplicaSets not being deleted, those beyond
 * `revisionHistoryLimit` (lowest revision first, then oldest) are deleted when they have no
 * replicas (spec and status) and their controller has seen their latest generation.
 */
export async function cleanupHistory(
  d: Deployment,
  oldRSs: readonly ReplicaSet[],
  o: { readonly names: DeploymentNames; readonly client: ResourceClient; readonly signal: AbortSignal },
): Promise<void> {
  const limit = d.spec.revisionHistoryLimit;
  if (limit === undefined) return;
  const alive = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
  const diff = alive.length - limit;
  if (diff <= 0) return;
  const sorted = [...alive].sort((a, b) => {
    const ra = revisionOf(a, o.names) || 0;
    const rb = revisionOf(b, o.names) || 0;
    return ra !== rb ? ra - rb : byCreation(a, b);
  });
  for (const rs of sorted.slice(0, diff)) {
    const settled =
      (rs.status?.replicas ?? 0) === 0 &&
      replicasOf(rs) === 0 &&
      (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0);
    if (!settled) continue;
    try {
      await o.client.delete(rs.metadata.namespace ?? '', rs.metadata.name ?? '', {}, o.signal);
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }
}
