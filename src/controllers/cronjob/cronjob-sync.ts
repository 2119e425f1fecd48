/**
 * One sync of one CronJob, as kube-controller-manager v1.32's cronjob controller (`syncCronJob`
 * then `cleanupFinishedJobs`): reconcile `status.active` with the Jobs it controls, record
 * `lastSuccessfulTime`, create the Job of the most recent unmet firing (named
 * `<cronjob>-<minutes since the epoch>`) under the concurrency policy and starting deadline,
 * and delete finished Jobs beyond the history limits. Returns when to sync again.
 */
import type { ApiDomain } from '../../apis/api-domain.js';
import { timeZoneError } from '../../apis/batch/time-zone.js';
import type { ApiObject } from '../../apis/object.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import type { Clock } from '../../util/clock.js';
import { formatTime } from '../../util/clock.js';
import { isStatus, newControllerRef } from '../controller-support.js';
import type { EventRecorder } from '../job/event-recorder.js';
import { conditionTrue, isJobFinished, list, obj } from '../job/job-status.js';
import { cronTimes } from './cron-times.js';
import { mostRecentScheduleTime, nextScheduleDelayMs, type ScheduleInput } from './schedule-times.js';

type Obj = Record<string, unknown>;

export interface CronJobSyncDeps {
  readonly cronJobs: ResourceClient;
  readonly jobs: ResourceClient;
  readonly domain: ApiDomain;
  readonly clock: Clock;
  readonly recorder: EventRecorder;
  readonly signal: AbortSignal;
}

/** The Job name of a firing: `<cronjob>-<scheduled time in minutes since the epoch>`. */
export function scheduledJobName(cronJobName: string, scheduledMs: number): string {
  return `${cronJobName}-${Math.floor(scheduledMs / 60_000)}`;
}

