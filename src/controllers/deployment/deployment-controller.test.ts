import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import type { Pod } from '../../apis/core/pod-types.js';
import type { ApiObject } from '../../apis/object.js';
import { replicaSetController } from '../replicaset/replicaset-controller.js';
import { startNodeAgent, type WorkloadFixture, workloadFixture } from '../replicaset/testing/workload-fixture.js';
import { waitFor } from '../testing/controller-fixture.js';
import { deploymentController } from './deployment-controller.js';
import type { Deployment, ReplicaSet } from './deployment-types.js';
import { deploymentNames } from './deployment-util.js';
import { podTemplateHash } from './pod-template-hash.js';

const signal = new AbortController().signal;
const NAMES = deploymentNames(ORCH_DOMAIN);
const REVISION = NAMES.revision;

function deployment(name: string, spec: Partial<Deployment['spec']> = {}): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 4,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'img:1' }] } },
      ...spec,
    },
  };
}

describe('deployment controller', () => {
  let f: WorkloadFixture;
  let agent: { stop(): Promise<void> };
  /** Pods whose names are listed here stay unready. */
  const unready = new Set<string>();
  const ns = 'work';
  const deployments = () => f.rc('apps', 'deployments');
  const rssOf = async (name: string) =>
    ((await f.list('apps', 'replicasets', ns)) as ReplicaSet[]).filter((rs) => rs.metadata.labels?.app === name);
  const podsOf = async (name: string) =>
    ((await f.list('', 'pods', ns)) as Pod[]).filter(
      (p) => p.metadata.labels?.app === name && !p.metadata.deletionTimestamp,
    );
  const getD = async (name: string) => (await deployments().get(ns, name, signal)) as Deployment;
  const patchSpec = (name: string, spec: object) => deployments().patch(ns, name, 'merge', { spec }, signal);
  const condition = (d: Deployment, type: string) => d.status?.conditions?.find((c) => c.type === type);
  const rolledOut = (name: string) =>
    waitFor(
      `${name} rolled out`,
      async () => {
        const d = await getD(name);
        const s = d.status ?? {};
        const n = d.spec.replicas ?? 1;
        return (
          (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0) &&
          (s.updatedReplicas ?? 0) === n &&
          (s.replicas ?? 0) === n &&
          (s.availableReplicas ?? 0) === n &&
          d
        );
      },
      20_000,
    );

  before(async () => {
    f = await workloadFixture([deploymentController, replicaSetController]);
    agent = startNodeAgent(f.rc('', 'pods'), {
      namespace: ns,
      clock: f.clock,
      ready: (p) => !unready.has(p.metadata.labels?.app ?? ''),
    });
  });
  after(async () => {
    await agent.stop();
    await f.stop();
  });

  it('creates a ReplicaSet <name>-<hash> with the hash label, revision 1 and the conditions', async () => {
    await deployments().create(ns, deployment('web'), signal);
    const d = await rolledOut('web');
    const [rs] = await rssOf('web');
    const hash = rs.metadata.labels?.['pod-template-hash'];
    assert.equal(rs.metadata.name, `web-${hash}`);
    assert.equal(rs.spec.template?.metadata?.labels?.['pod-template-hash'], hash);
    assert.deepEqual((rs.spec.selector as { matchLabels: object }).matchLabels, {
      app: 'web',
      'pod-template-hash': hash,
    });
    assert.equal(rs.metadata.annotations?.[REVISION], '1');
    assert.equal(rs.metadata.annotations?.[NAMES.desiredReplicas], '4');
    assert.equal(d.metadata.annotations?.[REVISION], '1');
    assert.deepEqual(rs.metadata.ownerReferences?.[0]?.uid, d.metadata.uid);
    assert.equal(condition(d, 'Available')?.reason, 'MinimumReplicasAvailable');
    assert.equal(condition(d, 'Progressing')?.reason, 'NewReplicaSetAvailable');
    assert.equal(condition(d, 'Progressing')?.message, `ReplicaSet "${rs.metadata.name}" has successfully progressed.`);
    assert.deepEqual(
      { ...d.status, conditions: undefined },
      {
        observedGeneration: 1,
        replicas: 4,
        updatedReplicas: 4,
        readyReplicas: 4,
        availableReplicas: 4,
        conditions: undefined,
      },
    );
  });

  it('rolls out within maxSurge and maxUnavailable at every observed state', async () => {
    await patchSpec('web', { strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } });
    await rolledOut('web');
    let maxTotal = 0;
    let minReady = Number.POSITIVE_INFINITY;
    const states = new Set<string>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const rss = await rssOf('web');
        const total = rss.reduce((n, rs) => n + (rs.spec.replicas ?? 0), 0);
        const pods = await podsOf('web');
        const ready = pods.filter((p) =>
          p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
        ).length;
        maxTotal = Math.max(maxTotal, total);
        minReady = Math.min(minReady, ready);
        states.add(
          rss
            .map((rs) => `${rs.spec.template?.spec?.containers?.[0]?.image}:${rs.spec.replicas}`)
            .sort()
            .join(','),
        );
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await patchSpec('web', { template: { spec: { containers: [{ name: 'c', image: 'img:2' }] } } });
    const d = await rolledOut('web');
    watching = false;
    await watcher;
    assert.ok(maxTotal <= 5, `at most replicas + maxSurge = 5 pods wanted, saw ${maxTotal}`);
    assert.ok(minReady >= 3, `at least replicas - maxUnavailable = 3 ready, saw ${minReady}`);
    assert.ok(states.size >= 3, `several steps: ${[...states].join(' | ')}`);
    const rss = await rssOf('web');
    assert.deepEqual(
      rss
        .map((rs) => [
          rs.spec.template?.spec?.containers?.[0]?.image,
          rs.spec.replicas,
          rs.metadata.annotations?.[REVISION],
        ])
        .sort(),
      [
        ['img:1', 0, '1'],
        ['img:2', 4, '2'],
      ],
    );
    assert.equal(d.metadata.annotations?.[REVISION], '2');
  });

  it('Recreate stops every old pod before the new ReplicaSet grows', async () => {
    await deployments().create(ns, deployment('batch', { replicas: 3, strategy: { type: 'Recreate' } }), signal);
    await rolledOut('batch');
    let overlap = false;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const images = new Set((await podsOf('batch')).map((p) => p.spec?.containers?.[0]?.image));
        if (images.size > 1) overlap = true;
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await patchSpec('batch', { template: { spec: { containers: [{ name: 'c', image: 'img:2' }] } } });
    await rolledOut('batch');
    watching = false;
    await watcher;
    assert.equal(overlap, false, 'old and new pods never ran together');
    const pods = await podsOf('batch');
    assert.deepEqual(
      pods.map((p) => p.spec?.containers?.[0]?.image),
      ['img:2', 'img:2', 'img:2'],
    );
  });

  it('keeps revisionHistoryLimit old ReplicaSets', async () => {
    await deployments().create(ns, deployment('hist', { replicas: 1, revisionHistoryLimit: 1 }), signal);
    for (const image of ['img:2', 'img:3', 'img:4']) {
      await rolledOut('hist');
      await patchSpec('hist', { template: { spec: { containers: [{ name: 'c', image }] } } });
    }
    await rolledOut('hist');
    const rss = await waitFor('history trimmed', async () => {
      const list = await rssOf('hist');
      return list.length === 2 && list;
    });
    assert.deepEqual(rss.map((rs) => rs.metadata.annotations?.[REVISION]).sort(), ['3', '4']);
  });

  it('a paused deployment scales but does not roll out until resumed', async () => {
    await deployments().create(ns, deployment('calm', { replicas: 2 }), signal);
    await rolledOut('calm');
    await patchSpec('calm', { paused: true });
    const paused = await waitFor('paused condition', async () => {
      const d = await getD('calm');
      return condition(d, 'Progressing')?.reason === 'DeploymentPaused' && d;
    });
    assert.equal(condition(paused, 'Progressing')?.status, 'Unknown');
    await patchSpec('calm', { replicas: 3, template: { spec: { containers: [{ name: 'c', image: 'img:2' }] } } });
    await waitFor('scaled while paused', async () => (await rssOf('calm'))[0]?.spec.replicas === 3);
    assert.equal((await rssOf('calm')).length, 1);
    await patchSpec('calm', { paused: false });
    await rolledOut('calm');
    const rss = await rssOf('calm');
    assert.equal(rss.length, 2);
    const d = await getD('calm');
    assert.equal(condition(d, 'Progressing')?.reason, 'NewReplicaSetAvailable');
  });

  it('reports ProgressDeadlineExceeded when the new pods never become ready', async () => {
    unready.add('slow');
    await deployments().create(ns, deployment('slow', { replicas: 1, progressDeadlineSeconds: 30 }), signal);
    const progressing = await waitFor('progressing', async () => {
      const d = await getD('slow');
      return condition(d, 'Progressing')?.reason === 'ReplicaSetUpdated' ||
        condition(d, 'Progressing')?.reason === 'NewReplicaSetCreated'
        ? d
        : false;
    });
    assert.equal(condition(progressing, 'Available')?.status, 'False');
    f.clock.advance(31_000);
    // Any change makes the controller look again (kube would re-check after the deadline).
    await deployments().patch(ns, 'slow', 'merge', { metadata: { labels: { touched: 'yes' } } }, signal);
    const timedOut = await waitFor('timed out', async () => {
      const d = await getD('slow');
      return condition(d, 'Progressing')?.reason === 'ProgressDeadlineExceeded' && d;
    });
    assert.equal(condition(timedOut, 'Progressing')?.status, 'False');
    assert.match(
      condition(timedOut, 'Progressing')?.message ?? '',
      /^ReplicaSet "slow-\w+" has timed out progressing\.$/,
    );
  });

  it('adopts a matching orphan ReplicaSet', async () => {
    const orphan: ApiObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'stray', labels: { app: 'adopt' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'adopt' } },
        template: { metadata: { labels: { app: 'adopt' } }, spec: { containers: [{ name: 'c', image: 'old' }] } },
      },
    };
    await f.rc('apps', 'replicasets').create(ns, orphan, signal);
    await deployments().create(ns, deployment('adopt', { replicas: 1 }), signal);
    const d = await rolledOut('adopt');
    const stray = await waitFor('adopted', async () => {
      const rs = await f.rc('apps', 'replicasets').get(ns, 'stray', signal);
      return rs.metadata.ownerReferences?.[0]?.uid === d.metadata.uid && rs;
    });
    assert.equal(stray.metadata.ownerReferences?.[0]?.controller, true);
  });

  it('the deprecated rollback annotation restores the previous template and is removed', async () => {
    await deployments().patch(
      ns,
      'web',
      'merge',
      { metadata: { annotations: { 'deprecated.deployment.rollback.to': '0' } } },
      signal,
    );
    const d = await waitFor('rolled back', async () => {
      const cur = await getD('web');
      return (
        cur.spec.template?.spec?.containers?.[0]?.image === 'img:1' &&
        cur.metadata.annotations?.['deprecated.deployment.rollback.to'] === undefined &&
        cur
      );
    });
    assert.equal(d.spec.template?.metadata?.labels?.['pod-template-hash'], undefined);
    await rolledOut('web');
    const rss = await rssOf('web');
    assert.equal(rss.length, 2, 'the first ReplicaSet is reused');
    const first = rss.find((rs) => rs.spec.template?.spec?.containers?.[0]?.image === 'img:1');
    assert.equal(first?.metadata.annotations?.[REVISION], '3');
    assert.equal(first?.metadata.annotations?.[NAMES.revisionHistory], '1');
  });

  it('a name taken by a foreign ReplicaSet raises collisionCount and the next hash is used', async () => {
    await deployments().create(ns, deployment('clash', { replicas: 1, paused: true }), signal);
    const stored = await getD('clash');
    const taken = `clash-${podTemplateHash(stored.spec.template)}`;
    await f.rc('apps', 'replicasets').create(
      ns,
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: taken, labels: { app: 'foreign' } },
        spec: {
          replicas: 0,
          selector: { matchLabels: { app: 'foreign' } },
          template: { metadata: { labels: { app: 'foreign' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
        },
      },
      signal,
    );
    await patchSpec('clash', { paused: false });
    const d = await rolledOut('clash');
    assert.equal(d.status?.collisionCount, 1);
    const [rs] = await rssOf('clash');
    assert.equal(rs.metadata.name, `clash-${podTemplateHash(stored.spec.template, 1)}`);
  });
});
