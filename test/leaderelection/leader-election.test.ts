import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { apiServerId } from '../../src/controllers/apiserver-identity/apiserver-id.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { formatMicroTime } from '../../src/util/clock.js';
import type { Logger } from '../../src/util/logger.js';
import { eventually, withContentLength } from '../lifecycle/lifecycle-helpers.js';
import { apiOf } from '../support/api.js';
import { beliefIntervals, type CandidateProcess, overlaps, startCandidate } from './candidates.js';

const NS = 'orch-system';
const LEASES = `/apis/coordination.orch.io/v1/namespaces/${NS}/leases`;
const LEASE = `${LEASES}/orch-controller-manager`;

/** Log lines of the server, with the wall-clock time they were written. */
function capturingLogger(lines: { msg: string; t: number; fields?: Record<string, unknown> }[]): Logger {
  const keep = (msg: string, fields?: Record<string, unknown>) =>
    lines.push({ msg, t: performance.timeOrigin + performance.now(), fields });
  return { info: keep, warn: keep, error: keep };
}

/** The server's terms as wall-clock intervals, from its "started/stopped leading" log lines. */
function serverTerms(lines: readonly { msg: string; t: number; fields?: Record<string, unknown> }[], lease: string) {
  const terms: [number, number][] = [];
  for (const l of lines) {
    if (l.fields?.lease !== lease) continue;
    if (l.msg === 'leader election: started leading') terms.push([l.t, Number.POSITIVE_INFINITY]);
    if (l.msg === 'leader election: stopped leading' && terms.length > 0) terms[terms.length - 1][1] = l.t;
  }
  return terms;
}