/** `time.Format(time.RFC3339)` of an instant in a zone (`Z` in UTC). */
export function rfc3339In(ms: number, zone: string | undefined): string {
  if (!zone || zone === 'UTC') return formatTime(new Date(ms));
  const parts: Record<string, string> = {};
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  for (const p of fmt.formatToParts(new Date(ms))) parts[p.type] = p.value;
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  const offMin = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  if (offMin === 0) return `${local}Z`;
  const sign = offMin < 0 ? '-' : '+';
  const abs = Math.abs(offMin);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function ref(job: ApiObject): Obj {
  return {
    kind: 'Job',
    namespace: job.metadata.namespace,
    name: job.metadata.name,
    uid: job.metadata.uid,
    apiVersion: 'batch/v1',
    resourceVersion: job.metadata.resourceVersion,
  };
}

const ms = (v: unknown): number | undefined => (typeof v === 'string' ? Date.parse(v) : undefined);

export class CronJobSyncer {
  constructor(private readonly d: CronJobSyncDeps) {}

  /** Syncs `cj` (from the cache) with the Jobs it controls; returns ms until the next sync, if any. */
  async sync(cj: ApiObject, childJobs: readonly ApiObject[]): Promise<number | undefined> {
    const cronJob = structuredClone(cj);
    const before = JSON.stringify(cj.status ?? {});
    const r = await this.reconcile(cronJob, childJobs);
    const cleaned = await this.cleanup(cronJob, childJobs);
    cronJob.status = obj(cronJob.status);
    const st = cronJob.status as Obj;
    if (Array.isArray(st.active) && st.active.length === 0) delete st.active;
    if (r.update || cleaned || JSON.stringify(st) !== before) {
      await this.d.cronJobs.update(cronJob, this.d.signal, { subresource: 'status' });
    }
    return r.requeueMs;
  }

  private async reconcile(
    cronJob: ApiObject,
    childJobs: readonly ApiObject[],
  ): Promise<{ requeueMs?: number; update: boolean }> {
    const now = this.d.clock.now().getTime();
    const st = (): Obj => {
      cronJob.status = obj(cronJob.status);
      return cronJob.status as Obj;
    };
    const active = () => list(st().active).map(obj);
    const inActive = (uid: string | undefined) => active().some((a) => a.uid === uid);
    let update = false;
    const children = new Set<string>();
    for (const j of childJobs) {
      children.add(j.metadata.uid ?? '');
      const found = inActive(j.metadata.uid);
      if (!found && !isJobFinished(j)) {
        // Maybe our cached CronJob is behind the Job it created: read it afresh.
        const fresh = await this.d.cronJobs.get(
          cronJob.metadata.namespace ?? '',
          cronJob.metadata.name ?? '',
          this.d.signal,
        );
        if (list(obj(fresh.status).active).some((a) => obj(a).uid === j.metadata.uid)) {
          Object.assign(cronJob, structuredClone(fresh));
          continue;
        }
        this.d.recorder.record(
          cronJob,
          'Warning',
          'UnexpectedJob',
          `Saw a job that the controller did not create or forgot: ${j.metadata.name}`,
        );
      } else if (found && isJobFinished(j)) {
        st().active = active().filter((a) => a.uid !== j.metadata.uid);
        const cond = conditionTrue(j, 'Complete') ? 'Complete' : 'Failed';
        this.d.recorder.record(
          cronJob,
          'Normal',
          'SawCompletedJob',
          `Saw completed job: ${j.metadata.name}, condition: ${cond}`,
        );
        update = true;
      }
      if (conditionTrue(j, 'Complete')) {
        const completion = ms(obj(j.status).completionTime);
        const last = ms(st().lastSuccessfulTime);
        if (completion !== undefined && (last === undefined || completion > last)) {
          st().lastSuccessfulTime = obj(j.status).completionTime;
          update = true;
        }
      }
    }
    for (const a of active()) {
      if (!children.has(String(a.uid))) {
        this.d.recorder.record(cronJob, 'Normal', 'MissingJob', `Active job went missing: ${a.name}`);
        st().active = active().filter((x) => x.uid !== a.uid);
        update = true;
      }
    }
    if (cronJob.metadata.deletionTimestamp) return { update };
    const spec = obj(cronJob.spec);
    const zone = typeof spec.timeZone === 'string' ? spec.timeZone : undefined;
    if (zone !== undefined) {
      const err = timeZoneError(zone);
      if (err) {
        this.d.recorder.record(cronJob, 'Warning', 'UnknownTimeZone', `invalid timeZone: "${zone}": ${err}`);
        return { update };
      }
    }
    if (spec.suspend === true) return { update };
    const schedule = String(spec.schedule ?? '');
    if (schedule.includes('TZ')) {
      this.d.recorder.record(
        cronJob,
        'Warning',
        'UnsupportedSchedule',
        `CRON_TZ or TZ used in schedule "${schedule}" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
      );
    }
    const times = cronTimes(schedule, schedule.includes('TZ') ? undefined : zone);
    if ('error' in times) {
      this.d.recorder.record(
        cronJob,
        'Warning',
        'UnparseableSchedule',
        `unparseable schedule: "${schedule}" : ${times.error}`,
      );
      return { update };
    }
    const input: ScheduleInput = {
      creationMs: ms(cronJob.metadata.creationTimestamp) ?? now,
      lastScheduleMs: ms(st().lastScheduleTime),
      startingDeadlineSeconds:
        typeof spec.startingDeadlineSeconds === 'number' ? spec.startingDeadlineSeconds : undefined,
    };
    const next = () => nextScheduleDelayMs({ ...input, lastScheduleMs: ms(st().lastScheduleTime) }, now, times);
    const recent = mostRecentScheduleTime(input, now, times, true);
    if (recent.error) {
      this.d.recorder.record(cronJob, 'Warning', 'InvalidSchedule', `invalid schedule: ${schedule} : ${recent.error}`);
      return { update };
    }
    if (recent.mostRecentMs === undefined || recent.mostRecentMs > now) return { requeueMs: next(), update };
    if (recent.missed === 'many') {
      this.d.recorder.record(
        cronJob,
        'Warning',
        'TooManyMissedTimes',
        'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
      );
    }
    const scheduled = recent.mostRecentMs;
    if (input.startingDeadlineSeconds !== undefined && scheduled + input.startingDeadlineSeconds * 1000 < now) {
      this.d.recorder.record(
        cronJob,
        'Warning',
        'MissSchedule',
        `Missed scheduled time to start a job: ${rfc3339In(scheduled, zone)}`,
      );
      return { requeueMs: next(), update };
    }
    const jobName = scheduledJobName(cronJob.metadata.name ?? '', scheduled);
    if (active().some((a) => a.name === jobName)) return { requeueMs: next(), update };
    const policy = spec.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && active().length > 0) {
      this.d.recorder.record(
        cronJob,
        'Normal',
        'JobAlreadyActive',
        'Not starting job because prior execution is running and concurrency policy is Forbid',
      );
      return { requeueMs: next(), update };
    }
    const ns = cronJob.metadata.namespace ?? '';
    if (policy === 'Replace') {
      for (const a of active()) {
        try {
          await this.d.jobs.delete(ns, String(a.name), { propagationPolicy: 'Background' }, this.d.signal);
        } catch (e) {
          if (!isStatus(e, 404)) throw e;
        }
        this.d.recorder.record(cronJob, 'Normal', 'SuccessfulDelete', `Deleted job ${a.name}`);
        st().active = active().filter((x) => x.uid !== a.uid);
        update = true;
      }
    }
    let created: ApiObject;
    try {
      created = await this.d.jobs.create(ns, this.jobFor(cronJob, scheduled, jobName, zone), this.d.signal);
      this.d.recorder.record(cronJob, 'Normal', 'SuccessfulCreate', `Created job ${jobName}`);
    } catch (e) {
      if (!isStatus(e, 409)) {
        this.d.recorder.record(cronJob, 'Warning', 'FailedCreate', `Error creating job: ${(e as Error).message}`);
        throw e;
      }
      // Created before (our status write was lost, or by someone else): adopt what is there.
      created = await this.d.jobs.get(ns, jobName, this.d.signal);
    }
    st().active = [...active(), ref(created)];
    st().lastScheduleTime = formatTime(new Date(scheduled));
    return { requeueMs: next(), update: true };
  }

  /** The Job of a firing: the template's labels, annotations and spec, controlled by the CronJob. */
  private jobFor(cronJob: ApiObject, scheduledMs: number, name: string, zone: string | undefined): ApiObject {
    const template = obj(obj(cronJob.spec).jobTemplate);
    const meta = obj(template.metadata);
    const annotations = { ...(obj(meta.annotations) as Record<string, string>) };
    annotations[this.d.domain.key('batch', 'cronjob-scheduled-timestamp')] = rfc3339In(scheduledMs, zone);
    const labels = obj(meta.labels) as Record<string, string>;
    return {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name,
        namespace: cronJob.metadata.namespace,
        ...(Object.keys(labels).length > 0 ? { labels: { ...labels } } : {}),
        annotations,
        ownerReferences: [newControllerRef(cronJob, 'batch/v1', 'CronJob')],
      },
      spec: structuredClone(obj(template.spec)),
    };
  }

  /** Deletes the oldest finished Jobs beyond the history limits; true when `status.active` changed. */
  private async cleanup(cronJob: ApiObject, childJobs: readonly ApiObject[]): Promise<boolean> {
    const spec = obj(cronJob.spec);
    const okLimit = spec.successfulJobsHistoryLimit;
    const failLimit = spec.failedJobsHistoryLimit;
    if (typeof okLimit !== 'number' && typeof failLimit !== 'number') return false;
    const succeeded = childJobs.filter((j) => conditionTrue(j, 'Complete'));
    const failed = childJobs.filter((j) => conditionTrue(j, 'Failed'));
    let changed = false;
    for (const [jobs, limit] of [
      [succeeded, okLimit],
      [failed, failLimit],
    ] as const) {
      if (typeof limit !== 'number' || jobs.length <= limit) continue;
      const byStart = [...jobs].sort(byStartTime);
      for (const j of byStart.slice(0, jobs.length - limit)) {
        try {
          await this.d.jobs.delete(
            j.metadata.namespace ?? '',
            j.metadata.name ?? '',
            { propagationPolicy: 'Background' },
            this.d.signal,
          );
          this.d.recorder.record(cronJob, 'Normal', 'SuccessfulDelete', `Deleted job ${j.metadata.name}`);
        } catch (e) {
          if (!isStatus(e, 404)) throw e;
        }
        const st = obj(cronJob.status);
        const before = list(st.active).length;
        st.active = list(st.active).filter((a) => obj(a).uid !== j.metadata.uid);
        if (list(st.active).length !== before) changed = true;
        cronJob.status = st;
      }
    }
    return changed;
  }
}

/** kube's `byJobStartTime`: by `status.startTime` (jobs without one last), then by name. */
function byStartTime(a: ApiObject, b: ApiObject): number {
  const sa = ms(obj(a.status).startTime);
  const sb = ms(obj(b.status).startTime);
  if (sa === undefined && sb !== undefined) return 1;
  if (sa !== undefined && sb === undefined) return -1;
  if (sa !== undefined && sb !== undefined && sa !== sb) return sa - sb;
  return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}
