import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import { jobController } from './job-controller.js';
import { type BatchFixture, batchFixture, eventually, jobObject, NS } from './testing/batch-fixture.js';

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
    return eventually(`${n} active pods of ${job.metadata.name}`, async () => {
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
        { apiVersion: 'batch/v1', kind: 'Job', name: 'pc', uid: job.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
      assert.match(p.metadata.name ?? '', /^pc-[a-z0-9]{5}$/);
    }
    const running = await eventually('startTime and active 2', async () => {
      const j = await f.job('pc');
      return status(j).active === 2 && status(j).startTime ? j : undefined;
    });
    assert.equal(status(running).ready, 0);
    assert.equal(status(running).terminating, 0);
    await f.setPhase(first[0], 'Running', { conditions: [{ type: 'Ready', status: 'True' }] });
    await eventually('ready 1', async () => status(await f.job('pc')).ready === 1);
    await f.setPhase(first[0], 'Succeeded');
    await f.setPhase(first[1], 'Succeeded');
    // One more completion is needed: one pod, not two.
    const last = await activePods(job, 1);
    await eventually('succeeded 2', async () => status(await f.job('pc')).succeeded === 2);
    await f.setPhase(last[0], 'Succeeded');
    const done = await eventually('Complete', async () => {
      const j = await f.job('pc');
      return conditions(j).includes('Complete=True/CompletionsReached') ? j : undefined;
    });
    assert.deepEqual(conditions(done), ['SuccessCriteriaMet=True/CompletionsReached', 'Complete=True/CompletionsReached']);
    assert.equal(status(done).succeeded, 3);
    assert.equal(status(done).failed, undefined);
    assert.equal(status(done).active, undefined);
    assert.deepEqual(status(done).uncountedTerminatedPods, {});
    assert.ok(status(done).completionTime);
    // Every pod is released once counted.
    for (const p of await f.podsOf(job)) assert.deepEqual(p.metadata.finalizers ?? [], []);
  });
});
