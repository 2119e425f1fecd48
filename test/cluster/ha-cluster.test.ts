import assert from 'node:assert/strict';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { apiDomain } from '../../src/apis/api-domain.js';
import {
  balancerBackends,
  clusterStatus,
  etcdLeader,
  startMember,
  stopCluster,
  stopMember,
} from '../../src/cli/cluster/cluster-control.js';
import type { ClusterState, MemberState } from '../../src/cli/cluster/cluster-state.js';
import { clusterUp } from '../../src/cli/cluster/cluster-up.js';
import { probeEtcd, probeReadyz } from '../../src/cli/cluster/member-probes.js';
import { ownHostnameLauncher } from '../../src/cli/cluster/replica-hostname.js';
import { identityLeaseSelector } from '../../src/controllers/apiserver-identity/apiserver-id.js';
import { bundledProgram } from '../support/program-bundle.js';
import { type ClusterClient, clusterClient, rvOf } from './cluster-client.js';
import { runLoad, storedNames } from './cluster-load.js';
import { type EtcdPathProxy, startEtcdPathProxy } from './etcd-path-proxy.js';
import {
  etcdHistory,
  namesSeen,
  replayDifferences,
  startWatchers,
  type Watcher,
  type WatchSegment,
} from './watch-replay.js';

const ETCD = process.env.ORCH_ETCD_BIN ?? '/usr/bin/etcd';
const HAPROXY = process.env.ORCH_HAPROXY_BIN ?? '/usr/sbin/haproxy';
/** Missing tools skip the suite locally; on CI (`CI` set) they fail it, as for the etcd tests. */
const missing = [ETCD, HAPROXY].filter((bin) => {
  try {
    accessSync(bin, constants.X_OK);
    return false;
  } catch {
    return true;
  }
});
const SKIP =
  missing.length > 0 && !process.env.CI
    ? `${missing.join(', ')} not installed (apt-get install etcd-server haproxy); skipped because CI is unset`
    : false;
const ROOT = resolve(import.meta.dirname, '..', '..');
/** Generous: the suite shares two cores with other work; the issue's bounds are asserted below. */
const STEP_TIMEOUT = 180_000;
/** Short leader election timings so that a handover fits in a test: lease 4 s, renew 3 s, retry 1 s. */
const LEASE_MS = 4000;
const RETRY_MS = 1000;
const ELECTION_ARGS = [
  '--leader-elect-lease-duration=4s',
  '--leader-elect-renew-deadline=3s',
  '--leader-elect-retry-period=1s',
];
const DOMAIN = apiDomain();
/** Watch clients in the API-server-loss scenario. */
const WATCHES = 100;
/** The replica that reaches etcd through its own proxy, cut in one scenario. */
const ISOLATED = 'apiserver-2';

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < timeoutMs) {
    if (await check()) return Math.round(performance.now() - start);
    await sleep(100);
  }
  throw new Error(`${what} within ${timeoutMs} ms`);
}

