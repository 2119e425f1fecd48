import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import { type BatchFixture, batchFixture, jobObject, NS } from '../job/testing/batch-fixture.js';
import { waitFor } from '../testing/controller-fixture.js';
import { ttlAfterFinishedController } from './ttl-after-finished-controller.js';

type Obj = Record<string, unknown>;

describe('ttl-after-finished controller', () => {
  let f: BatchFixture;
  before(async () => {
    f = await batchFixture([ttlAfterFinishedController]);
  });
  after(async () => {
    await f.stop();
  });

  /** Plays the job controller: marks the Job complete now (by the test clock). */
  async function complete(name: string): Promise<void> {
    const live = await f.job(name);
    const t = f.clock
      .now()
      .toISOString()
      .replace(/\.\d+Z$/, 'Z');
    const status = {
      startTime: t,
      completionTime: t,
      succeeded: 1,
      conditions: [
        { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: t },
        { type: 'Complete', status: 'True', lastTransitionTime: t },
      ],
    };
    await f.jobs.update({ ...live, status }, f.signal, { subresource: 'status' });
  }
  const exists = async (name: string) =>
    f.job(name).then(
      () => true,
      (e: { code?: number }) => {
        if (e.code === 404) return false;
        throw e;
      },
    );
  const deleting = async (name: string) =>
    f.job(name).then(
      (j: ApiObject) => !!j.metadata.deletionTimestamp,
      () => true,
    );

  it('deletes a finished Job ttlSecondsAfterFinished after it finished, in the foreground', async () => {
    await f.jobs.create(NS, jobObject('ttl', { ttlSecondsAfterFinished: 100 }), f.signal);
    await f.jobs.create(NS, jobObject('keep'), f.signal);
    await f.jobs.create(NS, jobObject('running', { ttlSecondsAfterFinished: 0 }), f.signal);
    await complete('ttl');
    await complete('keep');
    f.clock.advance(99_000);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(await exists('ttl'), true);
    f.clock.advance(2_000);
    await waitFor('ttl deleted', () => deleting('ttl'));
    // Foreground deletion: the Job waits for its dependents with the foregroundDeletion finalizer (no
    // garbage collector runs here), or is gone.
    const left = await f.job('ttl').catch(() => undefined);
    if (left) assert.deepEqual(left.metadata.finalizers, ['foregroundDeletion']);
    // No TTL, or not finished: kept.
    assert.equal(await exists('keep'), true);
    assert.equal(await exists('running'), true);
  });

  it('re-reads the Job: a TTL raised meanwhile keeps it', async () => {
    await f.jobs.create(NS, jobObject('raised', { ttlSecondsAfterFinished: 50 }), f.signal);
    await complete('raised');
    const live = await f.job('raised');
    await f.jobs.update({ ...live, spec: { ...(live.spec as Obj), ttlSecondsAfterFinished: 1000 } }, f.signal);
    f.clock.advance(60_000);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(await deleting('raised'), false);
    f.clock.advance(1000_000);
    await waitFor('raised deleted', () => deleting('raised'));
  });
});
