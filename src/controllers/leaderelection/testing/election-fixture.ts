import type { Lease } from '../../../apis/coordination/lease.js';
import { StatusError } from '../../../apis/meta/status.js';
import type { ApiObject } from '../../../apis/object.js';
import { alwaysAllow } from '../../../authz/index.js';
import { LeaderElector, type LeaderElectorOptions } from '../../../client/leaderelection/leader-elector.js';
import { LeaseLock } from '../../../client/leaderelection/lease-lock.js';
import type { NamespacedObjectClient } from '../../../client/leaderelection/object-client.js';
import { FakeTime } from '../../../client/leaderelection/testing/fake-election-clock.js';
import { type RegistryFixture, registryFixture } from '../../../registry/resource-set/testing/registry-fixture.js';
import { ControllerClient, frozenUser } from '../../controller-client.js';
import { isStatus } from '../../controller-support.js';
import { controllerObjectClient } from '../controller-object-client.js';

export const NAMESPACE = 'orch-system';
export const LEASE = 'orch-controller-manager';
const GROUP = 'coordination.orch.io';

/** How a candidate's requests behave: normally, failing at once, or hanging until aborted. */
export type Link = 'ok' | 'fail' | 'hang';

/** A client whose requests can be cut off, as a network partition or a stalled server would. */
function partitionable<T extends ApiObject>(
  inner: NamespacedObjectClient<T>,
  link: () => Link,
): NamespacedObjectClient<T> {
  const gate = <R>(call: (signal: AbortSignal) => Promise<R>, signal: AbortSignal): Promise<R> => {
    const l = link();
    if (l === 'fail') return Promise.reject(new StatusError(503, 'ServiceUnavailable', 'partitioned'));
    if (l === 'hang') {
      return new Promise<R>((_, reject) => {
        const fail = () => reject(new Error('aborted'));
        if (signal.aborted) fail();
        else signal.addEventListener('abort', fail, { once: true });
      });
    }
    return call(signal);
  };
  return {
    namespace: inner.namespace,
    get: (name, signal) => gate((s) => inner.get(name, s), signal),
    create: (obj, signal) => gate((s) => inner.create(obj, s), signal),
    update: (obj, signal) => gate((s) => inner.update(obj, s), signal),
  };
}

/** One candidate of a simulated election and what it went through. */
export interface Candidate {
  readonly name: string;
  readonly elector: LeaderElector;
  link: Link;
  /** Simulated times (ms) at which its terms started and its leading signals aborted. */
  readonly started: number[];
  readonly stopped: number[];
  readonly newLeaders: string[];
  /** Starts campaigning; `stop()` ends the run and resolves when it returned. */
  start(): void;
  stop(): Promise<void>;
}

export interface ElectionFixture {
  readonly time: FakeTime;
  readonly registry: RegistryFixture;
  /** The Lease as stored, or undefined. */
  lease(): Promise<Lease | undefined>;
  /** A lock on the Lease for `identity`, whose requests behave as `link()` says. */
  lockFor(identity: string, link: () => Link): LeaseLock;
  candidate(
    name: string,
    o?: Partial<
      Pick<LeaderElectorOptions, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs' | 'releaseOnCancel'>
    > & {
      readonly skewMs?: number;
    },
  ): Candidate;
}

/** Candidates on the built-in Lease registry over a memory store, on simulated time. */
export async function electionFixture(): Promise<ElectionFixture> {
  const registry = await registryFixture();
  await registry.createNamespace(NAMESPACE);
  const time = new FakeTime();
  const served = registry.resources.lookup(GROUP, 'v1', 'leases')!;
  const lockFor = (identity: string, link: () => Link) => {
    const client = new ControllerClient(
      { user: frozenUser({ name: `candidate-${identity}`, groups: [] }), manager: identity },
      alwaysAllow,
    );
    return new LeaseLock({
      client: partitionable(controllerObjectClient<Lease>(client, served, NAMESPACE), link),
      name: LEASE,
      identity,
      group: GROUP,
    });
  };
  return {
    lockFor,
    time,
    registry,
    async lease() {
      try {
        return (await registry.registry('leases').get(registry.ctx(NAMESPACE), LEASE, {})) as Lease;
      } catch (e) {
        if (isStatus(e, 404)) return undefined;
        throw e;
      }
    },
    candidate(name, o = {}) {
      const started: number[] = [];
      const stopped: number[] = [];
      const newLeaders: string[] = [];
      let running: { ctl: AbortController; done: Promise<void> } | undefined;
      const c: Candidate = {
        name,
        link: 'ok',
        started,
        stopped,
        newLeaders,
        elector: undefined as unknown as LeaderElector,
        start() {
          const ctl = new AbortController();
          running = { ctl, done: c.elector.run(ctl.signal) };
        },
        async stop() {
          running?.ctl.abort();
          await running?.done;
          running = undefined;
        },
      };
      const lock = lockFor(name, () => c.link);
      (c as { elector: LeaderElector }).elector = new LeaderElector({
        lock,
        leaseDurationMs: o.leaseDurationMs ?? 15_000,
        renewDeadlineMs: o.renewDeadlineMs ?? 10_000,
        retryPeriodMs: o.retryPeriodMs ?? 2_000,
        releaseOnCancel: o.releaseOnCancel,
        clock: time.view(o.skewMs ?? 0),
        random: () => 0.5,
        callbacks: {
          onStartedLeading: (leading) => {
            started.push(time.elapsedMs);
            leading.addEventListener('abort', () => stopped.push(time.elapsedMs), { once: true });
          },
          onStoppedLeading: () => {},
          onNewLeader: (id) => newLeaders.push(id),
        },
      });
      return c;
    },
  };
}
