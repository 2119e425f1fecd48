/**
 * Exact pod counting of the Job controller (kube's `trackJobStatusAndRemoveFinalizers`):
 * finished pods that still carry the tracking finalizer are first written to
 * `status.uncountedTerminatedPods`, then released (finalizer removed), then moved into the
 * `succeeded` / `failed` counters, so a pod is counted once even across crashes and stale caches.
 */
import type { ApiObject } from '../../apis/object.js';
import type { Clock } from '../../util/clock.js';
import { formatTime } from '../../util/clock.js';
import type { CompletedIndexes } from './completed-indexes.js';
import type { EventRecorder } from './event-recorder.js';
import type { JobPodControl } from './job-pod-control.js';
import { completionIndex, hasFinalizer, isPodFailed, type JobNames, podPhase } from './job-pods.js';
import { conditionTrue, ensureCondition, type JobCondition, list, newCondition, obj } from './job-status.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';

type Obj = Record<string, unknown>;

/** kube's MaxUncountedPods: at most this many pods are moved through the uncounted lists per sync. */
const MAX_UNCOUNTED_PODS = 500;

/** What one sync of a Job has worked out. */
export interface SyncState {
  readonly key: string;
  job: ApiObject;
  readonly spec: Obj;
  readonly status: Obj;
  readonly pods: ApiObject[];
  readonly indexed: boolean;
  readonly completions: number | undefined;
  readonly expectedRm: ReadonlySet<string>;
  terminating: number;
  ready: number;
  succeeded: number;
  succeededIndexes: CompletedIndexes;
  prevSucceededIndexes: CompletedIndexes;
  finished: JobCondition | undefined;
}

export interface TrackingDeps {
  readonly names: JobNames;
  readonly clock: Clock;
  readonly control: JobPodControl;
  readonly recorder: EventRecorder;
  updateStatus(s: SyncState, status: Obj): Promise<void>;
}

function num(v: unknown, fallback = 0): number {
  return typeof v === 'number' ? v : fallback;
}