function clusterSuite(): void {
  let dir: string;
  let state: ClusterState;
  let client: ClusterClient;
  let caPem: string;
  let proxy: EtcdPathProxy;
  const apiservers = () => state.members.filter((m) => m.kind === 'apiserver');
  const balancerPort = () => Number(new URL(state.url).port);

  const restart = async (m: MemberState) => {
    await startMember(state, m.name, ROOT);
    await until(`${m.name} healthy`, async () =>
      m.kind === 'etcd' ? (await probeEtcd(m.port)).healthy : (await probeReadyz(m.port, caPem)).healthy,
    );
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-ha-'));
    proxy = await startEtcdPathProxy();
    state = await clusterUp({
      dir,
      etcdBinary: ETCD,
      haproxyBinary: HAPROXY,
      apiserverArgs: ELECTION_ARGS,
      apiserverProgram: bundledProgram('src/cli/orch-apiserver.ts'),
      apiserverEtcdServers: (name, endpoints) => {
        if (name !== ISOLATED) return endpoints;
        proxy.setTargets(endpoints);
        return [proxy.url];
      },
    });
    caPem = await readFile(join(state.certDir, 'ca.crt'), 'utf8');
    client = clusterClient(state.certDir);
    const ns = (name: string) => ({ metadata: { name } });
    for (const n of ['consistency', 'load']) {
      assert.equal((await client.call(balancerPort(), 'POST', '/api/v1/namespaces', ns(n))).status, 201);
    }
  });

  after(async () => {
    client?.close();
    if (state) await stopCluster(state, { kill: true });
    await proxy?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts every member healthy behind the balancer, with the admin kubeconfig on the balancer', async () => {
    const status = await clusterStatus(state);
    assert.deepEqual(
      status.map((s) => [s.name, s.running, s.health.healthy]),
      state.members.map((m) => [m.name, true, true]),
    );
    assert.ok(await etcdLeader(state), 'one etcd member is the leader');
    const backends = await balancerBackends(state);
    assert.deepEqual(
      [...backends.entries()].sort(),
      apiservers().map((m) => [m.name, 'UP']),
    );
    const kubeconfig = parse(await readFile(state.kubeconfig, 'utf8')) as {
      clusters: { cluster: { server: string } }[];
    };
    assert.equal(kubeconfig.clusters[0]?.cluster.server, state.url);
    const r = await client.call(balancerPort(), 'GET', '/api/v1/namespaces/default');
    assert.equal(r.status, 200);
  });

  it('keeps one identity Lease per replica, each replica on its own host name when the host allows it', async (t) => {
    const own = ownHostnameLauncher() !== undefined;
    const path =
      `/apis/${DOMAIN.group('coordination')}/v1/namespaces/${DOMAIN.systemNamespace}/leases` +
      `?labelSelector=${encodeURIComponent(identityLeaseSelector(DOMAIN))}`;
    const hostLabel = DOMAIN.key('', 'hostname');
    let leases: { name: string; host: string }[] = [];
    const expected = own ? apiservers().length : 1;
    await until(`${expected} identity Leases`, async () => {
      const r = await client.call(balancerPort(), 'GET', path);
      const items = (r.body?.items ?? []) as { metadata: { name: string; labels?: Record<string, string> } }[];
      leases = items.map((i) => ({ name: i.metadata.name, host: i.metadata.labels?.[hostLabel] ?? '' }));
      return leases.length >= expected;
    });
    t.diagnostic(`identity Leases (own host names: ${own}): ${leases.map((l) => `${l.name} (${l.host})`).join(', ')}`);
    const hosts = leases.map((l) => l.host).sort();
    // kube-apiserver names its Lease after the host name only (no flag): one host, one Lease.
    assert.deepEqual(hosts, own ? apiservers().map((m) => m.name) : [hostname()]);
    assert.equal(new Set(leases.map((l) => l.name)).size, leases.length);
  });

  it('shows a write acknowledged by one replica to a consistent read on every other at once', async () => {
    const [a, ...others] = apiservers();
    assert.ok(a);
    for (let i = 0; i < 20; i++) {
      const path = '/api/v1/namespaces/consistency/configmaps';
      const created = await client.call(a.port, 'POST', path, { metadata: { name: `cm-${i}` }, data: { i: `${i}` } });
      assert.equal(created.status, 201);
      const rv = rvOf(created.body);
      for (const o of others) {
        const got = await client.call(o.port, 'GET', `${path}/cm-${i}`);
        assert.equal(got.status, 200, `${o.name} reads cm-${i} right after apiserver-0 acknowledged it`);
        assert.equal(rvOf(got.body), rv);
      }
    }
  });

  it('serves the same snapshot for a list at one resourceVersion on every replica', async () => {
    const path = '/api/v1/namespaces/consistency/configmaps';
    const first = await client.call(apiservers()[0]?.port ?? 0, 'GET', path);
    const rv = rvOf(first.body);
    // Writes after R must not show up in a list at R.
    await client.call(apiservers()[1]?.port ?? 0, 'POST', path, { metadata: { name: 'after-r' } });
    const snapshot = (b: Record<string, unknown> | undefined) =>
      ((b?.items ?? []) as { metadata: { name: string; resourceVersion: string } }[]).map(
        (i) => `${i.metadata.name}@${i.metadata.resourceVersion}`,
      );
    const expected = snapshot(first.body);
    assert.equal(expected.length, 20);
    for (const m of apiservers()) {
      const exact = await client.call(m.port, 'GET', `${path}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
      assert.equal(exact.status, 200, `${m.name}: ${JSON.stringify(exact.body)}`);
      assert.deepEqual(snapshot(exact.body), expected, `${m.name} list at ${rv}`);
      assert.equal(rvOf(exact.body), rv);
    }
  });

  const loadRun = async (prefix: string, fault: () => Promise<number | undefined>) => {
    const stop = new AbortController();
    const load = runLoad({
      client,
      port: balancerPort(),
      namespace: 'load',
      prefix,
      writers: 4,
      readers: 2,
      signal: stop.signal,
    });
    await sleep(1500);
    const faultResult = await fault();
    await sleep(3000);
    stop.abort();
    const result = await load;
    const found = new Set(await storedNames(client, balancerPort(), 'load', prefix));
    const lost = result.acknowledged.filter((n) => !found.has(n));
    const counts = {
      sent: result.sent,
      acknowledged: result.acknowledged.length,
      found: found.size,
      failedAttempts: result.failedAttempts,
      reads: result.reads,
      longestWriteGapMs: result.longestWriteGapMs,
    };
    return { result, found, lost, counts, faultResult };
  };

  it('fails no request when an etcd follower dies', { timeout: STEP_TIMEOUT }, async (t) => {
    const leader = await etcdLeader(state);
    const follower = state.members.find((m) => m.kind === 'etcd' && m.name !== leader);
    assert.ok(follower);
    t.after(() => restart(follower));
    const run = await loadRun('follower', async () => {
      await stopMember(state, follower.name, { kill: true });
      return undefined;
    });
    t.diagnostic(`etcd follower loss: ${JSON.stringify(run.counts)} ${run.result.failures.join('; ')}`);
    assert.deepEqual(run.lost, [], 'every acknowledged write is stored');
    assert.ok(run.found.size >= run.result.acknowledged.length);
    assert.ok(run.found.size <= run.result.sent);
    assert.equal(run.result.failedAttempts, 0, run.result.failures.join('; '));
  });

  it('pauses writes at most 3 s when the etcd leader dies', { timeout: STEP_TIMEOUT }, async (t) => {
    const leaderName = await etcdLeader(state);
    assert.ok(leaderName);
    const leader = state.members.find((m) => m.name === leaderName) as MemberState;
    t.after(() => restart(leader));
    const run = await loadRun('leader', async () => {
      await stopMember(state, leader.name, { kill: true });
      return undefined;
    });
    t.diagnostic(`etcd leader loss: ${JSON.stringify(run.counts)} ${run.result.failures.slice(0, 5).join('; ')}`);
    assert.deepEqual(run.lost, [], 'every acknowledged write is stored');
    assert.ok(run.found.size <= run.result.sent);
    assert.notEqual(await etcdLeader(state), leaderName, 'another member leads');
    assert.ok(run.result.longestWriteGapMs <= 3000, `longest write pause ${run.result.longestWriteGapMs} ms`);
  });

  /** Compares every watcher with etcd's history of the `load=<prefix>` ConfigMaps: problems per watcher. */
  const replayAgainstEtcd = async (prefix: string, watchers: readonly Watcher[]) => {
    // The oldest list any watcher started from (revisions here fit a double).
    const from = BigInt(Math.min(...watchers.map((w) => Number((w.segments[0] as WatchSegment).listRv)))) + 1n;
    const history = await etcdHistory(state.etcdEndpoints, `/registry/core/configmaps/load/${prefix}-`, from);
    const problems = watchers.map((w, i) =>
      replayDifferences(w, { ...history, from }).map(
        (p) => `watcher ${i} (resumed at ${w.resumedAt.join(', ')}): ${p}`,
      ),
    );
    return { history, problems: problems.flat() };
  };

  /** Waits until every watcher saw the `expected` objects (or 60 s), then stops them. */
  const settleWatchers = async (
    watching: { watchers: Watcher[]; done: Promise<void> },
    stop: AbortController,
    expected: number,
  ) => {
    const caughtUpMs = await until('every watcher saw every stored object', async () =>
      watching.watchers.every((w) => namesSeen(w).size >= expected),
    ).catch(() => -1);
    stop.abort();
    await watching.done;
    return {
      caughtUpMs,
      reconnects: watching.watchers.reduce((s, w) => s + w.reconnects, 0),
      relists: watching.watchers.reduce((s, w) => s + w.relists, 0),
      events: watching.watchers.reduce((s, w) => s + w.segments.reduce((n, x) => n + x.events.length, 0), 0),
    };
  };

  it('loses no acknowledged write and resumes every watch when an API server dies', {
    timeout: STEP_TIMEOUT,
  }, async (t) => {
    const stopWatches = new AbortController();
    const listStart = performance.now();
    const watching = await startWatchers({
      client,
      port: balancerPort(),
      base: '/api/v1/namespaces/load/configmaps',
      selector: 'load%3Dapiserver',
      count: WATCHES,
      signal: stopWatches.signal,
    });
    const listedMs = Math.round(performance.now() - listStart);
    const victim = apiservers()[1] as MemberState;
    t.after(async () => {
      const restartStart = performance.now();
      await restart(victim);
      t.diagnostic(`${victim.name} ready again ${Math.round(performance.now() - restartStart)} ms after its restart`);
    });
    const run = await loadRun('apiserver', async () => {
      await stopMember(state, victim.name, { kill: true });
      return undefined;
    });
    const w = await settleWatchers(watching, stopWatches, run.found.size);
    const { history, problems } = await replayAgainstEtcd('apiserver', watching.watchers);
    t.diagnostic(
      `API server loss: ${JSON.stringify(run.counts)}; watches: ${WATCHES} (listed in ${listedMs} ms), reconnects ${w.reconnects}, ` +
        `relists ${w.relists}, events ${w.events}, caught up ${w.caughtUpMs} ms after the load; ` +
        `etcd history: ${history.changes.length} changes`,
    );
    assert.deepEqual(run.lost, [], 'every acknowledged write is stored');
    assert.deepEqual(problems.slice(0, 10), [], `${problems.length} differences from the etcd history`);
    assert.ok(w.reconnects > 0, 'some watches were on the killed replica');
    assert.equal(history.changes.filter((c) => c.type === 'ADDED').length + history.before.length, run.found.size);
    for (const [i, watcher] of watching.watchers.entries()) {
      assert.deepEqual([...namesSeen(watcher)].sort(), [...run.found].sort(), `watcher ${i} ends with what is stored`);
    }
  });

  it('takes a replica that alone lost etcd out of rotation and brings it back', {
    timeout: STEP_TIMEOUT,
  }, async (t) => {
    const isolated = apiservers().find((m) => m.name === ISOLATED) as MemberState;
    t.after(() => proxy.restore());
    const stopWatches = new AbortController();
    const watching = await startWatchers({
      client,
      port: balancerPort(),
      base: '/api/v1/namespaces/load/configmaps',
      selector: 'load%3Disolated',
      count: 30,
      signal: stopWatches.signal,
    });
    let notReadyMs = -1;
    let outMs = -1;
    let readyAgainMs = -1;
    let backMs = -1;
    const run = await loadRun('isolated', async () => {
      proxy.cut();
      notReadyMs = await until(
        `${ISOLATED} reports not ready`,
        async () => {
          const r = await probeReadyz(isolated.port, caPem);
          if (r.healthy) return false;
          // The failing check is etcd's (kube serves each check at /readyz/<name>).
          const etcd = await client.call(isolated.port, 'GET', '/readyz/etcd', undefined, 3000).catch(() => undefined);
          return etcd !== undefined && etcd.status !== 200;
        },
        30_000,
      );
      outMs = await until(
        'the balancer takes it out',
        async () => (await balancerBackends(state).catch(() => new Map<string, string>())).get(ISOLATED) === 'DOWN',
      );
      const others = apiservers().filter((m) => m !== isolated);
      for (const o of others) assert.ok((await probeReadyz(o.port, caPem)).healthy, `${o.name} stays ready`);
      await sleep(2000);
      proxy.restore();
      readyAgainMs = await until(
        `${ISOLATED} ready again`,
        async () => (await probeReadyz(isolated.port, caPem)).healthy,
      );
      backMs = await until(
        'the balancer takes it back',
        async () => (await balancerBackends(state).catch(() => new Map<string, string>())).get(ISOLATED) === 'UP',
      );
      return undefined;
    });
    const w = await settleWatchers(watching, stopWatches, run.found.size);
    const { history, problems } = await replayAgainstEtcd('isolated', watching.watchers);
    t.diagnostic(
      `one replica cut from etcd: ${JSON.stringify(run.counts)}; not ready ${notReadyMs} ms after the cut, ` +
        `out of the balancer ${outMs} ms later; ready ${readyAgainMs} ms after the path returned, back in ` +
        `${backMs} ms; watches: 30, reconnects ${w.reconnects}, relists ${w.relists}, events ${w.events}, ` +
        `etcd history: ${history.changes.length} changes; failures: ${run.result.failures.slice(0, 3).join('; ')}`,
    );
    assert.deepEqual(run.lost, [], 'every acknowledged write is stored');
    assert.deepEqual(problems.slice(0, 10), [], `${problems.length} differences from the etcd history`);
    assert.equal(history.changes.filter((c) => c.type === 'ADDED').length + history.before.length, run.found.size);
    assert.ok(run.found.size <= run.result.sent);
    assert.ok(run.result.acknowledged.length > 0);
    assert.ok(notReadyMs <= 5000, `not ready after ${notReadyMs} ms`);
    // Three failed checks 1 s apart; back after two passing ones. Slack for a loaded host.
    assert.ok(outMs <= 10_000 && backMs <= 10_000, `out after ${outMs} ms, back after ${backMs} ms`);
    assert.ok(readyAgainMs <= 10_000, `ready again after ${readyAgainMs} ms`);
    assert.ok(w.reconnects > 0, 'the watches served by the cut replica ended and resumed elsewhere');
    for (const [i, watcher] of watching.watchers.entries()) {
      assert.deepEqual([...namesSeen(watcher)].sort(), [...run.found].sort(), `watcher ${i} ends with what is stored`);
    }
  });

  it('moves controller leadership within leaseDuration + retryPeriod when the leading API server dies', {
    timeout: STEP_TIMEOUT,
  }, async (t) => {
    const path = `/apis/${DOMAIN.group('coordination')}/v1/namespaces/${DOMAIN.systemNamespace}/leases/${DOMAIN.controllerManagerName}`;
    const holder = async () => {
      const r = await client.call(balancerPort(), 'GET', path).catch(() => undefined);
      const spec = r?.status === 200 ? (r.body?.spec as { holderIdentity?: string } | undefined) : undefined;
      return spec?.holderIdentity ?? '';
    };
    await until('a replica holds the controllers Lease', async () => (await holder()) !== '');
    const first = await holder();
    // Which replica that is: each logs the identity it started leading with.
    const logs = await Promise.all(apiservers().map(async (m) => ({ m, log: await readFile(m.logFile, 'utf8') })));
    const leading = logs.find((x) => x.log.includes('started leading') && x.log.includes(first))?.m;
    assert.ok(leading, `a replica logged leading as ${first}`);
    t.after(() => restart(leading));
    const killedAt = performance.now();
    await stopMember(state, leading.name, { kill: true });
    await until('another replica holds the Lease', async () => {
      const h = await holder();
      return h !== '' && h !== first;
    });
    const movedMs = Math.round(performance.now() - killedAt);
    t.diagnostic(
      `controller leadership moved ${movedMs} ms after the leader was killed (bound ${LEASE_MS + RETRY_MS} ms)`,
    );
    // Candidates retry every retryPeriod with kube's jitter (up to 1.2x); this test observes the
    // Lease by polling through the balancer (every 100 ms, one request), and the candidate's
    // acquisition is a write through a loaded 2-core host: 1.5 s of slack for both.
    assert.ok(movedMs <= LEASE_MS + RETRY_MS * 1.2 + 1500, `leadership moved after ${movedMs} ms`);
  });

  it('reports not ready while etcd has no quorum and recovers by itself', { timeout: STEP_TIMEOUT }, async (t) => {
    const etcd = state.members.filter((m) => m.kind === 'etcd');
    const [, b, c] = etcd as [MemberState, MemberState, MemberState];
    await stopMember(state, b.name, { kill: true });
    await stopMember(state, c.name, { kill: true });
    t.after(async () => {
      await restart(b);
      await restart(c);
    });
    const notReadyMs = await until('every API server reports not ready', async () => {
      const r = await Promise.all(apiservers().map((m) => probeReadyz(m.port, caPem)));
      return r.every((x) => !x.healthy);
    });
    await startMember(state, b.name, ROOT);
    await startMember(state, c.name, ROOT);
    const readyMs = await until('every API server reports ready again', async () => {
      const r = await Promise.all(apiservers().map((m) => probeReadyz(m.port, caPem)));
      return r.every((x) => x.healthy);
    });
    t.diagnostic(`not ready ${notReadyMs} ms after quorum loss; ready ${readyMs} ms after quorum returned`);
    // The balancer takes a replica back after two passing checks.
    const backMs = await until('the balancer serves again', async () => {
      const r = await client.call(balancerPort(), 'GET', '/api/v1/namespaces/default').catch(() => undefined);
      return r?.status === 200;
    });
    t.diagnostic(`balancer serving ${backMs} ms after every replica was ready`);
  });
}

describe(
  'high-availability cluster (3 etcd members, 3 API servers, haproxy)',
  { timeout: 900_000, skip: SKIP },
  // A skipped suite still runs its body in Node 20: give it an empty one.
  SKIP ? () => {} : clusterSuite,
);
