import { timeMs } from '../controller-support.js';
import type { Deployment, DeploymentStatus, ReplicaSet } from './deployment-types.js';
import {
  getCondition,
  hasProgressDeadline,
  maxUnavailable,
  newCondition,
  removeCondition,
  replicasOf,
  setCondition,
  specReplicas,
  statusCount,
} from './deployment-util.js';

export const NEW_RS_AVAILABLE = 'NewReplicaSetAvailable';
export const TIMED_OUT = 'ProgressDeadlineExceeded';

function withoutZeros(s: DeploymentStatus): DeploymentStatus {
  const out: DeploymentStatus = {};
  for (const k of [
    'observedGeneration',
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
  ] as const) {
    if (s[k]) out[k] = s[k];
  }
  if (s.conditions && s.conditions.length > 0) out.conditions = s.conditions;
  if (s.collisionCount !== undefined) out.collisionCount = s.collisionCount;
  return out;
}

/**
 * kube's `calculateStatus`: counts over the ReplicaSets (replicas from their status, updated
 * from the new one's, unavailable = spec total − available) and the `Available` condition
 * (`MinimumReplicasAvailable` when at least replicas − maxUnavailable are available).
 */
export function calculateStatus(
  all: readonly ReplicaSet[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: string,
): DeploymentStatus {
  const available = statusCount(all, 'availableReplicas');
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation,
    replicas: statusCount(all, 'replicas'),
    updatedReplicas: statusCount([newRS], 'replicas'),
    readyReplicas: statusCount(all, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specReplicas(all) - available),
    collisionCount: d.status?.collisionCount,
    conditions: structuredClone(d.status?.conditions ?? []),
  };
  if (available >= replicasOf(d) - maxUnavailable(d)) {
    setCondition(
      status,
      newCondition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now),
    );
  } else {
    setCondition(
      status,
      newCondition(
        'Available',
        'False',
        'MinimumReplicasUnavailable',
        'Deployment does not have minimum availability.',
        now,
      ),
    );
  }
  return status;
}

/** kube's `DeploymentComplete`. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const n = replicasOf(d);
  return (
    (s.updatedReplicas ?? 0) === n &&
    (s.replicas ?? 0) === n &&
    (s.availableReplicas ?? 0) === n &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** kube's `DeploymentProgressing`: more updated, ready or available replicas, or fewer old ones. */
function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** kube's `DeploymentTimedOut`: no progress for `progressDeadlineSeconds` since the condition's update. */
function deploymentTimedOut(d: Deployment, s: DeploymentStatus, nowMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, 'Progressing');
  if (!c || c.reason === NEW_RS_AVAILABLE) return false;
  if (c.reason === TIMED_OUT) return true;
  const from = timeMs(c.lastUpdateTime) ?? 0;
  return from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 < nowMs;
}

/**
 * kube's `syncRolloutStatus` without the write: the status with the `Progressing` condition
 * brought up to date (complete, progressing or timed out) and the `ReplicaFailure` of the
 * ReplicaSets promoted.
 */
export function rolloutStatus(
  all: readonly ReplicaSet[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  o: { readonly now: string; readonly nowMs: number },
): DeploymentStatus {
  const s = calculateStatus(all, newRS, d, o.now);
  if (!hasProgressDeadline(d)) removeCondition(s, 'Progressing');
  const cur = getCondition(s, 'Progressing');
  const complete = s.replicas === s.updatedReplicas && cur?.reason === NEW_RS_AVAILABLE;
  if (hasProgressDeadline(d) && !complete) {
    const what = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
    if (deploymentComplete(d, s)) {
      setCondition(
        s,
        newCondition('Progressing', 'True', NEW_RS_AVAILABLE, `${what} has successfully progressed.`, o.now),
      );
    } else if (deploymentProgressing(d, s)) {
      const c = newCondition('Progressing', 'True', 'ReplicaSetUpdated', `${what} is progressing.`, o.now);
      if (cur) {
        if (cur.status === 'True') c.lastTransitionTime = cur.lastTransitionTime;
        removeCondition(s, 'Progressing');
      }
      setCondition(s, c);
    } else if (deploymentTimedOut(d, s, o.nowMs)) {
      setCondition(s, newCondition('Progressing', 'False', TIMED_OUT, `${what} has timed out progressing.`, o.now));
    }
  }
  const failure = [...all]
    .map((rs) => rs.status?.conditions?.find((c) => c.type === 'ReplicaFailure'))
    .find((c) => c !== undefined);
  const failureOfNew = newRS?.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
  const f = failureOfNew ?? failure;
  if (f) {
    setCondition(s, {
      type: 'ReplicaFailure',
      status: f.status,
      lastUpdateTime: f.lastTransitionTime,
      lastTransitionTime: f.lastTransitionTime,
      reason: f.reason,
      message: f.message,
    });
  } else removeCondition(s, 'ReplicaFailure');
  return s;
}

/** The status as written (zero counts omitted), for comparison and the write. */
export function statusForWrite(s: DeploymentStatus): DeploymentStatus {
  return withoutZeros(s);
}

/**
 * kube's `requeueStuckDeployment`: when a rollout is progressing against a deadline, the delay
 * (ms) after which it must be checked again; undefined when none is needed.
 */
export function stuckRecheckDelayMs(d: Deployment, s: DeploymentStatus, nowMs: number): number | undefined {
  const c = getCondition(s, 'Progressing');
  if (!hasProgressDeadline(d) || !c || c.reason === NEW_RS_AVAILABLE || c.reason === TIMED_OUT) return undefined;
  if (deploymentComplete(d, s)) return undefined;
  const after = (timeMs(c.lastUpdateTime) ?? nowMs) + (d.spec.progressDeadlineSeconds ?? 0) * 1000 - nowMs;
  return after < 1000 ? 0 : after;
}
