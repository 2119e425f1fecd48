import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../../apis/core/pod-types.js';
import { waitFor } from '../testing/controller-fixture.js';
import { slowStartBatch } from './replica-manager.js';
import { replicationControllerController } from './replicaset-controller.js';
import { type WorkloadFixture, workloadFixture } from './testing/workload-fixture.js';

const signal = new AbortController().signal;

describe('replicationcontroller controller', () => {
  let f: WorkloadFixture;
  before(async () => {
    f = await workloadFixture([replicationControllerController]);
  });
  after(() => f.stop());

  it('keeps the replicas of a ReplicationController with its map selector', async () => {
    const rc = await f.rc('', 'replicationcontrollers').create(
      'work',
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'legacy' },
        spec: {
          replicas: 2,
          selector: { app: 'legacy' },
          template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        },
      },
      signal,
    );
    const pods = await waitFor('2 pods', async () => {
      const list = (await f.list('', 'pods', 'work')) as Pod[];
      return list.length === 2 && list;
    });
    for (const p of pods) {
      assert.match(p.metadata.name ?? '', /^legacy-/);
      assert.deepEqual(
        [
          p.metadata.ownerReferences?.[0]?.kind,
          p.metadata.ownerReferences?.[0]?.apiVersion,
          p.metadata.ownerReferences?.[0]?.uid,
        ],
        ['ReplicationController', 'v1', rc.metadata.uid],
      );
    }
    await waitFor('status', async () => {
      const cur = await f.rc('', 'replicationcontrollers').get('work', 'legacy', signal);
      return (cur.status as { replicas?: number })?.replicas === 2;
    });
  });
});

describe('slow start', () => {
  it('creates in batches of 1, 2, 4, ... and stops at the first failing batch', async () => {
    let calls = 0;
    const ok = await slowStartBatch(10, async () => {
      calls++;
    });
    assert.deepEqual([ok.successes, calls], [10, 10]);
    calls = 0;
    const failing = await slowStartBatch(20, async () => {
      calls++;
      if (calls > 4) throw new Error('quota');
    });
    // Batches 1, 2, 4: the third batch (calls 4..7) fails after 1 success; no batch of 8 follows.
    assert.equal(calls, 7);
    assert.equal(failing.successes, 4);
    assert.match(String(failing.error), /quota/);
  });
});
