/**
 * The Job controller (kube-controller-manager v1.32's `job-controller`): runs each Job's pods to
 * completion. See {@link JobSyncer} for what one sync does.
 */

import type { ApiObject } from '../../apis/object.js';
import { type ControllerDescriptor, configNumber } from '../controller-descriptor.js';
import { isStatus, newKeyQueue, objectKey, runKeyedLoop, splitKey } from '../controller-support.js';
import { EventRecorder } from './event-recorder.js';
import { JobExpectations } from './job-expectations.js';
import { removeTrackingFinalizerPatch } from './job-pod-control.js';
import { controllingJob, hasFinalizer, jobNames } from './job-pods.js';
import { isJobFinished } from './job-status.js';
import { JobSyncer } from './job-sync.js';

/** Keys of orphaned pods whose tracking finalizer may have to go: `pod:<namespace>/<name>`. */
const ORPHAN_PREFIX = 'pod:';

export const jobController: ControllerDescriptor = {
  name: 'job-controller',
  aliases: ['job'],
  serviceAccount: 'job-controller',
  enabledByDefault: true,
  configMember: 'JobController',
  async run(ctx) {
    const jobInformer = ctx.informers.lookup('batch', 'jobs');
    const podInformer = ctx.informers.lookup('', 'pods');
    const jobs = ctx.client.preferred('batch', 'jobs');
    const pods = ctx.client.preferred('', 'pods');
    if (!jobInformer || !podInformer || !jobs || !pods) throw new Error('job-controller: jobs or pods are not served');
    const names = jobNames(ctx.domain);
    const queue = newKeyQueue(ctx);
    const expectations = new JobExpectations(podInformer, () => Date.now());
    const syncer = new JobSyncer({
      jobs,
      pods,
      podCache: podInformer,
      names,
      expectations,
      clock: ctx.clock,
      signal: ctx.signal,
      recorder: new EventRecorder(ctx.client.preferred('', 'events'), 'job-controller', ctx.clock, ctx.signal),
      requeueAfter: (key, ms) => queue.addAfter(key, Math.max(0, ms)),
    });

    const onPod = (pod: ApiObject) => {
      const owner = controllingJob(pod);
      const ns = pod.metadata.namespace ?? '';
      const job = owner ? jobInformer.get(ns, owner.name) : undefined;
      if (owner && job && job.metadata.uid === owner.uid) {
        queue.add(objectKey(job));
        if (isJobFinished(job) && hasFinalizer(pod, names.trackingFinalizer)) queue.add(ORPHAN_PREFIX + objectKey(pod));
      } else if (hasFinalizer(pod, names.trackingFinalizer)) queue.add(ORPHAN_PREFIX + objectKey(pod));
    };
    podInformer.addHandlers({ onAdd: onPod, onUpdate: (_o, n) => onPod(n), onDelete: onPod });
    jobInformer.addHandlers({
      onAdd: (j) => queue.add(objectKey(j)),
      onUpdate: (_o, j) => queue.add(objectKey(j)),
      onDelete: (j) => {
        queue.add(objectKey(j));
        for (const p of podInformer.list(j.metadata.namespace ?? '')) {
          if (controllingJob(p)?.uid === j.metadata.uid && hasFinalizer(p, names.trackingFinalizer))
            queue.add(ORPHAN_PREFIX + objectKey(p));
        }
      },
    });

    /** Removes the tracking finalizer of a pod whose Job is gone or finished. */
    const releaseOrphan = async (key: string) => {
      const { namespace, name } = splitKey(key);
      const pod = podInformer.get(namespace, name);
      if (!pod || !hasFinalizer(pod, names.trackingFinalizer)) return;
      const owner = controllingJob(pod);
      if (owner) {
        let job = jobInformer.get(namespace, owner.name);
        if (!job || job.metadata.uid !== owner.uid) {
          // The cache may lag: ask the API before releasing the pod.
          job = await jobs.get(namespace, owner.name, ctx.signal).catch((e: unknown) => {
            if (isStatus(e, 404)) return undefined;
            throw e;
          });
        }
        if (job && job.metadata.uid === owner.uid && !isJobFinished(job)) return;
      }
      await pods
        .patch(namespace, name, 'strategic', removeTrackingFinalizerPatch(names), ctx.signal)
        .catch((e: unknown) => {
          if (isStatus(e, 404)) return;
          throw e;
        });
    };

    await runKeyedLoop(ctx, {
      name: 'job-controller',
      queue,
      informers: [jobInformer, podInformer],
      workers: configNumber(ctx.config, 'ConcurrentJobSyncs', 5),
      resyncKeys: () => jobInformer.list().map(objectKey),
      process: async (key) => {
        if (key.startsWith(ORPHAN_PREFIX)) return releaseOrphan(key.slice(ORPHAN_PREFIX.length));
        const { namespace, name } = splitKey(key);
        const job = jobInformer.get(namespace, name);
        if (!job) {
          expectations.forget(key);
          return;
        }
        try {
          await syncer.sync(key, job);
        } catch (e) {
          // A write based on a stale cached Job: the informer brings the new one, sync again.
          if (isStatus(e, 409)) {
            queue.addAfter(key, 50);
            return;
          }
          if (isStatus(e, 404)) return;
          throw e;
        }
      },
    });
  },
};
