import type { Pod, PodTemplateSpec } from '../../apis/core/pod-types.js';
import type { ApiObject } from '../../apis/object.js';
import { isPodAvailable, isPodReady } from './pod-status.js';

/** A ReplicaSet or ReplicationController as this controller reads it. */
export interface ReplicaOwner extends ApiObject {
  spec?: { replicas?: number; minReadySeconds?: number; template?: PodTemplateSpec; selector?: unknown };
  status?: ReplicaStatus;
}

export interface ReplicaCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `ReplicaSetStatus` (and `ReplicationControllerStatus`): zero counts are omitted, as kube's JSON omits them. */
export interface ReplicaStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaCondition[];
}

const FAILURE = 'ReplicaFailure';

function withoutZeros(s: ReplicaStatus): ReplicaStatus {
  const out: ReplicaStatus = { replicas: s.replicas ?? 0 };
  if (s.fullyLabeledReplicas) out.fullyLabeledReplicas = s.fullyLabeledReplicas;
  if (s.readyReplicas) out.readyReplicas = s.readyReplicas;
  if (s.availableReplicas) out.availableReplicas = s.availableReplicas;
  if (s.observedGeneration) out.observedGeneration = s.observedGeneration;
  if (s.conditions && s.conditions.length > 0) out.conditions = s.conditions;
  return out;
}

/**
 * kube's `calculateStatus`: counts of the controller's active pods (all, fully labeled by the
 * template's labels, ready, available after `minReadySeconds`), and the `ReplicaFailure`
 * condition set (`FailedCreate` / `FailedDelete`, the error's message) while managing the pods
 * fails and removed once it succeeds.
 */
export function calculateReplicaStatus(
  owner: ReplicaOwner,
  pods: readonly Pod[],
  o: {
    readonly manageError?: unknown;
    readonly creating: boolean;
    readonly now: Date;
    readonly formatTime: (d: Date) => string;
  },
): ReplicaStatus {
  const templateLabels = owner.spec?.template?.metadata?.labels ?? {};
  const minReady = owner.spec?.minReadySeconds ?? 0;
  const nowMs = o.now.getTime();
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of pods) {
    const labels = pod.metadata.labels ?? {};
    if (Object.entries(templateLabels).every(([k, v]) => labels[k] === v)) fullyLabeled++;
    if (isPodReady(pod)) ready++;
    if (isPodAvailable(pod, minReady, nowMs)) available++;
  }
  let conditions = [...(owner.status?.conditions ?? [])];
  const failure = conditions.find((c) => c.type === FAILURE);
  if (o.manageError !== undefined && !failure) {
    conditions.push({
      type: FAILURE,
      status: 'True',
      lastTransitionTime: o.formatTime(o.now),
      reason: o.creating ? 'FailedCreate' : 'FailedDelete',
      message: o.manageError instanceof Error ? o.manageError.message : String(o.manageError),
    });
  } else if (o.manageError === undefined && failure) {
    conditions = conditions.filter((c) => c.type !== FAILURE);
  }
  return withoutZeros({
    replicas: pods.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: owner.status?.observedGeneration,
    conditions,
  });
}

/** Whether the status differs from the owner's (observedGeneration behind the generation counts). */
export function replicaStatusChanged(owner: ReplicaOwner, next: ReplicaStatus): boolean {
  const cur = withoutZeros(owner.status ?? {});
  if ((owner.metadata.generation ?? 0) !== (cur.observedGeneration ?? 0)) return true;
  return JSON.stringify({ ...cur, observedGeneration: 0 }) !== JSON.stringify({ ...next, observedGeneration: 0 });
}
