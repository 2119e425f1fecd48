/**
 * One sync of one Job, as kube-controller-manager v1.32's `syncJob`: count the Job's pods,
 * decide whether it failed (backoff limit, active deadline, pod failure policy) or succeeded,
 * create or delete pods towards `parallelism` / `completions` (suspended Jobs have none), and
 * track finished pods through `status.uncountedTerminatedPods` and the pods' tracking
 * finalizer so that every pod is counted exactly once; terminal conditions come after the
 * interim `FailureTarget` / `SuccessCriteriaMet` ones, once no pod is left terminating.
 */

import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import type { Informer } from '../../client/informer/informer.js';
import type { Clock } from '../../util/clock.js';
import { formatTime } from '../../util/clock.js';
import { CompletedIndexes } from './completed-indexes.js';
import type { JobExpectations } from './job-expectations.js';
import {
  completionIndex,
  controllingJob,
  hasFinalizer,
  isActive,
  isPodFailed,
  isReady,
  isTerminating,
  type JobNames,
  newJobPod,
  onlyReplaceFailedPods,
  podPhase,
} from './job-pods.js';
import {
  conditionTrue,
  ensureCondition,
  findCondition,
  isJobFinished,
  type JobCondition,
  list,
  newCondition,
  obj,
  pastBackoffLimitOnFailure,
  podFailureBackoffRemainingMs,
} from './job-status.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';

type Obj = Record<string, unknown>;

/** kube's MaxUncountedPods: at most this many pods are moved through the uncounted lists per sync. */
const MAX_UNCOUNTED_PODS = 500;

export interface JobSyncDeps {
  readonly jobs: ResourceClient;
  readonly pods: ResourceClient;
  readonly podCache: Informer;
  readonly names: JobNames;
  readonly expectations: JobExpectations;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  /** Syncs the Job again after `ms`. */
  requeueAfter(key: string, ms: number): void;
}

const isNotFound = (e: unknown) => e instanceof StatusError && e.code === 404;

/** The pods the Job controls (controller reference with the Job's uid). */
export function podsOfJob(podCache: Informer, job: ApiObject): ApiObject[] {
  const uid = job.metadata.uid;
  return podCache.list(job.metadata.namespace ?? '').filter((p) => controllingJob(p)?.uid === uid);
}

interface SyncState {
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

function num(v: unknown, fallback = 0): number {
  return typeof v === 'number' ? v : fallback;
}

function uncountedOf(status: Obj): { succeeded: string[]; failed: string[] } {
  const u = obj(status.uncountedTerminatedPods);
  const ids = (v: unknown) => list(v).filter((x): x is string => typeof x === 'string');
  const out = { succeeded: ids(u.succeeded), failed: ids(u.failed) };
  status.uncountedTerminatedPods = out;
  return out;
}

function writeUncounted(status: Obj, u: { succeeded: string[]; failed: string[] }): void {
  status.uncountedTerminatedPods = {
    ...(u.succeeded.length > 0 ? { succeeded: u.succeeded } : {}),
    ...(u.failed.length > 0 ? { failed: u.failed } : {}),
  };
}

export class JobSyncer {
  constructor(private readonly d: JobSyncDeps) {}

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
    uncountedOf(status);
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
    let activePods = pods.filter(isActive);
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
      const { deleted, deletedReady } = await this.deletePods(key, activePods, false);
      if (deleted !== active || !satisfied) s.finished = undefined;
      active -= deleted;
      s.terminating += deleted;
      s.ready -= deletedReady;
    } else {
      let managed = false;
      if (satisfied && !job.metadata.deletionTimestamp) {
        active = await this.manageJob(s, activePods);
        activePods = [];
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
          // A suspended Job is not running: its start time is cleared, and set afresh on resume.
          if (status.startTime !== undefined && status.startTime !== null && active === 0) {
            delete status.startTime;
            suspendChanged = true;
          }
        } else {
          suspendChanged = ensureCondition(status, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
          if (suspendChanged && (status.startTime === undefined || status.startTime === null))
            status.startTime = formatTime(now);
        }
      }
    }
    status.active = active;
    status.ready = s.ready;
    status.terminating = s.terminating;
    const needsUpdate = suspendChanged || statusKey(status) !== before;
    await this.trackStatus(s, needsUpdate);
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

