import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import { waitFor } from '../testing/controller-fixture.js';
import { jobController } from './job-controller.js';
import { type BatchFixture, batchFixture, jobObject, NS } from './testing/batch-fixture.js';

type Obj = Record<string, unknown>;
const status = (j: ApiObject): Obj => (j.status as Obj) ?? {};
const conditions = (j: ApiObject) =>
  ((status(j).conditions as Obj[] | undefined) ?? []).map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`);
const TRACKING = 'batch.orch.io/job-tracking';

describe('job controller', () => {
  let f: BatchFixture;
  before(async () => {
    f = await batchFixture([jobController]);
  });
  after(async () => {
    await f.stop();
  });

  async function activePods(job: ApiObject, n: number): Promise<ApiObject[]> {
    return waitFor(`${n} active pods of ${job.metadata.name}`, async () => {
      const pods = (await f.podsOf(job)).filter(
        (p) => !p.metadata.deletionTimestamp && !['Succeeded', 'Failed'].includes(String((p.status as Obj)?.phase)),
      );
      return pods.length === n ? pods : undefined;
    });
  }

  it('runs parallelism pods until completions succeed, then Complete after SuccessCriteriaMet', async () => {
    const job = await f.jobs.create(NS, jobObject('pc', { parallelism: 2, completions: 3 }), f.signal);
    const first = await activePods(job, 2);
    for (const p of first) {
      assert.deepEqual(p.metadata.finalizers, [TRACKING]);
      assert.equal(p.metadata.labels?.['batch.orch.io/job-name'], 'pc');
      assert.equal(p.metadata.labels?.['job-name'], 'pc');
      assert.equal(p.metadata.labels?.['controller-uid'], job.metadata.uid);
      assert.equal(p.metadata.labels?.['batch.orch.io/controller-uid'], job.metadata.uid);
      assert.deepEqual(p.metadata.ownerReferences, [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          name: 'pc',
          uid: job.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      assert.match(p.metadata.name ?? '', /^pc-[a-z0-9]{5}$/);
    }
    const running = await waitFor('startTime and active 2', async () => {
      const j = await f.job('pc');
      return status(j).active === 2 && status(j).startTime ? j : undefined;
    });
    assert.equal(status(running).ready, 0);
    assert.equal(status(running).terminating, 0);
    await f.setPhase(first[0], 'Running', { conditions: [{ type: 'Ready', status: 'True' }] });
    await waitFor('ready 1', async () => status(await f.job('pc')).ready === 1);
    await f.setPhase(first[0], 'Succeeded');
    await f.setPhase(first[1], 'Succeeded');
    // One more completion is needed: one pod, not two.
    const last = await activePods(job, 1);
    await waitFor('succeeded 2', async () => status(await f.job('pc')).succeeded === 2);
    await f.setPhase(last[0], 'Succeeded');
    const done = await waitFor('Complete', async () => {
      const j = await f.job('pc');
      return conditions(j).includes('Complete=True/CompletionsReached') ? j : undefined;
    });
    assert.deepEqual(conditions(done), [
      'SuccessCriteriaMet=True/CompletionsReached',
      'Complete=True/CompletionsReached',
    ]);
    assert.equal(status(done).succeeded, 3);
    assert.equal(status(done).failed, undefined);
    assert.equal(status(done).active, undefined);
    assert.deepEqual(status(done).uncountedTerminatedPods, {});
    assert.ok(status(done).completionTime);
    // Every pod is released once counted.
    for (const p of await f.podsOf(job)) assert.deepEqual(p.metadata.finalizers ?? [], []);
  });

  it('runs Indexed Jobs one pod per index with the index annotation, label, hostname and env', async () => {
    const job = await f.jobs.create(
      NS,
      jobObject('ix', { completionMode: 'Indexed', completions: 3, parallelism: 3 }),
      f.signal,
    );
    const pods = await activePods(job, 3);
    const byIndex = new Map(pods.map((p) => [p.metadata.annotations?.['batch.orch.io/job-completion-index'], p]));
    assert.deepEqual([...byIndex.keys()].sort(), ['0', '1', '2']);
    for (const [ix, p] of byIndex) {
      assert.equal(p.metadata.labels?.['batch.orch.io/job-completion-index'], ix);
      assert.match(p.metadata.name ?? '', new RegExp(`^ix-${ix}-[a-z0-9]{5}$`));
      const spec = p.spec as Obj;
      assert.equal(spec.hostname, `ix-${ix}`);
      const env = ((spec.containers as Obj[])[0].env as Obj[]) ?? [];
      assert.deepEqual(env, [
        {
          name: 'JOB_COMPLETION_INDEX',
          valueFrom: {
            fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['batch.orch.io/job-completion-index']" },
          },
        },
      ]);
    }
    await f.setPhase(byIndex.get('0')!, 'Succeeded');
    await f.setPhase(byIndex.get('2')!, 'Succeeded');
    await waitFor('completedIndexes 0,2', async () => status(await f.job('ix')).completedIndexes === '0,2');
    // Index 1 fails: it is recreated for the same index (after the pod failure backoff).
    await f.setPhase(byIndex.get('1')!, 'Failed');
    f.clock.advance(15_000);
    const [again] = await activePods(job, 1);
    assert.equal(again.metadata.annotations?.['batch.orch.io/job-completion-index'], '1');
    await f.setPhase(again, 'Succeeded');
    const done = await waitFor('Complete', async () => {
      const j = await f.job('ix');
      return conditions(j).includes('Complete=True/CompletionsReached') ? j : undefined;
    });
    assert.equal(status(done).completedIndexes, '0-2');
    assert.equal(status(done).succeeded, 3);
    assert.equal(status(done).failed, 1);
  });

  it('fails with BackoffLimitExceeded once failures pass backoffLimit, deleting the active pods', async () => {
    const job = await f.jobs.create(NS, jobObject('bo', { parallelism: 2, completions: 4, backoffLimit: 1 }), f.signal);
    const [a, b] = await activePods(job, 2);
    await f.setPhase(a, 'Failed');
    await waitFor('failed 1', async () => status(await f.job('bo')).failed === 1);
    // The replacement waits for the pod failure backoff (10 s by the job's clock).
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await activePods(job, 1))[0].metadata.name, b.metadata.name);
    f.clock.advance(11_000);
    const [, c] = await activePods(job, 2);
    assert.ok(c);
    const replacement = (await activePods(job, 2)).find((p) => p.metadata.name !== b.metadata.name)!;
    await f.setPhase(replacement, 'Failed');
    const failedJob = await waitFor('Failed', async () => {
      const j = await f.job('bo');
      return conditions(j).includes('Failed=True/BackoffLimitExceeded') ? j : undefined;
    });
    assert.deepEqual(conditions(failedJob), [
      'FailureTarget=True/BackoffLimitExceeded',
      'Failed=True/BackoffLimitExceeded',
    ]);
    const failedCond = (status(failedJob).conditions as Obj[])[1];
    assert.equal(failedCond.message, 'Job has reached the specified backoff limit');
    // The still-running pod was deleted and counted as failed too.
    assert.equal(status(failedJob).failed, 3);
    assert.equal(status(failedJob).active, undefined);
    assert.equal(status(failedJob).terminating, 0);
    assert.equal(status(failedJob).completionTime, undefined);
    await waitFor('b gone', async () => (await f.podsOf(job)).every((p) => p.metadata.name !== b.metadata.name));
  });

  it('fails with DeadlineExceeded after activeDeadlineSeconds by the controller clock', async () => {
    const job = await f.jobs.create(NS, jobObject('dl', { activeDeadlineSeconds: 30 }), f.signal);
    await activePods(job, 1);
    f.clock.advance(31_000);
    const failedJob = await waitFor('Failed', async () => {
      const j = await f.job('dl');
      return conditions(j).includes('Failed=True/DeadlineExceeded') ? j : undefined;
    });
    const cond = (status(failedJob).conditions as Obj[]).find((c) => c.type === 'Failed')!;
    assert.equal(cond.message, 'Job was active longer than specified deadline');
    assert.equal(status(failedJob).failed, 1);
    assert.deepEqual(await f.podsOf(job), []);
  });

  it('suspends (deleting pods, not counting them) and resumes', async () => {
    const job = await f.jobs.create(NS, jobObject('sus', { parallelism: 2, completions: 2 }), f.signal);
    await activePods(job, 2);
    const live = await f.job('sus');
    await f.jobs.update({ ...live, spec: { ...(live.spec as Obj), suspend: true } }, f.signal);
    const suspended = await waitFor('Suspended', async () => {
      const j = await f.job('sus');
      return conditions(j).includes('Suspended=True/JobSuspended') && (await f.podsOf(job)).length === 0
        ? j
        : undefined;
    });
    assert.equal(status(suspended).failed, undefined);
    assert.equal(status(suspended).active, undefined);
    assert.equal(status(suspended).startTime, undefined);
    const s2 = await f.job('sus');
    await f.jobs.update({ ...s2, spec: { ...(s2.spec as Obj), suspend: false } }, f.signal);
    await activePods(job, 2);
    const resumed = await waitFor('Resumed', async () => {
      const j = await f.job('sus');
      return conditions(j).includes('Suspended=False/JobResumed') && status(j).startTime ? j : undefined;
    });
    assert.equal(status(resumed).failed, undefined);
  });

  it('counts a deleted running pod exactly once as failed and replaces it', async () => {
    const job = await f.jobs.create(NS, jobObject('del', { backoffLimit: 5 }), f.signal);
    const [p] = await activePods(job, 1);
    await f.pods.delete(NS, p.metadata.name ?? '', {}, f.signal);
    await waitFor('pod gone', async () => (await f.podsOf(job)).every((x) => x.metadata.uid !== p.metadata.uid));
    await waitFor('failed 1', async () => status(await f.job('del')).failed === 1);
    f.clock.advance(11_000);
    const [q] = await activePods(job, 1);
    assert.notEqual(q.metadata.uid, p.metadata.uid);
    // Resyncs run every 100-200 ms: the count stays exact.
    await new Promise((r) => setTimeout(r, 500));
    const j = await f.job('del');
    assert.equal(status(j).failed, 1);
    assert.deepEqual(status(j).uncountedTerminatedPods, {});
    await f.setPhase(q, 'Succeeded');
    const done = await waitFor('Complete', async () => {
      const x = await f.job('del');
      return conditions(x).includes('Complete=True/CompletionsReached') ? x : undefined;
    });
    assert.equal(status(done).succeeded, 1);
    assert.equal(status(done).failed, 1);
  });

  it('applies pod failure policy rules: FailJob on an exit code, Ignore on a condition', async () => {
    const policy = {
      rules: [
        { action: 'FailJob', onExitCodes: { containerName: 'c', operator: 'In', values: [42] } },
        { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
      ],
    };
    const job = await f.jobs.create(NS, jobObject('pfp', { podFailurePolicy: policy, backoffLimit: 3 }), f.signal);
    const [first] = await activePods(job, 1);
    await f.setPhase(first, 'Failed', { conditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    f.clock.advance(11_000);
    const [second] = await activePods(job, 1);
    assert.notEqual(second.metadata.uid, first.metadata.uid);
    assert.equal(status(await f.job('pfp')).failed, undefined);
    const terminated = {
      exitCode: 42,
      reason: 'Error',
      startedAt: '2020-01-01T00:00:00Z',
      finishedAt: '2020-01-01T00:00:01Z',
    };
    await f.setPhase(second, 'Failed', {
      containerStatuses: [
        { name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated } },
      ],
    });
    const failedJob = await waitFor('Failed by policy', async () => {
      const j = await f.job('pfp');
      return conditions(j).includes('Failed=True/PodFailurePolicy') ? j : undefined;
    });
    assert.deepEqual(conditions(failedJob), ['FailureTarget=True/PodFailurePolicy', 'Failed=True/PodFailurePolicy']);
    const cond = (status(failedJob).conditions as Obj[])[1];
    assert.equal(
      cond.message,
      `Container c for pod ${NS}/${second.metadata.name} failed with exit code 42 matching FailJob rule at index 0`,
    );
    assert.equal(status(failedJob).failed, 1);
  });

  it('releases the pods of a deleted Job (tracking finalizer removed) and records events', async () => {
    const job = await f.jobs.create(NS, jobObject('gone', { parallelism: 2, completions: 2 }), f.signal);
    const pods = await activePods(job, 2);
    const created = await waitFor('SuccessfulCreate events', async () => {
      const evs = (await f.events.list(NS, {}, f.signal)).items.filter(
        (e) => (e.involvedObject as Obj).uid === job.metadata.uid && e.reason === 'SuccessfulCreate',
      );
      return evs.length === 2 ? evs : undefined;
    });
    assert.deepEqual(created.map((e) => e.message).sort(), pods.map((p) => `Created pod: ${p.metadata.name}`).sort());
    assert.equal((created[0].source as Obj).component, 'job-controller');
    // Orphan the pods: no garbage collector runs here, so they stay, and lose the finalizer.
    await f.jobs.delete(NS, 'gone', { propagationPolicy: 'Orphan' }, f.signal);
    await waitFor('finalizers released', async () => {
      const live = await Promise.all(pods.map((p) => f.pods.get(NS, p.metadata.name ?? '', f.signal)));
      return live.every((p) => !(p.metadata.finalizers ?? []).includes(TRACKING));
    });
  });

  it('records Completed when a Job completes', async () => {
    const job = await f.jobs.create(NS, jobObject('ev'), f.signal);
    const [p] = await activePods(job, 1);
    await f.setPhase(p, 'Succeeded');
    await waitFor('Completed event', async () =>
      (await f.events.list(NS, {}, f.signal)).items.some(
        (e) =>
          (e.involvedObject as Obj).uid === job.metadata.uid &&
          e.reason === 'Completed' &&
          e.message === 'Job completed',
      ),
    );
  });
});