function isObjLike(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function uncountedOf(status: Obj): { succeeded: string[]; failed: string[] } {
  const u = obj(status.uncountedTerminatedPods);
  const ids = (v: unknown) => list(v).filter((x): x is string => typeof x === 'string');
  const out = { succeeded: ids(u.succeeded), failed: ids(u.failed) };
  status.uncountedTerminatedPods = out;
  return out;
}

export function writeUncounted(status: Obj, u: { succeeded: string[]; failed: string[] }): void {
  status.uncountedTerminatedPods = {
    ...(u.succeeded.length > 0 ? { succeeded: u.succeeded } : {}),
    ...(u.failed.length > 0 ? { failed: u.failed } : {}),
  };
}

/** Moves uncounted uids whose pods no longer carry the finalizer into the counters. */
export function moveCounted(
  status: Obj,
  uncounted: { succeeded: string[]; failed: string[] },
  withFinalizer: ReadonlySet<string>,
): boolean {
  const keepS = uncounted.succeeded.filter((u) => withFinalizer.has(u));
  const keepF = uncounted.failed.filter((u) => withFinalizer.has(u));
  const changed = keepS.length !== uncounted.succeeded.length || keepF.length !== uncounted.failed.length;
  status.succeeded = num(status.succeeded) + uncounted.succeeded.length - keepS.length;
  status.failed = num(status.failed) + uncounted.failed.length - keepF.length;
  uncounted.succeeded.splice(0, uncounted.succeeded.length, ...keepS);
  uncounted.failed.splice(0, uncounted.failed.length, ...keepF);
  return changed;
}

/**
 * A status compared by meaning: uncounted lists normalized, zero counters and empty index lists
 * (which the API omits) dropped, so a sync that changes nothing writes nothing.
 */
export function statusKey(status: Obj): string {
  const copy = structuredClone(status);
  writeUncounted(copy, uncountedOf(copy));
  for (const f of ['active', 'succeeded', 'failed']) if (copy[f] === 0) delete copy[f];
  if (copy.completedIndexes === '') delete copy.completedIndexes;
  return JSON.stringify(copy);
}

/**
 * kube's `trackJobStatusAndRemoveFinalizers`: finished pods still carrying the finalizer go to
 * the uncounted lists (flushed first), their finalizers are removed, then they move to the
 * counters; the terminal condition is set once nothing is uncounted or terminating.
 */
export async function trackStatus(t: TrackingDeps, s: SyncState, needsUpdate: boolean): Promise<void> {
  const { status, spec, indexed } = s;
  const uncounted = uncountedOf(status);
  const finalizer = t.names.trackingFinalizer;
  let pods = s.pods;
  if (indexed)
    pods = [...pods].sort((a, b) => (completionIndex(a, t.names) ?? -1) - (completionIndex(b, t.names) ?? -1));
  const withFinalizer = new Set(
    pods
      .filter((p) => hasFinalizer(p, finalizer) && !s.expectedRm.has(p.metadata.uid ?? ''))
      .map((p) => p.metadata.uid ?? ''),
  );
  let flush = needsUpdate;
  if (moveCounted(status, uncounted, withFinalizer)) flush = true;
  const toRemove: ApiObject[] = [];
  const newIndexes: number[] = [];
  let capped = false;
  const terminalFailure = s.finished !== undefined && s.finished.type !== 'SuccessCriteriaMet';
  for (const p of pods) {
    const uid = p.metadata.uid ?? '';
    if (!hasFinalizer(p, finalizer) || s.expectedRm.has(uid)) continue;
    const considerFailed = isPodFailed(p, spec);
    const canRemove =
      !!s.job.metadata.deletionTimestamp || s.finished !== undefined || podPhase(p) === 'Succeeded' || considerFailed;
    if (!canRemove) continue;
    toRemove.push(p);
    const ix = completionIndex(p, t.names);
    if (podPhase(p) === 'Succeeded' && !uncounted.failed.includes(uid)) {
      if (indexed) {
        if (ix !== undefined && ix < (s.completions ?? 0) && !s.prevSucceededIndexes.has(ix)) {
          newIndexes.push(ix);
          flush = true;
        }
      } else if (!uncounted.succeeded.includes(uid)) {
        uncounted.succeeded.push(uid);
        flush = true;
      }
    } else if (considerFailed || terminalFailure) {
      const inRange = !indexed || (ix !== undefined && ix < (s.completions ?? 0));
      if (!uncounted.failed.includes(uid) && inRange) {
        const counts = !isObjLike(spec.podFailurePolicy) || matchPodFailurePolicy(spec.podFailurePolicy, p).countFailed;
        if (counts) {
          uncounted.failed.push(uid);
          flush = true;
        }
      }
    }
    if (newIndexes.length + uncounted.succeeded.length + uncounted.failed.length >= MAX_UNCOUNTED_PODS) {
      capped = true;
      break;
    }
  }
  if (indexed) {
    const all = s.prevSucceededIndexes.with(newIndexes);
    const text = all.toString();
    if (text !== (status.completedIndexes ?? '')) flush = true;
    status.completedIndexes = text;
    status.succeeded = all.total;
  }
  let finished = s.finished;
  if (finished?.type === 'FailureTarget') {
    status.conditions = [...list(status.conditions), finished];
    flush = true;
    finished = newCondition('Failed', 'True', finished.reason ?? '', finished.message ?? '', t.clock.now());
  }
  if (finished?.type === 'SuccessCriteriaMet') {
    if (!conditionTrue({ ...s.job, status }, 'SuccessCriteriaMet')) {
      status.conditions = [...list(status.conditions), finished];
      flush = true;
    }
    finished = newCondition('Complete', 'True', finished.reason ?? '', finished.message ?? '', t.clock.now());
  }
  writeUncounted(status, uncounted);
  if (flush) {
    await t.updateStatus(s, status);
    flush = false;
  }
  // Remove the finalizers of the pods now recorded, then count them.
  let rmError: unknown;
  await Promise.all(
    toRemove.map(async (p) => {
      try {
        await t.control.removeFinalizer(s.key, p);
        withFinalizer.delete(p.metadata.uid ?? '');
      } catch (e) {
        rmError ??= e;
      }
    }),
  );
  const after = uncountedOf(status);
  if (moveCounted(status, after, withFinalizer)) flush = true;
  writeUncounted(status, after);
  if (rmError) {
    if (flush) await t.updateStatus(s, status);
    throw rmError;
  }
  let enacted = false;
  if (!capped && finished && after.succeeded.length + after.failed.length === 0 && s.terminating === 0) {
    const now = t.clock.now();
    ensureCondition(status, finished.type, 'True', finished.reason ?? '', finished.message ?? '', now);
    if (finished.type === 'Complete') status.completionTime = formatTime(now);
    flush = true;
    enacted = true;
  }
  if (flush) await t.updateStatus(s, status);
  if (enacted && finished) {
    if (finished.type === 'Complete') {
      if (s.completions !== undefined && num(status.succeeded) > s.completions)
        t.recorder.record(
          s.job,
          'Warning',
          'TooManySucceededPods',
          'Too many succeeded pods running after completion count reached',
        );
      t.recorder.record(s.job, 'Normal', 'Completed', 'Job completed');
    } else t.recorder.record(s.job, 'Warning', finished.reason ?? '', finished.message ?? '');
  }
}
