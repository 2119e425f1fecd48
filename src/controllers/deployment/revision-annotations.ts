import type { Deployment, DeploymentNames, ReplicaSet } from './deployment-types.js';
import { maxSurge, replicasOf } from './deployment-util.js';

/** kube's limit on the length of the revision-history annotation. */
const MAX_REV_HISTORY_CHARS = 2000;

function annotationsOf(obj: { metadata: { annotations?: Record<string, string> } }): Record<string, string> {
  obj.metadata.annotations ??= {};
  return obj.metadata.annotations;
}

/** kube's `SetReplicasAnnotations`: desired and max replicas; true when they changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number, names: DeploymentNames): boolean {
  const a = annotationsOf(rs);
  let changed = false;
  if (a[names.desiredReplicas] !== String(desired)) {
    a[names.desiredReplicas] = String(desired);
    changed = true;
  }
  if (a[names.maxReplicas] !== String(max)) {
    a[names.maxReplicas] = String(max);
    changed = true;
  }
  return changed;
}

/** kube's `ReplicasAnnotationsNeedUpdate`. */
export function replicasAnnotationsNeedUpdate(
  rs: ReplicaSet,
  desired: number,
  max: number,
  names: DeploymentNames,
): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[names.desiredReplicas] !== String(desired) || a[names.maxReplicas] !== String(max);
}

/**
 * kube's `SetNewReplicaSetAnnotations`: copies the Deployment's annotations (but the skipped
 * ones), raises the revision to `newRevision` when lower — keeping the former revision in the
 * revision history (a rollback to this ReplicaSet) — and, for a ReplicaSet about to be created,
 * sets the replica annotations. True when anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: number,
  exists: boolean,
  names: DeploymentNames,
): boolean {
  const a = annotationsOf(rs);
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (names.skipCopy.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const had = Object.hasOwn(a, names.revision);
  const oldText = a[names.revision] ?? '';
  let old = 0;
  if (oldText !== '') {
    if (!/^-?\d+$/.test(oldText)) return changed;
    old = Number(oldText);
  }
  if (old < newRevision) {
    a[names.revision] = String(newRevision);
    changed = true;
    if (had) {
      const history = a[names.revisionHistory] ?? '';
      if (history === '') a[names.revisionHistory] = oldText;
      else {
        const revs = history.split(',');
        let total = history.length + oldText.length + 1;
        let start = 0;
        while (total > MAX_REV_HISTORY_CHARS && start < revs.length) {
          total -= revs[start].length + 1;
          start++;
        }
        if (total <= MAX_REV_HISTORY_CHARS) a[names.revisionHistory] = [...revs.slice(start), oldText].join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, replicasOf(d), replicasOf(d) + maxSurge(d), names)) changed = true;
  return changed;
}

/** kube's `SetDeploymentRevision`: true when the Deployment's revision annotation changed. */
export function setDeploymentRevision(d: Deployment, revision: string, names: DeploymentNames): boolean {
  const a = annotationsOf(d);
  if (a[names.revision] === revision) return false;
  a[names.revision] = revision;
  return true;
}

/** kube's `SetDeploymentAnnotationsTo`: the ReplicaSet's annotations replace the copyable ones. */
export function setDeploymentAnnotationsTo(d: Deployment, rs: ReplicaSet, names: DeploymentNames): void {
  const kept = Object.fromEntries(Object.entries(d.metadata.annotations ?? {}).filter(([k]) => names.skipCopy.has(k)));
  for (const [k, v] of Object.entries(rs.metadata.annotations ?? {})) if (!names.skipCopy.has(k)) kept[k] = v;
  d.metadata.annotations = kept;
}
