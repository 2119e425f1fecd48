import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../../apis/core/pod-types.js';
import { type WorkloadFixture, workloadFixture } from '../replicaset/testing/workload-fixture.js';
import { waitFor } from '../testing/controller-fixture.js';
import { podGCController } from './podgc-controller.js';

const signal = new AbortController().signal;

describe('pod garbage collector', () => {
  let f: WorkloadFixture;
  const ns = 'work';
  const pods = () => f.rc('', 'pods');
  const exists = async (name: string) =>
    (await pods()
      .get(ns, name, signal)
      .catch(() => undefined)) !== undefined;

  async function pod(
    name: string,
    o: { nodeName?: string; phase?: string; reason?: string; finalizer?: boolean } = {},
  ) {
    const created = (await pods().create(
      ns,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, ...(o.finalizer ? { finalizers: ['example.com/keep'] } : {}) },
        spec: { containers: [{ name: 'c', image: 'i' }], ...(o.nodeName ? { nodeName: o.nodeName } : {}) },
      },
      signal,
    )) as Pod;
    if (o.phase) {
      await pods().update(
        { ...created, status: { phase: o.phase, ...(o.reason ? { reason: o.reason } : {}) } },
        signal,
        {
          subresource: 'status',
        },
      );
    }
    f.clock.advance(1_000);
  }

  before(async () => {
    f = await workloadFixture([podGCController], { config: { PodGCController: { TerminatedPodGCThreshold: 2 } } });
    await f.rc('', 'nodes').create('', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }, signal);
  });
  after(() => f.stop());

  it('deletes terminated pods beyond the threshold, evicted first, then oldest', async () => {
    await pod('old-done', { phase: 'Succeeded' });
    await pod('mid-failed', { phase: 'Failed' });
    await pod('running', { phase: 'Running' });
    await pod('new-done', { phase: 'Succeeded' });
    await pod('evicted', { phase: 'Failed', reason: 'Evicted' });
    f.clock.advance(20_000);
    await waitFor('two removed', async () => !(await exists('evicted')) && !(await exists('old-done')));
    for (const kept of ['mid-failed', 'new-done', 'running']) assert.ok(await exists(kept), kept);
  });

  it('removes pods of a node missing for 40 s, failing them with DisruptionTarget first', async () => {
    await pod('on-n1', { nodeName: 'n1' });
    await pod('on-gone', { nodeName: 'gone' });
    await pod('on-gone-kept', { nodeName: 'gone', finalizer: true });
    f.clock.advance(20_000);
    await new Promise((r) => setTimeout(r, 600));
    assert.ok(await exists('on-gone'), 'quarantined for 40 s');
    f.clock.advance(41_000);
    await waitFor('orphan removed', async () => !(await exists('on-gone')));
    assert.ok(await exists('on-n1'));
    const kept = (await pods().get(ns, 'on-gone-kept', signal)) as Pod;
    assert.ok(kept.metadata.deletionTimestamp);
    assert.equal(kept.status?.phase, 'Failed');
    const cond = kept.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual(
      { status: cond?.status, reason: cond?.reason, message: cond?.message },
      { status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' },
    );
    await pods().patch(ns, 'on-gone-kept', 'merge', { metadata: { finalizers: null } }, signal);
  });

  it('fails unscheduled terminating pods', async () => {
    await pod('unscheduled', { finalizer: true });
    await pods().delete(ns, 'unscheduled', {}, signal);
    f.clock.advance(20_000);
    const p = await waitFor('failed', async () => {
      const cur = (await pods().get(ns, 'unscheduled', signal)) as Pod;
      return cur.status?.phase === 'Failed' && cur;
    });
    assert.ok(p.metadata.deletionTimestamp);
    await pods().patch(ns, 'unscheduled', 'merge', { metadata: { finalizers: null } }, signal);
  });
});