  /** Deletes pods; `dropFinalizer` removes the tracking finalizer first (they are not counted). */
  private async deletePods(
    key: string,
    pods: readonly ApiObject[],
    dropFinalizer: boolean,
  ): Promise<{ deleted: number; deletedReady: number }> {
    let deleted = 0;
    let deletedReady = 0;
    let firstError: unknown;
    await Promise.all(
      pods.map(async (p) => {
        const ns = p.metadata.namespace ?? '';
        const name = p.metadata.name ?? '';
        try {
          if (dropFinalizer && hasFinalizer(p, this.d.names.trackingFinalizer)) await this.removeFinalizer(key, p);
          this.d.expectations.deleted(key, p.metadata.uid ?? '', name);
          await this.d.pods.delete(ns, name, {}, this.d.signal);
          deleted++;
          if (isReady(p)) deletedReady++;
        } catch (e) {
          if (isNotFound(e)) {
            deleted++;
            return;
          }
          firstError ??= e;
        }
      }),
    );
    if (firstError) throw firstError;
    return { deleted, deletedReady };
  }

  private async removeFinalizer(key: string, p: ApiObject): Promise<void> {
    const finalizers = p.metadata.finalizers ?? [];
    const i = finalizers.indexOf(this.d.names.trackingFinalizer);
    if (i < 0) return;
    this.d.expectations.finalizerRemoved(key, p.metadata.uid ?? '', p.metadata.name ?? '');
    // A JSON patch naming the finalizer's position, guarded by a test of it and of the uid.
    const patch = [
      { op: 'test', path: '/metadata/uid', value: p.metadata.uid },
      { op: 'test', path: `/metadata/finalizers/${i}`, value: this.d.names.trackingFinalizer },
      { op: 'remove', path: `/metadata/finalizers/${i}` },
    ];
    try {
      await this.d.pods.patch(p.metadata.namespace ?? '', p.metadata.name ?? '', 'json', patch, this.d.signal);
    } catch (e) {
      if (isNotFound(e)) return;
      if (e instanceof StatusError && (e.code === 422 || e.code === 409)) {
        // The finalizer list changed under us: fall back to reading the pod afresh.
        const live = await this.d.pods
          .get(p.metadata.namespace ?? '', p.metadata.name ?? '', this.d.signal)
          .catch((err: unknown) => {
            if (isNotFound(err)) return undefined;
            throw err;
          });
        if (!live || live.metadata.uid !== p.metadata.uid || !hasFinalizer(live, this.d.names.trackingFinalizer))
          return;
        await this.removeFinalizer(key, live);
        return;
      }
      throw e;
    }
  }