describe('leader election against one server over HTTP', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-le-'));
  const log: { msg: string; t: number; fields?: Record<string, unknown> }[] = [];
  let server: RunningServer;
  let api: ReturnType<typeof withContentLength>;
  const candidates: CandidateProcess[] = [];

  before(async () => {
    // A first run writes what a previous cluster left: the controllers' Lease held by cand-a
    // (which is about to come back) and the identity Lease of a replica that is gone.
    const first = await startServer({
      dataDir,
      securePort: 0,
      runControllers: false,
      featureGates: { APIServerIdentity: false },
    });
    const firstApi = withContentLength(apiOf({ url: first.url, admin: first.admin! }).admin);
    const now = formatMicroTime(new Date());
    const held = await firstApi('PUT', LEASE, {
      body: {
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        metadata: { name: 'orch-controller-manager', namespace: NS },
        spec: {
          holderIdentity: 'cand-a',
          leaseDurationSeconds: 10,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: 0,
        },
      },
    });
    assert.equal(held.status, 201, held.text);
    const gone = await firstApi('POST', LEASES, {
      body: {
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        metadata: { name: 'apiserver-gone', labels: { 'apiserver.orch.io/identity': 'orch-apiserver' } },
        spec: {
          holderIdentity: 'apiserver-gone_1',
          leaseDurationSeconds: 3600,
          renewTime: formatMicroTime(new Date(Date.now() - 2 * 3600_000)),
        },
      },
    });
    assert.equal(gone.status, 201, gone.text);
    await first.close();
    server = await startServer({
      dataDir,
      securePort: 0,
      hostname: 'replica-1',
      leaderElection: { leaseDuration: '10s', renewDeadline: '7s', retryPeriod: '500ms' },
      logger: capturingLogger(log),
    });
    api = withContentLength(apiOf({ url: server.url, admin: server.admin! }).admin);
  });
  after(async () => {
    await Promise.all(candidates.map((c) => c.stop()));
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const holder = async (path = LEASE): Promise<string | undefined> => {
    const r = await api('GET', path);
    return r.status === 200 ? r.json().spec?.holderIdentity : undefined;
  };

  it('keeps its identity Lease and collects the expired one of a gone replica', async () => {
    const id = apiServerId('replica-1', ORCH_DOMAIN);
    const own = await eventually('the identity lease', async () => {
      const r = await api('GET', `${LEASES}/${id}`);
      return r.status === 200 ? r.json() : undefined;
    });
    assert.deepEqual(own.metadata.labels, {
      'apiserver.orch.io/identity': 'orch-apiserver',
      'orch.io/hostname': 'replica-1',
    });
    assert.equal(own.spec.leaseDurationSeconds, 3600);
    assert.match(own.spec.holderIdentity, new RegExp(`^${id}_[0-9a-f-]{36}$`));
    await eventually(
      'the expired identity lease to be collected',
      async () => (await api('GET', `${LEASES}/apiserver-gone`)).status === 404,
    );
    const list = await api('GET', `${LEASES}?labelSelector=apiserver.orch.io/identity%3Dorch-apiserver`);
    assert.deepEqual(
      list.json().items.map((i: { metadata: { name: string } }) => i.metadata.name),
      [id],
    );
  });

  it('three candidates: the holder keeps the lease, the server runs no controllers meanwhile; a paused leader stops leading before anyone takes over, and the controllers end up on the server', async () => {
    const kubeconfig = server.kubeconfigPath!;
    const timings = { leaseDurationMs: 10_000, renewDeadlineMs: 7_000, retryPeriodMs: 500 };
    const a = await startCandidate({ kubeconfig, identity: 'cand-a', ...timings });
    candidates.push(a);
    await a.waitFor('a leads', (e) => e.event === 'started');
    const b = await startCandidate({ kubeconfig, identity: 'cand-b', ...timings });
    candidates.push(b);
    assert.equal(await holder(), 'cand-a');

    // Controllers are off on the server while another candidate leads.
    assert.equal(
      (
        await api('POST', '/api/v1/namespaces', {
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gated' } },
        })
      ).status,
      201,
    );
    assert.equal((await api('DELETE', '/api/v1/namespaces/gated')).status, 200);
    await new Promise((r) => setTimeout(r, 3_000));
    const stillThere = await api('GET', '/api/v1/namespaces/gated');
    assert.equal(stillThere.status, 200);
    assert.equal(stillThere.json().status.phase, 'Terminating');
    assert.deepEqual(serverTerms(log, 'orch-system/orch-controller-manager'), []);

    // The leader's process is paused: nothing of it runs, its timers included.
    const lastUntil = beliefIntervals(a.events).at(-1)![1];
    const pausedAt = Date.now();
    a.pause();
    const next = await eventually(
      'another holder',
      async () => {
        const h = await holder();
        return h && h !== 'cand-a' ? h : undefined;
      },
      30_000,
    );
    const takeoverSeen = Date.now();
    // Nobody took over before a's deadline had passed (a's last renewal + 7 s).
    assert.ok(takeoverSeen > lastUntil, `takeover seen at ${takeoverSeen}, a could lead until ${lastUntil}`);
    await new Promise((r) => setTimeout(r, 1_000));
    const resumedAt = Date.now();
    a.resume();
    await a.waitFor('a samples again', (e) => e.event === 'belief' && e.t >= resumedAt);
    const afterResume = a.events.filter((e) => e.event === 'belief' && e.t >= resumedAt);
    assert.ok(afterResume.length > 0 && afterResume.every((e) => !e.leader), 'a believed it led after it resumed');
    assert.ok(resumedAt - pausedAt > 10_000, 'a was paused for more than a lease duration');
    assert.ok(next === 'cand-b' || next.startsWith('replica-1_'), `new holder ${next}`);

    // The candidates leave; the server holds the lease and its controllers finish the namespace.
    await a.stop();
    await b.stop();
    await eventually(
      'the namespace controller on the server',
      async () => (await api('GET', '/api/v1/namespaces/gated')).status === 404,
      30_000,
    );
    const serverHolder = await holder();
    assert.match(serverHolder ?? '', /^replica-1_[0-9a-f-]{36}$/);
    const terms = serverTerms(log, 'orch-system/orch-controller-manager');
    assert.ok(terms.length >= 1);

    const problems = overlaps({
      'cand-a': beliefIntervals(a.events),
      'cand-b': beliefIntervals(b.events),
      server: terms.map(([s, e]) => [s, Math.min(e, Date.now())] as [number, number]),
    });
    assert.deepEqual(problems, []);
  });

  it('two candidates, one with a wall clock an hour behind: neither takes over a renewed lease, a paused one is replaced after the lease duration', async () => {
    const kubeconfig = server.kubeconfigPath!;
    const lease = `${LEASES}/skew-test`;
    const timings = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 300 };
    const opts = (identity: string, skewMs = 0) => ({ kubeconfig, identity, lease: 'skew-test', skewMs, ...timings });
    const normal = await startCandidate(opts('normal'));
    candidates.push(normal);
    await normal.waitFor('normal leads', (e) => e.event === 'started');
    const skewed = await startCandidate(opts('skewed', -3_600_000));
    candidates.push(skewed);
    // Its renewTime would look an hour old to anyone trusting it, yet the holder keeps the lease.
    await new Promise((r) => setTimeout(r, 7_000));
    assert.equal(await holder(lease), 'normal');
    assert.equal(
      skewed.events.some((e) => e.event === 'started'),
      false,
    );

    // The holder leaves (releasing): the skewed one takes over and renews an hour "in the past".
    await normal.stop();
    await skewed.waitFor('skewed leads', (e) => e.event === 'started', 10_000);
    const renewTime = Date.parse((await api('GET', lease)).json().spec.renewTime);
    assert.ok(Math.abs(Date.now() - 3_600_000 - renewTime) < 10_000, `renewTime ${new Date(renewTime).toISOString()}`);
    const back = await startCandidate(opts('back'));
    candidates.push(back);
    await new Promise((r) => setTimeout(r, 7_000));
    assert.equal(await holder(lease), 'skewed');

    // The skewed leader is paused: it is replaced once the lease duration has passed.
    const pausedAt = Date.now();
    skewed.pause();
    const started = await back.waitFor('back leads', (e) => e.event === 'started', 15_000);
    assert.ok(started.t - pausedAt >= 3_000 - 300, `replaced ${started.t - pausedAt} ms after the pause`);
    // Events are stamped by each process's own clock origin, a few milliseconds apart, so what
    // it printed after the pause is told by its place in the stream, not by its time.
    const printedBeforeResume = skewed.events.length;
    skewed.resume();
    await skewed.waitFor(
      'skewed samples again',
      (e) => e.event === 'belief' && !e.leader && skewed.events.indexOf(e) >= printedBeforeResume,
    );
    assert.deepEqual(
      overlaps({
        normal: beliefIntervals(normal.events),
        skewed: beliefIntervals(skewed.events),
        back: beliefIntervals(back.events),
      }),
      [],
    );
    await Promise.all([skewed.stop(), back.stop()]);
  });
});
