/**
 * One sync of one Job, as kube-controller-manager v1.32's `syncJob`: count the Job's pods,
 * decide whether it failed (backoff limit, active deadline, pod failure policy) or succeeded,
 * create or delete pods towards `parallelism` / `completions` (suspended Jobs have none), and
 * track finished pods through `status.uncountedTerminatedPods` and the pods' tracking
 * finalizer so that every pod is counted exactly once; terminal conditions come after the
 * interim `FailureTarget` / `SuccessCriteriaMet` ones, once no pod is left terminating.
 */

import type { ApiObject } from '../../apis/object.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import type { Informer } from '../../client/informer/informer.js';
import type { Clock } from '../../util/clock.js';
import { formatTime } from '../../util/clock.js';
import { CompletedIndexes } from './completed-indexes.js';
import type { EventRecorder } from './event-recorder.js';
import type { JobExpectations } from './job-expectations.js';
import { JobPodControl, removalOrder } from './job-pod-control.js';
import {
  completionIndex,
  controllingJob,
  hasFinalizer,
  isActive,
  isPodFailed,
  isReady,
  isTerminating,
  type JobNames,
  onlyReplaceFailedPods,
  podPhase,
} from './job-pods.js';
import {
  ensureCondition,
  findCondition,
  isJobFinished,
  newCondition,
  obj,
  pastBackoffLimitOnFailure,
  podFailureBackoffRemainingMs,
} from './job-status.js';
import { type SyncState, statusKey, trackStatus, uncountedOf } from './job-tracking.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';

type Obj = Record<string, unknown>;

export interface JobSyncDeps {
  readonly jobs: ResourceClient;
  readonly pods: ResourceClient;
  readonly podCache: Informer;
  readonly names: JobNames;
  readonly expectations: JobExpectations;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly recorder: EventRecorder;
  /** Syncs the Job again after `ms`. */
  requeueAfter(key: string, ms: number): void;
}

/** The pods the Job controls (controller reference with the Job's uid). */
export function podsOfJob(podCache: Informer, job: ApiObject): ApiObject[] {
  const uid = job.metadata.uid;
  return podCache.list(job.metadata.namespace ?? '').filter((p) => controllingJob(p)?.uid === uid);
}

function num(v: unknown, fallback = 0): number {
  return typeof v === 'number' ? v : fallback;
}

export class JobSyncer {
  private readonly control: JobPodControl;
  constructor(private readonly d: JobSyncDeps) {
    this.control = new JobPodControl(d);
  }

