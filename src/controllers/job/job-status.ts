/**
 * Job status pieces the controller computes: conditions (kube's `newCondition`,
 * `ensureJobConditionStatus`), the pod failure backoff and the terminal-condition checks.
 */
import type { ApiObject } from '../../apis/object.js';
import { formatTime } from '../../util/clock.js';
import { finishedTimeMs, isPodFailed, podPhase } from './job-pods.js';

type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export function newCondition(type: string, status: string, reason: string, message: string, now: Date): JobCondition {
  const t = formatTime(now);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

export function findCondition(status: Obj, type: string): JobCondition | undefined {
  return list(status.conditions).find((c) => obj(c).type === type) as JobCondition | undefined;
}

export function conditionTrue(job: ApiObject, type: string): boolean {
  return findCondition(obj(job.status), type)?.status === 'True';
}

/** Complete=True or Failed=True. */
export function isJobFinished(job: ApiObject): boolean {
  return conditionTrue(job, 'Complete') || conditionTrue(job, 'Failed');
}

/**
 * kube's `ensureJobConditionStatus`: sets the condition (adding it only when `status` is True),
 * returning whether anything changed; the transition time moves only when the status does.
 */
export function ensureCondition(
  status: Obj,
  type: string,
  condStatus: string,
  reason: string,
  message: string,
  now: Date,
): boolean {
  const conditions = list(status.conditions) as JobCondition[];
  const existing = conditions.find((c) => c.type === type);
  if (!existing) {
    if (condStatus !== 'True') return false;
    status.conditions = [...conditions, newCondition(type, condStatus, reason, message, now)];
    return true;
  }
  if (existing.status === condStatus && existing.reason === reason && existing.message === message) return false;
  const t = formatTime(now);
  const updated: JobCondition = {
    ...existing,
    status: condStatus,
    reason,
    message,
    lastProbeTime: t,
    lastTransitionTime: existing.status === condStatus ? existing.lastTransitionTime : t,
  };
  status.conditions = conditions.map((c) => (c === existing ? updated : c));
  return true;
}

/** kube's DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff. */
export const POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

/**
 * How long pod creation must still wait after failures: 10 s doubled per failure since the last
 * success (at most 10 min), counted from the last failure's finish time. Computed from the pods
 * (kube keeps the same record in memory). 0 when no wait.
 */
export function podFailureBackoffRemainingMs(pods: readonly ApiObject[], spec: Obj, nowMs: number): number {
  const finished = pods
    .filter((p) => podPhase(p) === 'Succeeded' || isPodFailed(p, spec))
    .map((p) => ({ failed: podPhase(p) !== 'Succeeded', at: finishedTimeMs(p) }))
    .sort((a, b) => a.at - b.at);
  let failures = 0;
  let lastFailure = 0;
  for (const f of finished) {
    if (f.failed) {
      failures++;
      lastFailure = f.at;
    } else failures = 0;
  }
  if (failures === 0) return 0;
  const backoff = Math.min(MAX_POD_FAILURE_BACKOFF_MS, POD_FAILURE_BACKOFF_MS * 2 ** Math.min(failures - 1, 30));
  return Math.max(0, lastFailure + backoff - nowMs);
}

/** Restarts of running and pending pods reached the backoff limit (restartPolicy OnFailure). */
export function pastBackoffLimitOnFailure(spec: Obj, pods: readonly ApiObject[]): boolean {
  if (obj(obj(spec.template).spec).restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    const phase = podPhase(p);
    if (phase !== 'Running' && phase !== 'Pending') continue;
    const status = obj(p.status);
    for (const cs of [...list(status.initContainerStatuses), ...list(status.containerStatuses)]) {
      const n = obj(cs).restartCount;
      if (typeof n === 'number') restarts += n;
    }
  }
  const limit = typeof spec.backoffLimit === 'number' ? spec.backoffLimit : 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}
