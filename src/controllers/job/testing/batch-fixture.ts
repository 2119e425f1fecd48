/**
 * Test kit of the batch controllers: the built-in registries over a memory store, the given
 * descriptors running in process, an administrator's client, a clock tests move, and helpers
 * that play the node agent (pod phases written through `pods/status`).
 */
import { ORCH_DOMAIN } from '../../../apis/api-domain.js';
import type { ApiObject } from '../../../apis/object.js';
import { alwaysAllow } from '../../../authz/index.js';
import type { ResourceClient } from '../../../client/api/api-client.js';
import { registryFixture } from '../../../registry/resource-set/testing/registry-fixture.js';
import { controllerIdentity } from '../../controller-client.js';
import type { ControllerDescriptor } from '../../controller-descriptor.js';
import { InProcessApiClient } from '../../in-process-api-client.js';
import { ManualClock } from '../../testing/manual-clock.js';
import { runDescriptors } from '../../testing/run-descriptor.js';

export interface BatchFixture {
  readonly clock: ManualClock;
  readonly jobs: ResourceClient;
  readonly cronJobs: ResourceClient;
  readonly pods: ResourceClient;
  readonly events: ResourceClient;
  readonly signal: AbortSignal;
  /** The Job's pods (by the Job's uid), live from the API. */
  podsOf(job: ApiObject): Promise<ApiObject[]>;
  /** Writes a pod's phase (and optional extra status) as a node agent would. */
  setPhase(pod: ApiObject, phase: string, extra?: Record<string, unknown>): Promise<void>;
  job(name: string): Promise<ApiObject>;
  stop(): Promise<void>;
}

export const NS = 'batch';

/** A minimal Job (defaults applied by the API). */
export function jobObject(name: string, spec: Record<string, unknown> = {}): ApiObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: NS },
    spec: {
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      ...spec,
    },
  };
}

/** Starts the registries and `descriptors` (resync every `resyncMs`, default 100 ms). */
export async function batchFixture(
  descriptors: readonly ControllerDescriptor[],
  o: { start?: Date; resyncMs?: number } = {},
): Promise<BatchFixture> {
  const clock = new ManualClock((o.start ?? new Date()).getTime());
  const f = await registryFixture({ clock });
  await f.createNamespace(NS);
  const running = runDescriptors(f.resources, descriptors, { clock, minResyncPeriodMs: o.resyncMs ?? 100 });
  const admin = new InProcessApiClient(f.resources, controllerIdentity('batch-test', ORCH_DOMAIN), alwaysAllow);
  const stop = new AbortController();
  const jobs = admin.preferred('batch', 'jobs')!;
  const pods = admin.preferred('', 'pods')!;
  return {
    clock,
    jobs,
    cronJobs: admin.preferred('batch', 'cronjobs')!,
    pods,
    events: admin.preferred('', 'events')!,
    signal: stop.signal,
    async podsOf(job) {
      const all = await pods.list(NS, {}, stop.signal);
      return all.items.filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === job.metadata.uid));
    },
    async setPhase(pod, phase, extra = {}) {
      for (;;) {
        const live = await pods.get(NS, pod.metadata.name ?? '', stop.signal);
        const status = { ...((live.status as Record<string, unknown>) ?? {}), phase, ...extra };
        try {
          await pods.update({ ...live, status }, stop.signal, { subresource: 'status' });
          return;
        } catch (e) {
          if ((e as { code?: number }).code !== 409) throw e;
        }
      }
    },
    job: (name) => jobs.get(NS, name, stop.signal),
    async stop() {
      stop.abort();
      await running.stop();
    },
  };
}