  /** Syncs the Job cached as `job` (key `<namespace>/<name>`). */
  async sync(key: string, job: ApiObject): Promise<void> {
    if (isJobFinished(job)) {
      this.d.expectations.forget(key);
      return;
    }
    const ns = job.metadata.namespace ?? '';
    const spec = obj(job.spec);
    const status: Obj = structuredClone(obj(job.status));
    const before = statusKey(status);
    const indexed = spec.completionMode === 'Indexed';
    const completions = typeof spec.completions === 'number' ? spec.completions : undefined;
    const satisfied = this.d.expectations.satisfied(key, ns);
    const expectedRm = this.d.expectations.pendingFinalizerRemovals(key, ns, this.d.names.trackingFinalizer);
    const pods = podsOfJob(this.d.podCache, job);
    const now = this.d.clock.now();
    const s: SyncState = {
      key,
      job,
      spec,
      status,
      pods,
      indexed,
      completions,
      expectedRm,
      terminating: pods.filter(isTerminating).length,
      ready: pods.filter((p) => isActive(p) && isReady(p)).length,
      succeeded: 0,
      succeededIndexes: CompletedIndexes.EMPTY,
      prevSucceededIndexes: CompletedIndexes.EMPTY,
      finished: undefined,
    };
    const activePods = pods.filter(isActive);
    const uncounted = uncountedOf(status);
    const tracked = (p: ApiObject) =>
      hasFinalizer(p, this.d.names.trackingFinalizer) && !expectedRm.has(p.metadata.uid ?? '');
    const validIndex = (p: ApiObject) => {
      if (!indexed) return true;
      const ix = completionIndex(p, this.d.names);
      return ix !== undefined && ix < (completions ?? 0);
    };
    const newSucceeded = pods.filter(
      (p) =>
        tracked(p) &&
        validIndex(p) &&
        podPhase(p) === 'Succeeded' &&
        !uncounted.succeeded.includes(p.metadata.uid ?? ''),
    );
    const newFailed = pods.filter(
      (p) =>
        tracked(p) &&
        validIndex(p) &&
        podPhase(p) !== 'Succeeded' &&
        isPodFailed(p, spec) &&
        !uncounted.failed.includes(p.metadata.uid ?? ''),
    );
    const countedNewFailed = isObjLike(spec.podFailurePolicy)
      ? newFailed.filter((p) => matchPodFailurePolicy(spec.podFailurePolicy, p).countFailed).length
      : newFailed.length;
    s.succeeded = num(status.succeeded) + newSucceeded.length + uncounted.succeeded.length;
    const failed = num(status.failed) + countedNewFailed + uncounted.failed.length;
    const suspended = spec.suspend === true;

    if (status.startTime === undefined || status.startTime === null) {
      if (!suspended) status.startTime = formatTime(now);
    }

    const backoffLimit = num(spec.backoffLimit, 6);
    const successMet = findCondition(status, 'SuccessCriteriaMet');
    if (successMet?.status === 'True') s.finished = successMet;
    if (!s.finished) {
      const target = findCondition(status, 'FailureTarget');
      if (target?.status === 'True') {
        s.finished = newCondition('Failed', 'True', target.reason ?? '', target.message ?? '', now);
      } else {
        const message = this.failJobMessage(spec, pods);
        if (message) s.finished = newCondition('FailureTarget', 'True', 'PodFailurePolicy', message, now);
      }
    }
    if (!s.finished) {
      if (failed > backoffLimit || pastBackoffLimitOnFailure(spec, pods)) {
        s.finished = newCondition(
          'FailureTarget',
          'True',
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
          now,
        );
      } else if (typeof spec.activeDeadlineSeconds === 'number' && !suspended && status.startTime) {
        const remaining = Date.parse(String(status.startTime)) + spec.activeDeadlineSeconds * 1000 - now.getTime();
        if (remaining <= 0) {
          s.finished = newCondition(
            'FailureTarget',
            'True',
            'DeadlineExceeded',
            'Job was active longer than specified deadline',
            now,
          );
        } else this.d.requeueAfter(key, remaining);
      }
    }

    if (indexed) {
      s.prevSucceededIndexes = CompletedIndexes.parse(
        typeof status.completedIndexes === 'string' ? status.completedIndexes : '',
        completions ?? 0,
      );
      const fresh = pods
        .filter((p) => podPhase(p) === 'Succeeded' && tracked(p))
        .map((p) => completionIndex(p, this.d.names))
        .filter((ix): ix is number => ix !== undefined && ix < (completions ?? 0));
      s.succeededIndexes = s.prevSucceededIndexes.with(fresh);
      s.succeeded = s.succeededIndexes.total;
    }

    let active = activePods.length;
    let suspendChanged = false;
    if (s.finished) {
      const { deleted, deletedReady } = await this.control.deletePods(key, activePods, false, job);
      if (deleted !== active || !satisfied) s.finished = undefined;
      active -= deleted;
      s.terminating += deleted;
      s.ready -= deletedReady;
    } else {
      let managed = false;
      if (satisfied && !job.metadata.deletionTimestamp) {
        active = await this.manageJob(s, activePods);
        managed = true;
      }
      const complete =
        completions === undefined ? s.succeeded > 0 && active === 0 : s.succeeded >= completions && active === 0;
      if (complete) {
        s.finished = newCondition(
          'SuccessCriteriaMet',
          'True',
          'CompletionsReached',
          'Reached expected number of succeeded pods',
          now,
        );
      } else if (managed) {
        if (suspended) {
          suspendChanged = ensureCondition(status, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now);
          if (suspendChanged) this.d.recorder.record(job, 'Normal', 'Suspended', 'Job suspended');
          // A suspended Job is not running: its start time is cleared, and set afresh on resume.
          if (status.startTime !== undefined && status.startTime !== null && active === 0) {
            delete status.startTime;
            suspendChanged = true;
          }
        } else {
          suspendChanged = ensureCondition(status, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
          if (suspendChanged) this.d.recorder.record(job, 'Normal', 'Resumed', 'Job resumed');
          if (suspendChanged && (status.startTime === undefined || status.startTime === null))
            status.startTime = formatTime(now);
        }
      }
    }
    status.active = active;
    status.ready = s.ready;
    status.terminating = s.terminating;
    const needsUpdate = suspendChanged || statusKey(status) !== before;
    await trackStatus(
      {
        names: this.d.names,
        clock: this.d.clock,
        control: this.control,
        recorder: this.d.recorder,
        updateStatus: (st, status) => this.updateStatus(st, status),
      },
      s,
      needsUpdate,
    );
  }

  private failJobMessage(spec: Obj, pods: readonly ApiObject[]): string | undefined {
    if (!isObjLike(spec.podFailurePolicy)) return undefined;
    for (const p of pods) {
      if (!isPodFailed(p, spec)) continue;
      const m = matchPodFailurePolicy(spec.podFailurePolicy, p);
      if (m.failJobMessage) return m.failJobMessage;
    }
    return undefined;
  }

  /** kube's `manageJob`: returns the number of active pods after creating or deleting. */
  private async manageJob(s: SyncState, activePods: readonly ApiObject[]): Promise<number> {
    const spec = s.spec;
    let active = activePods.length;
    if (spec.suspend === true) {
      const { deleted, deletedReady } = await this.control.deletePods(s.key, activePods, true, s.job);
      s.terminating += deleted;
      s.ready -= deletedReady;
      return active - deleted;
    }
    if (s.indexed) {
      const extra = this.surplusIndexedPods(s, activePods);
      if (extra.length > 0) {
        const { deleted, deletedReady } = await this.control.deletePods(s.key, extra, true, s.job);
        s.terminating += deleted;
        s.ready -= deletedReady;
        // Pods are created for the missing indexes on the next sync, once the deletions show.
        return active - deleted;
      }
    }
    const parallelism = num(spec.parallelism, 1);
    let wantActive: number;
    if (s.completions === undefined) wantActive = s.succeeded > 0 ? active : parallelism;
    else wantActive = Math.max(0, Math.min(s.completions - s.succeeded, parallelism));
    if (active > wantActive) {
      const victims = [...activePods].sort(removalOrder).slice(0, active - wantActive);
      const { deleted, deletedReady } = await this.control.deletePods(s.key, victims, true, s.job);
      s.terminating += deleted;
      s.ready -= deletedReady;
      return active - deleted;
    }
    let diff = wantActive - active;
    if (onlyReplaceFailedPods(spec)) diff -= s.terminating;
    if (diff <= 0) return active;
    const wait = podFailureBackoffRemainingMs(s.pods, spec, this.d.clock.now().getTime());
    if (wait > 0) {
      this.d.requeueAfter(s.key, wait);
      return active;
    }
    let indexes: (number | undefined)[];
    if (s.indexed) {
      const taken = new Set(activePods.map((p) => completionIndex(p, this.d.names)));
      indexes = [];
      for (let i = 0; i < (s.completions ?? 0) && indexes.length < diff; i++) {
        if (!taken.has(i) && !s.succeededIndexes.has(i)) indexes.push(i);
      }
    } else indexes = Array.from({ length: diff }, () => undefined);
    active += await this.control.createPods(s.key, s.job, indexes);
    return active;
  }

  /** Active pods of an Indexed Job beyond one per pending index (out of range, duplicate or done). */
  private surplusIndexedPods(s: SyncState, activePods: readonly ApiObject[]): ApiObject[] {
    const seen = new Set<number>();
    const extra: ApiObject[] = [];
    for (const p of [...activePods].sort((a, b) => -removalOrder(a, b))) {
      const ix = completionIndex(p, this.d.names);
      if (ix === undefined || ix >= (s.completions ?? 0) || seen.has(ix) || s.succeededIndexes.has(ix)) extra.push(p);
      else seen.add(ix);
    }
    return extra;
  }

  private async updateStatus(s: SyncState, status: Obj): Promise<void> {
    const written = structuredClone(status);
    // As kube's JSON: zero counters and an empty index list are omitted.
    for (const f of ['active', 'succeeded', 'failed']) if (written[f] === 0) delete written[f];
    if (written.completedIndexes === '') delete written.completedIndexes;
    const updated = await this.d.jobs.update({ ...s.job, status: written }, this.d.signal, {
      subresource: 'status',
    });
    s.job = updated;
  }
}

function isObjLike(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
