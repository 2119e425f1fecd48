/**
 * A leader election candidate in its own process, over HTTP with a kubeconfig's credentials, for
 * the end-to-end tests. It prints one JSON line per event on stdout:
 *
 * - `{"event":"ready"}` once campaigning;
 * - `{"event":"belief","leader":true|false,"t":<ms>,"until":<ms>}` whenever a 20 ms sample of
 *   `isLeader()` differs from the previous one, and on every renewal while leading (`until` is
 *   the wall-clock instant up to which it may act as leader, `t` the sample's wall-clock time);
 * - `{"event":"started"|"stopped","t":<ms>}`, `{"event":"new-leader","holder":"...","t":<ms>}`.
 *
 * Times are the machine's true wall clock (`performance.timeOrigin + performance.now()`), also
 * for a candidate whose election clock is skewed with `--skew-ms`. SIGTERM ends the campaign
 * (releasing the lease when it leads) and the process.
 */
import { parseArgs } from 'node:util';
import type { Lease } from '../../src/apis/coordination/lease.js';
import type { LeaseCandidate } from '../../src/apis/coordination/lease-candidate.js';
import { type ElectionClock, systemElectionClock } from '../../src/client/leaderelection/election-clock.js';
import { LeaderElector } from '../../src/client/leaderelection/leader-elector.js';
import { LeaseCandidateRenewer } from '../../src/client/leaderelection/lease-candidate-renewer.js';
import { LeaseLock } from '../../src/client/leaderelection/lease-lock.js';
import { loadKubeconfig } from '../../src/client/rest/kubeconfig.js';
import { RestClient, restObjectClient } from '../../src/client/rest/rest-client.js';

const { values: a } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    identity: { type: 'string' },
    lease: { type: 'string', default: 'orch-controller-manager' },
    namespace: { type: 'string', default: 'orch-system' },
    group: { type: 'string', default: 'coordination.orch.io' },
    'lease-duration': { type: 'string', default: '6000' },
    'renew-deadline': { type: 'string', default: '4000' },
    'retry-period': { type: 'string', default: '500' },
    'skew-ms': { type: 'string', default: '0' },
    coordinated: { type: 'boolean', default: false },
    'emulation-version': { type: 'string', default: '1.32.0' },
  },
});

const wallNow = () => performance.timeOrigin + performance.now();
const emit = (e: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify({ ...e, t: Math.round(wallNow()) })}\n`);
};

const skew = Number(a['skew-ms']);
const clock: ElectionClock = { ...systemElectionClock, now: () => new Date(Date.now() + skew) };
const rest = new RestClient(await loadKubeconfig(a.kubeconfig!), { userAgent: `candidate/${a.identity}` });
const identity = a.identity!;
const stop = new AbortController();

const elector = new LeaderElector({
  lock: new LeaseLock({
    client: restObjectClient<Lease>(rest, {
      group: a.group!,
      version: 'v1',
      resource: 'leases',
      namespace: a.namespace!,
    }),
    name: a.lease!,
    identity,
    group: a.group!,
  }),
  leaseDurationMs: Number(a['lease-duration']),
  renewDeadlineMs: Number(a['renew-deadline']),
  retryPeriodMs: Number(a['retry-period']),
  releaseOnCancel: true,
  coordinated: a.coordinated,
  clock,
  callbacks: {
    onStartedLeading: () => emit({ event: 'started' }),
    onStoppedLeading: () => emit({ event: 'stopped' }),
    onNewLeader: (holder) => emit({ event: 'new-leader', holder }),
  },
});

const candidate = a.coordinated
  ? new LeaseCandidateRenewer({
      client: restObjectClient<LeaseCandidate>(rest, {
        group: a.group!,
        version: 'v1alpha2',
        resource: 'leasecandidates',
        namespace: a.namespace!,
      }),
      group: a.group!,
      name: identity,
      leaseName: a.lease!,
      binaryVersion: '1.32.0',
      emulationVersion: a['emulation-version'],
      strategy: 'OldestEmulationVersion',
      clock,
      pingCheckIntervalMs: 250,
    })
  : undefined;

let last: { leader: boolean; until?: number } = { leader: false };
const sampler = setInterval(() => {
  const until = elector.leadingUntil();
  const leader = until !== undefined;
  const untilWall = until === undefined ? undefined : Math.round(performance.timeOrigin + until);
  if (leader !== last.leader || untilWall !== last.until) emit({ event: 'belief', leader, until: untilWall });
  last = { leader, until: untilWall };
}, 20);

process.once('SIGTERM', () => stop.abort());
emit({ event: 'ready' });
await Promise.all([
  candidate?.run(stop.signal),
  (async () => {
    while (!stop.signal.aborted) await elector.run(stop.signal);
  })(),
]);
clearInterval(sampler);
emit({ event: 'belief', leader: false });
rest.close();
process.exit(0);
