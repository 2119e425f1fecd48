/**
 * The pod writes of the Job controller (kube's pod control): creating pods in slow-start
 * batches, deleting them, and removing the tracking finalizer, each recorded as an expectation.
 */
import type { ApiObject } from '../../apis/object.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import { isStatus } from '../controller-support.js';
import type { EventRecorder } from './event-recorder.js';
import type { JobExpectations } from './job-expectations.js';
import { hasFinalizer, isReady, type JobNames, newJobPod, podPhase } from './job-pods.js';
import { obj } from './job-status.js';

export interface JobPodControlDeps {
  readonly pods: ResourceClient;
  readonly names: JobNames;
  readonly expectations: JobExpectations;
  readonly signal: AbortSignal;
  readonly recorder: EventRecorder;
}

/**
 * kube's patch removing the tracking finalizer (a strategic merge patch deleting it from the
 * finalizer list, whatever its position; no read needed, which the controller's role lacks).
 */
export function removeTrackingFinalizerPatch(names: JobNames): unknown {
  return { metadata: { '$deleteFromPrimitiveList/finalizers': [names.trackingFinalizer] } };
}

export class JobPodControl {
  constructor(private readonly d: JobPodControlDeps) {}

  /** Deletes pods; `dropFinalizer` removes the tracking finalizer first (they are not counted). */
  async deletePods(
    key: string,
    pods: readonly ApiObject[],
    dropFinalizer: boolean,
    job?: ApiObject,
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
          if (job) this.d.recorder.record(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
          deleted++;
          if (isReady(p)) deletedReady++;
        } catch (e) {
          if (isStatus(e, 404)) {
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

  async removeFinalizer(key: string, p: ApiObject): Promise<void> {
    if (!hasFinalizer(p, this.d.names.trackingFinalizer)) return;
    this.d.expectations.finalizerRemoved(key, p.metadata.uid ?? '', p.metadata.name ?? '');
    try {
      await this.d.pods.patch(
        p.metadata.namespace ?? '',
        p.metadata.name ?? '',
        'strategic',
        removeTrackingFinalizerPatch(this.d.names),
        this.d.signal,
      );
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }

  /** Creates pods in slow-start batches (1, 2, 4, ...), stopping at the first failing batch. */
  async createPods(key: string, job: ApiObject, indexes: (number | undefined)[]): Promise<number> {
    let created = 0;
    let batch = 1;
    let next = 0;
    while (next < indexes.length) {
      const chunk = indexes.slice(next, next + batch);
      next += chunk.length;
      const results = await Promise.allSettled(
        chunk.map(async (ix) => {
          const pod = await this.d.pods.create(
            job.metadata.namespace ?? '',
            newJobPod(job, this.d.names, ix),
            this.d.signal,
          );
          this.d.expectations.created(key, pod.metadata.name ?? '');
          this.d.recorder.record(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
        }),
      );
      const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      created += results.length - failures.length;
      if (failures.length > 0) {
        const reason = failures[0].reason as Error;
        this.d.recorder.record(job, 'Warning', 'FailedCreate', `Error creating: ${reason.message}`);
        throw reason;
      }
      batch *= 2;
    }
    return created;
  }
}

/**
 * Which active pods go first when there are too many (kube's `ActivePods` order): unscheduled
 * before scheduled, Pending before Running, not ready before ready, newer before older.
 */
export function removalOrder(a: ApiObject, b: ApiObject): number {
  const scheduled = (p: ApiObject) => (obj(p.spec).nodeName ? 1 : 0);
  const phaseRank = (p: ApiObject) => ({ Pending: 0, Unknown: 1, Running: 2 })[podPhase(p)] ?? 0;
  const ready = (p: ApiObject) => (isReady(p) ? 1 : 0);
  const created = (p: ApiObject) => Date.parse(p.metadata.creationTimestamp ?? '') || 0;
  return scheduled(a) - scheduled(b) || phaseRank(a) - phaseRank(b) || ready(a) - ready(b) || created(b) - created(a);
}
