import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiDomain } from '../../src/apis/api-domain.js';
import { cronJobController } from '../../src/controllers/cronjob/cronjob-controller.js';
import { jobController } from '../../src/controllers/job/job-controller.js';
import { waitFor } from '../../src/controllers/testing/controller-fixture.js';
import { ManualClock } from '../../src/controllers/testing/manual-clock.js';
import { type RunningDescriptors, runDescriptors } from '../../src/controllers/testing/run-descriptor.js';
import { ttlAfterFinishedController } from '../../src/controllers/ttl-after-finished/ttl-after-finished-controller.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

const NS = 'default';
const JOBS = `/apis/batch/v1/namespaces/${NS}/jobs`;
const CRONJOBS = `/apis/batch/v1/namespaces/${NS}/cronjobs`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
const podSpec = { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] };

describe('batch controllers against a real server (k8s.io profile)', () => {
  let s: InProcessServer;
  let running: RunningDescriptors;
  // The controllers' clock: starts now and moves when the test says (no waiting for minutes).
  const clock = new ManualClock(Date.now());
  before(async () => {
    s = await startInProcess({ apiDomain: 'k8s.io' });
    running = runDescriptors(s.server.resources, [jobController, cronJobController, ttlAfterFinishedController], {
      clock,
      domain: apiDomain('k8s.io'),
      minResyncPeriodMs: 200,
    });
  });
  after(async () => {
    await running?.stop();
    await s?.stop();
  });

  async function get(path: string): Promise<Json | undefined> {
    const r = await s.api.admin('GET', path);
    if (r.status === 404) return undefined;
    assert.equal(r.status, 200, r.text);
    return r.json();
  }
  async function podsOf(job: Json): Promise<Json[]> {
    const list = (await get(`${PODS}?labelSelector=batch.kubernetes.io/controller-uid=${job.metadata.uid}`)) as Json;
    return list.items;
  }
  /** Plays the node agent: every pending pod of the Job succeeds. */
  async function succeedPods(job: Json, n: number): Promise<void> {
    const pods = await waitFor(`${n} pods`, async () => {
      const p = await podsOf(job);
      return p.length === n ? p : undefined;
    });
    for (const p of pods) {
      const r = await s.api.admin('PUT', `${PODS}/${p.metadata.name}/status`, {
        body: { ...p, status: { ...p.status, phase: 'Succeeded' } },
      });
      assert.equal(r.status, 200, r.text);
    }
  }

  it('a CronJob creates a Job at its firing; the Job runs to Complete and is removed after its TTL', async () => {
    const cj = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'tick' },
      spec: {
        schedule: '*/1 * * * *',
        jobTemplate: {
          spec: { completions: 2, parallelism: 2, ttlSecondsAfterFinished: 1, template: { spec: podSpec } },
        },
      },
    };
    const created = await s.api.admin('POST', CRONJOBS, { body: cj });
    assert.equal(created.status, 201, created.text);
    // The server stamps creation by the real clock: the first firing is the minute after it.
    const firing = Math.floor(Date.parse(created.json().metadata.creationTimestamp) / 60_000) + 1;
    clock.set(new Date(Math.max(clock.now().getTime(), firing * 60_000 + 1000)));
    const job = await waitFor('the firing Job', () => get(`${JOBS}/tick-${firing}`));
    assert.equal(
      job.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'],
      `${new Date(firing * 60_000).toISOString().slice(0, 19)}Z`,
    );
    assert.equal(job.metadata.ownerReferences[0].kind, 'CronJob');
    const cjLive = await waitFor('active', async () => {
      const c = await get(`${CRONJOBS}/tick`);
      return c.status?.active?.length === 1 ? c : undefined;
    });
    assert.equal(cjLive.status.active[0].name, `tick-${firing}`);

    await succeedPods(job, 2);
    const pods = await podsOf(job);
    for (const p of pods) {
      assert.equal(p.metadata.labels['batch.kubernetes.io/job-name'], `tick-${firing}`);
      assert.equal(p.metadata.labels['job-name'], `tick-${firing}`);
      assert.equal(p.metadata.labels['controller-uid'], job.metadata.uid);
    }
    const done = await waitFor('Complete', async () => {
      const j = await get(`${JOBS}/tick-${firing}`);
      return j?.status?.conditions?.some((c: Json) => c.type === 'Complete' && c.status === 'True') ? j : undefined;
    });
    assert.equal(done.status.succeeded, 2);
    assert.deepEqual(done.status.uncountedTerminatedPods, {});
    for (const p of await podsOf(job)) assert.deepEqual(p.metadata.finalizers ?? [], []);
    await waitFor('lastSuccessfulTime', async () => (await get(`${CRONJOBS}/tick`)).status?.lastSuccessfulTime);

    // ttlSecondsAfterFinished: 1 by the controllers' clock.
    clock.advance(2_000);
    await waitFor('Job deleted', async () => {
      const j = await get(`${JOBS}/tick-${firing}`);
      return j === undefined || !!j.metadata.deletionTimestamp;
    });
    const r = await s.api.admin('DELETE', `${CRONJOBS}/tick`);
    assert.equal(r.status, 200, r.text);
  });

  it('a Job with backoffLimit 0 fails on its first pod failure (FailureTarget, then Failed)', async () => {
    const r = await s.api.admin('POST', JOBS, {
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'once' },
        spec: { backoffLimit: 0, template: { spec: podSpec } },
      },
    });
    assert.equal(r.status, 201, r.text);
    const job = r.json();
    const [pod] = await waitFor('pod', async () => {
      const p = await podsOf(job);
      return p.length === 1 ? p : undefined;
    });
    assert.deepEqual(pod.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
    const put = await s.api.admin('PUT', `${PODS}/${pod.metadata.name}/status`, {
      body: { ...pod, status: { ...pod.status, phase: 'Failed' } },
    });
    assert.equal(put.status, 200, put.text);
    const failed = await waitFor('Failed', async () => {
      const j = await get(`${JOBS}/once`);
      return j?.status?.conditions?.some((c: Json) => c.type === 'Failed') ? j : undefined;
    });
    assert.deepEqual(
      failed.status.conditions.map((c: Json) => [c.type, c.reason]),
      [
        ['FailureTarget', 'BackoffLimitExceeded'],
        ['Failed', 'BackoffLimitExceeded'],
      ],
    );
    assert.equal(failed.status.failed, 1);
  });

  it("each controller's default role allows every request it makes as its service account", async () => {
    const needs: Record<string, [string, string, string, string?][]> = {
      'job-controller': [
        ['get', 'batch', 'jobs'],
        ['update', 'batch', 'jobs', 'status'],
        ['update', 'batch', 'jobs', 'finalizers'],
        ['create', '', 'pods'],
        ['delete', '', 'pods'],
        ['patch', '', 'pods'],
        ['create', '', 'events'],
      ],
      'cronjob-controller': [
        ['get', 'batch', 'cronjobs'],
        ['update', 'batch', 'cronjobs', 'status'],
        ['update', 'batch', 'cronjobs', 'finalizers'],
        ['create', 'batch', 'jobs'],
        ['get', 'batch', 'jobs'],
        ['delete', 'batch', 'jobs'],
        ['create', '', 'events'],
      ],
      'ttl-after-finished-controller': [
        ['get', 'batch', 'jobs'],
        ['delete', 'batch', 'jobs'],
      ],
    };
    for (const [sa, rules] of Object.entries(needs)) {
      for (const [verb, group, resource, subresource] of rules) {
        const r = await s.api.admin('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user: `system:serviceaccount:kube-system:${sa}`,
              groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
              resourceAttributes: { namespace: NS, verb, group, resource, subresource },
            },
          },
        });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.json().status.allowed, true, `${sa} ${verb} ${resource}${subresource ? `/${subresource}` : ''}`);
      }
    }
  });
});
