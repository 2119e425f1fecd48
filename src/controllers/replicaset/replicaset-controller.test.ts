import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../../apis/core/pod-types.js';
import type { ApiObject } from '../../apis/object.js';
import { waitFor } from '../testing/controller-fixture.js';
import { replicaSetController } from './replicaset-controller.js';
import { markPodRunning, type WorkloadFixture, workloadFixture } from './testing/workload-fixture.js';

const signal = new AbortController().signal;

function replicaSet(name: string, replicas: number, labels: Record<string, string> = { app: name }): ApiObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

describe('replicaset controller', () => {
  let f: WorkloadFixture;
  const ns = 'work';
  const pods = () => f.list('', 'pods', ns) as Promise<Pod[]>;
  const podsOf = async (rs: ApiObject) =>
    (await pods()).filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === rs.metadata.uid));
  const rsGet = (name: string) => f.rc('apps', 'replicasets').get(ns, name, signal);

  before(async () => {
    f = await workloadFixture([replicaSetController]);
  });
  after(() => f.stop());

  it('creates pods from the template with a controller reference and generateName', async () => {
    const rs = await f.rc('apps', 'replicasets').create(ns, replicaSet('web', 3), signal);
    const created = await waitFor('3 pods', async () => {
      const own = await podsOf(rs);
      return own.length === 3 && own;
    });
    for (const p of created) {
      assert.match(p.metadata.name ?? '', /^web-[a-z0-9]{5}$/);
      assert.deepEqual(p.metadata.labels, { app: 'web' });
      assert.deepEqual(p.metadata.ownerReferences, [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web',
          uid: rs.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    const status = await waitFor('status', async () => {
      const s = (await rsGet('web')).status as Record<string, unknown>;
      return s.replicas === 3 && s.observedGeneration === 1 && s;
    });
    assert.deepEqual(status, { replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 });
  });

  it('counts ready and available pods', async () => {
    let n = 1;
    for (const p of await podsOf(await rsGet('web'))) {
      await markPodRunning(f.rc('', 'pods'), p, { ip: `10.0.0.${n++}`, now: f.clock.now() });
    }
    const status = await waitFor('ready status', async () => {
      const s = (await rsGet('web')).status as Record<string, unknown>;
      return s.availableReplicas === 3 && s;
    });
    assert.deepEqual(status, {
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    });
  });

  it('scales down deleting unready pods before ready ones', async () => {
    const rs = await rsGet('web');
    const extra = await f
      .rc('apps', 'replicasets')
      .update({ ...rs, spec: { ...(rs.spec as object), replicas: 5 } }, signal);
    const five = await waitFor('5 pods', async () => {
      const own = await podsOf(extra);
      return own.length === 5 && own;
    });
    const pending = five.filter((p) => p.status?.phase !== 'Running').map((p) => p.metadata.name);
    assert.equal(pending.length, 2);
    const cur = await rsGet('web');
    await f.rc('apps', 'replicasets').update({ ...cur, spec: { ...(cur.spec as object), replicas: 3 } }, signal);
    const left = await waitFor('3 pods', async () => {
      const own = await podsOf(cur);
      return own.length === 3 && own;
    });
    for (const p of left) assert.equal(p.status?.phase, 'Running', `${p.metadata.name} kept`);
    for (const name of pending) assert.ok(!left.some((p) => p.metadata.name === name));
  });

  it('adopts a matching orphan and releases a pod whose labels stop matching', async () => {
    const rs = await f.rc('apps', 'replicasets').create(ns, replicaSet('solo', 1), signal);
    await waitFor('1 pod', async () => (await podsOf(rs)).length === 1);
    const orphan = await f.rc('', 'pods').create(
      ns,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'stray', labels: { app: 'solo' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
      signal,
    );
    // Adopted, then one of the two is deleted as surplus.
    await waitFor('orphan adopted', async () => {
      const p = await f
        .rc('', 'pods')
        .get(ns, 'stray', signal)
        .catch(() => undefined);
      return p === undefined || p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid;
    });
    await waitFor('back to 1 pod', async () => (await podsOf(rs)).length === 1);
    assert.ok(orphan.metadata.uid);
    const [mine] = await podsOf(rs);
    await f
      .rc('', 'pods')
      .patch(ns, mine.metadata.name ?? '', 'merge', { metadata: { labels: { app: 'other' } } }, signal);
    const released = await waitFor('released', async () => {
      const p = await f.rc('', 'pods').get(ns, mine.metadata.name ?? '', signal);
      return (p.metadata.ownerReferences ?? []).length === 0 && p;
    });
    assert.equal(released.metadata.labels?.app, 'other');
    await waitFor('a replacement', async () => (await podsOf(rs)).length === 1);
  });
});
