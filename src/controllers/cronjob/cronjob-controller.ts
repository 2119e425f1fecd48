/**
 * The CronJob controller (kube-controller-manager v1.32's `cronjob-controller`): creates a Job
 * per firing of each CronJob's schedule, by `ctx.clock`. See {@link CronJobSyncer}.
 */
import type { ApiObject } from '../../apis/object.js';
import { type ControllerDescriptor, configNumber } from '../controller-descriptor.js';
import {
  controllerRefOfKind,
  isStatus,
  newKeyQueue,
  objectKey,
  runKeyedLoop,
  splitKey,
} from '../controller-support.js';
import { EventRecorder } from '../job/event-recorder.js';
import { CronJobSyncer } from './cronjob-sync.js';

const controllingCronJob = (job: ApiObject) => controllerRefOfKind(job, 'batch', 'CronJob');

export const cronJobController: ControllerDescriptor = {
  name: 'cronjob-controller',
  aliases: ['cronjob'],
  serviceAccount: 'cronjob-controller',
  enabledByDefault: true,
  configMember: 'CronJobController',
  async run(ctx) {
    const cronInformer = ctx.informers.lookup('batch', 'cronjobs');
    const jobInformer = ctx.informers.lookup('batch', 'jobs');
    const cronJobs = ctx.client.preferred('batch', 'cronjobs');
    const jobs = ctx.client.preferred('batch', 'jobs');
    if (!cronInformer || !jobInformer || !cronJobs || !jobs)
      throw new Error('cronjob-controller: cronjobs or jobs are not served');
    const queue = newKeyQueue(ctx);
    const syncer = new CronJobSyncer({
      cronJobs,
      jobs,
      domain: ctx.domain,
      clock: ctx.clock,
      recorder: new EventRecorder(ctx.client.preferred('', 'events'), 'cronjob-controller', ctx.clock, ctx.signal),
      signal: ctx.signal,
    });
    const onJob = (job: ApiObject) => {
      const owner = controllingCronJob(job);
      if (owner) queue.add(`${job.metadata.namespace ?? ''}/${owner.name}`);
    };
    jobInformer.addHandlers({ onAdd: onJob, onUpdate: (_o, n) => onJob(n), onDelete: onJob });
    cronInformer.addHandlers({
      onAdd: (cj) => queue.add(objectKey(cj)),
      onUpdate: (_o, cj) => queue.add(objectKey(cj)),
    });
    await runKeyedLoop(ctx, {
      name: 'cronjob-controller',
      queue,
      informers: [cronInformer, jobInformer],
      workers: configNumber(ctx.config, 'ConcurrentCronJobSyncs', 5),
      resyncKeys: () => cronInformer.list().map(objectKey),
      process: async (key) => {
        const { namespace, name } = splitKey(key);
        const cj = cronInformer.get(namespace, name);
        if (!cj) return;
        const children = jobInformer.list(namespace).filter((j) => controllingCronJob(j)?.uid === cj.metadata.uid);
        try {
          const after = await syncer.sync(cj, children);
          if (after !== undefined) queue.addAfter(key, Math.max(0, after));
        } catch (e) {
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
