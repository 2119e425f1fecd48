import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import { type BatchFixture, batchFixture, NS } from '../job/testing/batch-fixture.js';
import { waitFor } from '../testing/controller-fixture.js';
import { cronJobController } from './cronjob-controller.js';

type Obj = Record<string, unknown>;
const status = (o: ApiObject): Obj => (o.status as Obj) ?? {};
const START = new Date('2030-01-01T10:00:30Z');
const minutes = (iso: string) => Math.floor(Date.parse(iso) / 60_000);

function cronJob(name: string, spec: Obj = {}): ApiObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: NS },
    spec: {
      schedule: '*/1 * * * *',
      jobTemplate: {
        metadata: { labels: { app: name } },
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
      },
      ...spec,
    },
  };
}

describe('cronjob controller', () => {
  let f: BatchFixture;
  before(async () => {
    f = await batchFixture([cronJobController], { start: START });
  });
  after(async () => {
    await f.stop();
  });

  async function jobsOf(cj: ApiObject): Promise<ApiObject[]> {
    const all = await f.jobs.list(NS, {}, f.signal);
    return all.items
      .filter((j) => j.metadata.ownerReferences?.some((r) => r.uid === cj.metadata.uid))
      .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  }
  async function jobCount(cj: ApiObject, n: number): Promise<ApiObject[]> {
    return waitFor(`${n} jobs of ${cj.metadata.name}`, async () => {
      const jobs = await jobsOf(cj);
      return jobs.length === n ? jobs : undefined;
    });
  }
  /** Plays the job controller: marks the Job complete (or failed). */
  async function finish(job: ApiObject, type: 'Complete' | 'Failed'): Promise<void> {
    const live = await f.jobs.get(NS, job.metadata.name ?? '', f.signal);
    const t = f.clock
      .now()
      .toISOString()
      .replace(/\.\d+Z$/, 'Z');
    const conditions =
      type === 'Complete'
        ? [
            { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached' },
            { type: 'Complete', status: 'True', reason: 'CompletionsReached' },
          ]
        : [
            { type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded' },
            { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' },
          ];
    const st: Obj = {
      startTime: status(live).startTime ?? t,
      conditions,
      ...(type === 'Complete' ? { completionTime: t, succeeded: 1 } : { failed: 1 }),
    };
    await f.jobs.update({ ...live, status: st }, f.signal, { subresource: 'status' });
  }
  async function events(cj: ApiObject, reason: string): Promise<Obj[]> {
    const all = await f.events.list(NS, {}, f.signal);
    return all.items.filter((e) => (e.involvedObject as Obj)?.uid === cj.metadata.uid && e.reason === reason) as Obj[];
  }

  it('creates a Job per firing, named by the scheduled minute, with the annotation and owner (Allow)', async () => {
    const cj = await f.cronJobs.create(NS, cronJob('every'), f.signal);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await jobsOf(cj), []);
    f.clock.advance(60_000); // 10:01:30
    const [first] = await jobCount(cj, 1);
    assert.equal(first.metadata.name, `every-${minutes('2030-01-01T10:01:00Z')}`);
    assert.equal(first.metadata.annotations?.['batch.orch.io/cronjob-scheduled-timestamp'], '2030-01-01T10:01:00Z');
    assert.equal(first.metadata.labels?.app, 'every');
    assert.deepEqual(first.metadata.ownerReferences, [
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        name: 'every',
        uid: cj.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    const st = await waitFor('status', async () => {
      const live = await f.cronJobs.get(NS, 'every', f.signal);
      return status(live).lastScheduleTime ? status(live) : undefined;
    });
    assert.equal(st.lastScheduleTime, '2030-01-01T10:01:00Z');
    assert.deepEqual(
      (st.active as Obj[]).map((a) => [a.kind, a.name, a.uid]),
      [['Job', first.metadata.name, first.metadata.uid]],
    );
    f.clock.advance(60_000); // 10:02:30: Allow runs the next one beside the first.
    const both = await jobCount(cj, 2);
    assert.equal(both[1].metadata.name, `every-${minutes('2030-01-01T10:02:00Z')}`);
    await finish(both[0], 'Complete');
    const done = await waitFor('active 1 and lastSuccessfulTime', async () => {
      const live = status(await f.cronJobs.get(NS, 'every', f.signal));
      return (live.active as Obj[] | undefined)?.length === 1 && live.lastSuccessfulTime ? live : undefined;
    });
    assert.equal(done.lastSuccessfulTime, '2030-01-01T10:02:30Z');
    await f.cronJobs.delete(NS, 'every', {}, f.signal);
  });

  it('Forbid skips firings while a Job is active; Replace deletes the active Job first', async () => {
    const forbid = await f.cronJobs.create(NS, cronJob('forbid', { concurrencyPolicy: 'Forbid' }), f.signal);
    const replace = await f.cronJobs.create(NS, cronJob('replace', { concurrencyPolicy: 'Replace' }), f.signal);
    f.clock.advance(60_000);
    const [fj] = await jobCount(forbid, 1);
    const [rj] = await jobCount(replace, 1);
    f.clock.advance(60_000);
    const [rj2] = await waitFor('replaced', async () => {
      const jobs = await jobsOf(replace);
      return jobs.length === 1 && jobs[0].metadata.uid !== rj.metadata.uid ? jobs : undefined;
    });
    assert.ok(Number(rj2.metadata.name?.split('-')[1]) > Number(rj.metadata.name?.split('-')[1]));
    await waitFor('JobAlreadyActive', async () => (await events(forbid, 'JobAlreadyActive')).length > 0);
    assert.deepEqual(
      (await jobsOf(forbid)).map((j) => j.metadata.uid),
      [fj.metadata.uid],
    );
    await finish(fj, 'Complete');
    // The firing skipped while the first ran starts now (no startingDeadlineSeconds).
    const [, skipped] = await jobCount(forbid, 2);
    assert.equal(skipped.metadata.name, `forbid-${Math.floor(f.clock.now().getTime() / 60_000)}`);
    await f.cronJobs.delete(NS, 'forbid', {}, f.signal);
    await f.cronJobs.delete(NS, 'replace', {}, f.signal);
  });

  it('keeps successfulJobsHistoryLimit and failedJobsHistoryLimit finished Jobs', async () => {
    const cj = await f.cronJobs.create(
      NS,
      cronJob('hist', { successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1 }),
      f.signal,
    );
    const made: ApiObject[] = [];
    for (let i = 0; i < 4; i++) {
      f.clock.advance(60_000);
      const jobs = await jobCount(cj, made.length + 1 - Math.max(0, made.length - 2));
      const fresh = jobs.find((j) => !made.some((m) => m.metadata.uid === j.metadata.uid))!;
      made.push(fresh);
      await finish(fresh, i % 2 === 0 ? 'Complete' : 'Failed');
      await waitFor(
        'job finished seen',
        async () => !(status(await f.cronJobs.get(NS, 'hist', f.signal)).active as Obj[] | undefined)?.length,
      );
    }
    const left = await jobCount(cj, 2);
    // The newest of each kind stays.
    assert.deepEqual(left.map((j) => j.metadata.uid).sort(), [made[2].metadata.uid, made[3].metadata.uid].sort());
    await f.cronJobs.delete(NS, 'hist', {}, f.signal);
  });

  it('runs only the most recent missed firing, warns past 100 missed, and honours startingDeadlineSeconds', async () => {
    const cj = await f.cronJobs.create(NS, cronJob('missed'), f.signal);
    const late = await f.cronJobs.create(NS, cronJob('late', { startingDeadlineSeconds: 10 }), f.signal);
    const created = Date.parse(cj.metadata.creationTimestamp ?? '');
    f.clock.advance(150 * 60_000);
    const [only] = await jobCount(cj, 1);
    const mostRecent = Math.floor(f.clock.now().getTime() / 60_000);
    assert.equal(only.metadata.name, `missed-${mostRecent}`);
    assert.ok(mostRecent - Math.floor(created / 60_000) > 100);
    await waitFor('TooManyMissedTimes', async () => (await events(cj, 'TooManyMissedTimes')).length > 0);
    // 30 s past the firing with a 10 s deadline: "late" also runs the latest firing within the
    // deadline window only when there is one; here there is none, so nothing runs.
    await new Promise((r) => setTimeout(r, 300));
    const lateJobs = await jobsOf(late);
    assert.deepEqual(lateJobs, []);
    f.clock.advance(35_000); // 5 s past the next firing: within the deadline.
    const [onTime] = await jobCount(late, 1);
    assert.equal(onTime.metadata.name, `late-${Math.floor(f.clock.now().getTime() / 60_000)}`);
    await f.cronJobs.delete(NS, 'missed', {}, f.signal);
    await f.cronJobs.delete(NS, 'late', {}, f.signal);
  });

  it('creates nothing while suspended', async () => {
    const cj = await f.cronJobs.create(NS, cronJob('paused', { suspend: true }), f.signal);
    f.clock.advance(120_000);
    await new Promise((r) => setTimeout(r, 400));
    assert.deepEqual(await jobsOf(cj), []);
    const live = await f.cronJobs.get(NS, 'paused', f.signal);
    await f.cronJobs.update({ ...live, spec: { ...(live.spec as Obj), suspend: false } }, f.signal);
    await jobCount(cj, 1);
  });

  it('evaluates the schedule in spec.timeZone and writes the scheduled time in that zone', async () => {
    // 10:00:30 UTC is 15:30:30 in Kolkata (+05:30): "31 15 * * *" fires one minute later.
    const now = f.clock.now();
    const local = new Date(now.getTime() + 330 * 60_000);
    const minute = (local.getUTCMinutes() + 1) % 60;
    const hour = (local.getUTCHours() + (local.getUTCMinutes() === 59 ? 1 : 0)) % 24;
    const cj = await f.cronJobs.create(
      NS,
      cronJob('zoned', { schedule: `${minute} ${hour} * * *`, timeZone: 'Asia/Kolkata' }),
      f.signal,
    );
    f.clock.advance(60_000);
    const [job] = await jobCount(cj, 1);
    const stamp = job.metadata.annotations?.['batch.orch.io/cronjob-scheduled-timestamp'] ?? '';
    assert.match(stamp, /\+05:30$/);
    assert.equal(stamp.slice(11, 16), `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);
    assert.equal(job.metadata.name, `zoned-${Math.floor(Date.parse(stamp) / 60_000)}`);
  });
});
