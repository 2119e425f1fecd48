import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import type { Lease } from '../../apis/coordination/lease.js';
import type { LeaseCandidate } from '../../apis/coordination/lease-candidate.js';
import { StatusError } from '../../apis/meta/status.js';
import { alwaysAllow } from '../../authz/index.js';
import { LeaderElector } from '../../client/leaderelection/leader-elector.js';
import { LeaseCandidateRenewer } from '../../client/leaderelection/lease-candidate-renewer.js';
import { LeaseLock } from '../../client/leaderelection/lease-lock.js';
import { registryFixture } from '../../registry/resource-set/testing/registry-fixture.js';
import { ControllerClient, frozenUser } from '../controller-client.js';
import { waitFor } from '../testing/controller-fixture.js';
import { controllerObjectClient } from './controller-object-client.js';
import { CoordinatedElectionController } from './coordinated-election-controller.js';

const NS = 'orch-system';
const GROUP = 'coordination.orch.io';
const LEASE = 'orch-controller-manager';

describe('coordinated leader election (in process, real time)', async () => {
  const f = await registryFixture({ coordinatedLeaderElection: true });
  await f.createNamespace(NS);
  const stopAll = new AbortController();
  after(() => stopAll.abort());
  const admin = new ControllerClient(
    { user: frozenUser({ name: 'admin', groups: ['system:masters'] }), manager: 'admin' },
    alwaysAllow,
  );
  const leases = f.resources.lookup(GROUP, 'v1', 'leases')!;
  const candidates = f.resources.lookup(GROUP, 'v1alpha2', 'leasecandidates')!;
  const controller = new CoordinatedElectionController({
    resources: f.resources,
    authorizer: alwaysAllow,
    identity: { user: frozenUser({ name: 'system:apiserver', groups: ['system:masters'] }), manager: 'orch-apiserver' },
    domain: ORCH_DOMAIN,
    signal: stopAll.signal,
    electionDurationMs: 300,
    requeueMs: 200,
  });
  const controllerDone = controller.run();
  after(() => controllerDone);

  const readLease = async (): Promise<Lease | undefined> => {
    try {
      return (await admin.get(leases, { namespace: NS, name: LEASE }, stopAll.signal)) as Lease;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return undefined;
      throw e;
    }
  };

  /** A candidate process: its LeaseCandidate kept alive and a coordinated elector. */
  function candidate(name: string, emulationVersion: string) {
    const stop = new AbortController();
    const stops: string[] = [];
    const logger = {
      info: (msg: string, fields?: Record<string, unknown>) => {
        if (msg === 'leader election: stopped leading') stops.push(String(fields?.reason));
      },
      warn() {},
      error() {},
    };
    stopAll.signal.addEventListener('abort', () => stop.abort(), { once: true });
    const renewer = new LeaseCandidateRenewer({
      client: controllerObjectClient<LeaseCandidate>(admin, candidates, NS),
      group: GROUP,
      name,
      leaseName: LEASE,
      binaryVersion: '1.32.0',
      emulationVersion,
      strategy: 'OldestEmulationVersion',
      pingCheckIntervalMs: 50,
    });
    const elector = new LeaderElector({
      lock: new LeaseLock({
        client: controllerObjectClient<Lease>(admin, leases, NS),
        name: LEASE,
        identity: name,
        group: GROUP,
      }),
      leaseDurationMs: 2_000,
      renewDeadlineMs: 1_500,
      retryPeriodMs: 200,
      coordinated: true,
      releaseOnCancel: true,
      logger,
      callbacks: { onStartedLeading: () => {}, onStoppedLeading: () => {} },
    });
    const runs = Promise.all([
      renewer.run(stop.signal),
      (async () => {
        while (!stop.signal.aborted) await elector.run(stop.signal);
      })(),
    ]);
    const halt = async () => {
      stop.abort();
      await runs;
    };
    return { name, elector, stops, stop: halt };
  }

  it('elects the candidate with the oldest emulation version, and hands over when an older one arrives', async () => {
    const a = candidate('host-a_1', '1.31.0');
    const b = candidate('host-b_2', '1.32.0');
    const all = [a, b];
    let twoLeaders = false;
    const sampler = setInterval(() => {
      if (all.filter((x) => x.elector.isLeader()).length > 1) twoLeaders = true;
    }, 10);
    try {
      await waitFor('a leads', () => a.elector.isLeader(), 15_000);
      const lease = (await readLease())!;
      assert.equal(lease.spec?.holderIdentity, 'host-a_1');
      assert.equal(lease.spec?.strategy, 'OldestEmulationVersion');
      assert.equal(b.elector.isLeader(), false);

      const c = candidate('host-c_3', '1.30.0');
      all.push(c);
      await waitFor('c leads', () => c.elector.isLeader(), 20_000);
      assert.equal(a.elector.isLeader(), false);
      const handed = (await readLease())!;
      assert.equal(handed.spec?.holderIdentity, 'host-c_3');
      assert.equal(handed.spec?.preferredHolder, undefined);
      assert.deepEqual(a.stops, ['preferred holder'], 'a stepped down when c was preferred');
      assert.equal(twoLeaders, false, 'two candidates led at once');

      // The leader stops: its lease is released and the next best (a) is elected.
      await c.stop();
      await waitFor('a leads again', () => a.elector.isLeader(), 20_000);
      assert.equal(twoLeaders, false, 'two candidates led at once');
    } finally {
      clearInterval(sampler);
      await Promise.all(all.map((x) => x.stop()));
    }
  });

  it('a candidate pinged by the controller answers by renewing', async () => {
    const renewer = new LeaseCandidateRenewer({
      client: controllerObjectClient<LeaseCandidate>(admin, candidates, NS),
      group: GROUP,
      name: 'pinged',
      leaseName: 'other-lease',
      binaryVersion: '1.32.0',
      emulationVersion: '1.32.0',
      strategy: 'OldestEmulationVersion',
      renewIntervalMs: 60_000,
    });
    const signal = stopAll.signal;
    assert.equal(await renewer.sync(signal), 'created');
    assert.equal(await renewer.sync(signal), 'unchanged');
    const lc = (await admin.get(candidates, { namespace: NS, name: 'pinged' }, signal)) as LeaseCandidate;
    const ping = new Date(Date.parse(lc.spec!.renewTime!) + 1).toISOString();
    await admin.update(
      candidates,
      { namespace: NS, name: 'pinged' },
      { retryOnConflict: false, compute: () => ({ ...lc, spec: { ...lc.spec, pingTime: ping } }) },
      signal,
    );
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(await renewer.sync(signal), 'renewed');
    assert.equal(await renewer.sync(signal), 'unchanged');
  });
});
