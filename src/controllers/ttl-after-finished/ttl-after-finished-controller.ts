/**
 * The TTL-after-finished controller (kube-controller-manager v1.32's
 * `ttl-after-finished-controller`): deletes a finished Job (`Complete` or `Failed` condition
 * True) `spec.ttlSecondsAfterFinished` seconds after the condition's transition time, by
 * `ctx.clock`, with propagation Foreground. Before deleting it re-reads the Job and checks its
 * TTL again, and deletes with that read's resourceVersion as precondition, so a Job whose TTL was
 * changed meanwhile is kept. A Job not yet expired is queued again for the time left.
 */
import type { ApiObject } from '../../apis/object.js';
import { type ControllerDescriptor, configNumber } from '../controller-descriptor.js';
import { isStatus, newKeyQueue, objectKey, runKeyedLoop, splitKey, timeMs } from '../controller-support.js';
import { list, obj } from '../job/job-status.js';

/** A Job with a TTL that finished and is not being deleted. */
export function needsCleanup(job: ApiObject): boolean {
  return (
    typeof obj(job.spec).ttlSecondsAfterFinished === 'number' &&
    !job.metadata.deletionTimestamp &&
    finishedAt(job) !== null
  );
}

/**
 * When the Job finished: the transition time of its Complete or Failed condition that is True;
 * null when it has not finished, undefined when finished without a time (kube: an error).
 */
export function finishedAt(job: ApiObject): number | null | undefined {
  for (const c of list(obj(job.status).conditions).map(obj)) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') {
      return timeMs(c.lastTransitionTime);
    }
  }
  return null;
}

/** ms until the Job expires (≤ 0: expired), or undefined when it has nothing to expire. */
export function timeLeftMs(job: ApiObject, nowMs: number): number | undefined {
  if (!needsCleanup(job)) return undefined;
  const at = finishedAt(job);
  if (typeof at !== 'number')
    throw new Error(`unable to find the time when the Job ${job.metadata.namespace}/${job.metadata.name} finished`);
  return at + Number(obj(job.spec).ttlSecondsAfterFinished) * 1000 - nowMs;
}

export const ttlAfterFinishedController: ControllerDescriptor = {
  name: 'ttl-after-finished-controller',
  aliases: ['ttl-after-finished'],
  serviceAccount: 'ttl-after-finished-controller',
  enabledByDefault: true,
  configMember: 'TTLAfterFinishedController',
  async run(ctx) {
    const informer = ctx.informers.lookup('batch', 'jobs');
    const jobs = ctx.client.preferred('batch', 'jobs');
    if (!informer || !jobs) throw new Error('ttl-after-finished-controller: jobs are not served');
    const queue = newKeyQueue(ctx);
    const enqueue = (job: ApiObject) => {
      if (needsCleanup(job)) queue.add(objectKey(job));
    };
    informer.addHandlers({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });

    /** The time left, queueing the key for it when it is positive; true when expired. */
    const expired = (key: string, job: ApiObject): boolean => {
      const now = ctx.clock.now().getTime();
      const at = finishedAt(job);
      if (typeof at === 'number' && at > now)
        ctx.logger.warn(
          'Found Job finished in the future. This is likely due to time skew in the cluster. Job cleanup will be deferred.',
          { job: key },
        );
      const left = timeLeftMs(job, now);
      if (left === undefined) return false;
      if (left > 0) {
        queue.addAfter(key, left);
        return false;
      }
      return true;
    };

    await runKeyedLoop(ctx, {
      name: 'ttl-after-finished-controller',
      queue,
      informers: [informer],
      workers: configNumber(ctx.config, 'ConcurrentTTLSyncs', 5),
      resyncKeys: () => informer.list().filter(needsCleanup).map(objectKey),
      process: async (key) => {
        const { namespace, name } = splitKey(key);
        const cached = informer.get(namespace, name);
        if (!cached || !expired(key, cached)) return;
        // The cache may be stale (TTL changed, Job re-created): decide on the live object.
        let fresh: ApiObject;
        try {
          fresh = await jobs.get(namespace, name, ctx.signal);
        } catch (e) {
          if (isStatus(e, 404)) return;
          throw e;
        }
        if (!expired(key, fresh)) return;
        try {
          await jobs.delete(
            namespace,
            name,
            {
              propagationPolicy: 'Foreground',
              preconditions: { resourceVersion: fresh.metadata.resourceVersion },
            },
            ctx.signal,
          );
          ctx.logger.info('Cleaning up Job', { job: key });
        } catch (e) {
          if (isStatus(e, 404)) return;
          throw e;
        }
      },
    });
  },
};