  /** kube's `manageJob`: returns the number of active pods after creating or deleting. */
  private async manageJob(s: SyncState, activePods: ApiObject[]): Promise<number> {
    const spec = s.spec;
    let active = activePods.length;
    if (spec.suspend === true) {
      const { deleted, deletedReady } = await this.deletePods(s.key, activePods, true);
      s.terminating += deleted;
      s.ready -= deletedReady;
      return active - deleted;
    }
    if (s.indexed) {
      const extra = this.surplusIndexedPods(s, activePods);
      if (extra.length > 0) {
        const { deleted, deletedReady } = await this.deletePods(s.key, extra, true);
        s.terminating += deleted;
        s.ready -= deletedReady;
        const gone = new Set(extra);
        activePods = activePods.filter((p) => !gone.has(p));
        return active - deleted;
      }
    }
    const parallelism = num(spec.parallelism, 1);
    let wantActive: number;
    if (s.completions === undefined) wantActive = s.succeeded > 0 ? active : parallelism;
    else wantActive = Math.max(0, Math.min(s.completions - s.succeeded, parallelism));
    if (active > wantActive) {
      const victims = [...activePods].sort(removalOrder).slice(0, active - wantActive);
      const { deleted, deletedReady } = await this.deletePods(s.key, victims, true);
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
    active += await this.createPods(s, indexes);
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

  /** Creates pods in slow-start batches (1, 2, 4, ...), stopping at the first failing batch. */
  private async createPods(s: SyncState, indexes: (number | undefined)[]): Promise<number> {
    let created = 0;
    let batch = 1;
    let next = 0;
    while (next < indexes.length) {
      const chunk = indexes.slice(next, next + batch);
      next += chunk.length;
      const results = await Promise.allSettled(
        chunk.map(async (ix) => {
          const pod = await this.d.pods.create(
            s.job.metadata.namespace ?? '',
            newJobPod(s.job, this.d.names, ix),
            this.d.signal,
          );
          this.d.expectations.created(s.key, pod.metadata.name ?? '');
        }),
      );
      const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      created += results.length - failures.length;
      if (failures.length > 0) throw failures[0].reason;
      batch *= 2;
    }
    return created;
  }

  /**
   * kube's `trackJobStatusAndRemoveFinalizers`: finished pods still carrying the finalizer go to
   * the uncounted lists (flushed first), their finalizers are removed, then they move to the
   * counters; the terminal condition is set once nothing is uncounted or terminating.
   */
  private async trackStatus(s: SyncState, needsUpdate: boolean): Promise<void> {
    const { status, spec, indexed } = s;
    const uncounted = uncountedOf(status);
    const finalizer = this.d.names.trackingFinalizer;
    let pods = s.pods;
    if (indexed)
      pods = [...pods].sort(
        (a, b) => (completionIndex(a, this.d.names) ?? -1) - (completionIndex(b, this.d.names) ?? -1),
      );
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
      const ix = completionIndex(p, this.d.names);
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
          const counts =
            !isObjLike(spec.podFailurePolicy) || matchPodFailurePolicy(spec.podFailurePolicy, p).countFailed;
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
      finished = newCondition('Failed', 'True', finished.reason ?? '', finished.message ?? '', this.d.clock.now());
    }
    if (finished?.type === 'SuccessCriteriaMet') {
      if (!conditionTrue({ ...s.job, status }, 'SuccessCriteriaMet')) {
        status.conditions = [...list(status.conditions), finished];
        flush = true;
      }
      finished = newCondition('Complete', 'True', finished.reason ?? '', finished.message ?? '', this.d.clock.now());
    }
    writeUncounted(status, uncounted);
    if (flush) {
      await this.updateStatus(s, status);
      flush = false;
    }
    // Remove the finalizers of the pods now recorded, then count them.
    let rmError: unknown;
    await Promise.all(
      toRemove.map(async (p) => {
        try {
          await this.removeFinalizer(s.key, p);
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
      if (flush) await this.updateStatus(s, status);
      throw rmError;
    }
    if (!capped && finished && after.succeeded.length + after.failed.length === 0 && s.terminating === 0) {
      const now = this.d.clock.now();
      ensureCondition(status, finished.type, 'True', finished.reason ?? '', finished.message ?? '', now);
      if (finished.type === 'Complete') status.completionTime = formatTime(now);
      flush = true;
    }
    if (flush) await this.updateStatus(s, status);
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

/** Moves uncounted uids whose pods no longer carry the finalizer into the counters. */
function moveCounted(
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
function statusKey(status: Obj): string {
  const copy = structuredClone(status);
  writeUncounted(copy, uncountedOf(copy));
  for (const f of ['active', 'succeeded', 'failed']) if (copy[f] === 0) delete copy[f];
  if (copy.completedIndexes === '') delete copy.completedIndexes;
  return JSON.stringify(copy);
}

function isObjLike(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Which active pods go first when there are too many (kube's `ActivePods` order): unscheduled
 * before scheduled, Pending before Running, not ready before ready, newer before older.
 */
function removalOrder(a: ApiObject, b: ApiObject): number {
  const scheduled = (p: ApiObject) => (obj(p.spec).nodeName ? 1 : 0);
  const phaseRank = (p: ApiObject) => ({ Pending: 0, Unknown: 1, Running: 2 })[podPhase(p)] ?? 0;
  const ready = (p: ApiObject) => (isReady(p) ? 1 : 0);
  const created = (p: ApiObject) => Date.parse(p.metadata.creationTimestamp ?? '') || 0;
  return scheduled(a) - scheduled(b) || phaseRank(a) - phaseRank(b) || ready(a) - ready(b) || created(b) - created(a);
}
