import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { eventually, withContentLength } from '../lifecycle/lifecycle-helpers.js';
import { apiOf } from '../support/api.js';
import { type CandidateProcess, startCandidate } from './candidates.js';

const NS = 'orch-system';
const V1ALPHA2 = '/apis/coordination.orch.io/v1alpha2';
const CANDIDATES = `${V1ALPHA2}/namespaces/${NS}/leasecandidates`;
const LEASE = `/apis/coordination.orch.io/v1/namespaces/${NS}/leases/orch-controller-manager`;

describe('coordinated leader election (CoordinatedLeaderElection, coordination/v1alpha2)', () => {
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  const candidates: CandidateProcess[] = [];
  let server: RunningServer;
  let api: ReturnType<typeof withContentLength>;

  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'orch-cle-'));
    dirs.push(d);
    return d;
  };

  before(async () => {
    server = await startServer({
      dataDir: tempDir(),
      securePort: 0,
      hostname: 'replica-1',
      featureGates: { CoordinatedLeaderElection: true },
      runtimeConfig: 'coordination.orch.io/v1alpha2=true',
      leaderElection: { leaseDuration: '6s', renewDeadline: '4s', retryPeriod: '500ms' },
    });
    servers.push(server);
    api = withContentLength(apiOf({ url: server.url, admin: server.admin! }).admin);
  });
  after(async () => {
    await Promise.all(candidates.map((c) => c.stop()));
    await Promise.all(servers.map((s) => s.close()));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('is not served without the gate, even with v1alpha2 enabled', async () => {
    const off = await startServer({
      dataDir: tempDir(),
      securePort: 0,
      runControllers: false,
      runtimeConfig: 'coordination.orch.io/v1alpha2=true',
    });
    servers.push(off);
    const offApi = apiOf({ url: off.url, admin: off.admin! }).admin;
    assert.equal((await offApi('GET', V1ALPHA2)).status, 404);
    assert.equal((await offApi('GET', CANDIDATES)).status, 404);
    // Without the gate a Lease keeps no strategy.
    const put = await withContentLength(offApi)('PUT', `/apis/coordination.orch.io/v1/namespaces/${NS}/leases/s`, {
      body: {
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        metadata: { name: 's' },
        spec: { strategy: 'OldestEmulationVersion', preferredHolder: 'x' },
      },
    });
    assert.equal(put.status, 201, put.text);
    assert.deepEqual(put.json().spec, {});
  });

  it('serves LeaseCandidates with their validation', async () => {
    const discovery = await api('GET', V1ALPHA2);
    assert.equal(discovery.status, 200);
    assert.deepEqual(
      discovery.json().resources.map((r: { name: string }) => r.name),
      ['leasecandidates'],
    );
    const bad = await api('POST', CANDIDATES, {
      body: {
        apiVersion: 'coordination.orch.io/v1alpha2',
        kind: 'LeaseCandidate',
        metadata: { name: 'bad' },
        spec: {
          leaseName: 'x',
          binaryVersion: '1.30.0',
          emulationVersion: '1.31.0',
          strategy: 'OldestEmulationVersion',
        },
      },
    });
    assert.equal(bad.status, 422);
    assert.equal(
      bad.json().message,
      'LeaseCandidate.coordination.orch.io "bad" is invalid: spec.binaryVersion: Invalid value: "1.30.0": must be greater than or equal to `emulationVersion`',
    );
  });

  it('the election controller elects the server, hands the controllers to an older candidate and back when it leaves', async () => {
    const own = await eventually('the server’s LeaseCandidate', async () => {
      const items = (await api('GET', CANDIDATES)).json().items ?? [];
      return items.find((c: { metadata: { name: string } }) => c.metadata.name.startsWith('replica-1_'));
    });
    assert.deepEqual(
      {
        leaseName: own.spec.leaseName,
        binaryVersion: own.spec.binaryVersion,
        emulationVersion: own.spec.emulationVersion,
        strategy: own.spec.strategy,
      },
      {
        leaseName: 'orch-controller-manager',
        binaryVersion: '1.32.0',
        emulationVersion: '1.32.0',
        strategy: 'OldestEmulationVersion',
      },
    );
    const serverId: string = own.metadata.name;
    const holder = async () => (await api('GET', LEASE)).json().spec ?? {};
    await eventually('the server elected', async () => (await holder()).holderIdentity === serverId, 30_000);
    assert.equal((await holder()).strategy, 'OldestEmulationVersion');

    // An older candidate (emulating 1.31) is preferred: the server steps down and hands over.
    const older = await startCandidate({
      kubeconfig: server.kubeconfigPath!,
      identity: 'older_1',
      coordinated: true,
      emulationVersion: '1.31.0',
      leaseDurationMs: 6_000,
      renewDeadlineMs: 4_000,
      retryPeriodMs: 500,
    });
    candidates.push(older);
    await older.waitFor('the older candidate leads', (e) => e.event === 'started', 60_000);
    assert.equal((await holder()).holderIdentity, 'older_1');
    assert.equal(
      (
        await api('POST', '/api/v1/namespaces', {
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'handed' } },
        })
      ).status,
      201,
    );
    assert.equal((await api('DELETE', '/api/v1/namespaces/handed')).status, 200);
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal((await api('GET', '/api/v1/namespaces/handed')).json().status.phase, 'Terminating');

    // It leaves (releasing the lease): the server is elected again and its controllers finish the namespace.
    await older.stop();
    await eventually('the server elected again', async () => (await holder()).holderIdentity === serverId, 60_000);
    await eventually(
      'the namespace deleted',
      async () => (await api('GET', '/api/v1/namespaces/handed')).status === 404,
      30_000,
    );
  });
});
