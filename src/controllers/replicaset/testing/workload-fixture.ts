import type { ApiDomain } from '../../../apis/api-domain.js';
import type { Pod } from '../../../apis/core/pod-types.js';
import type { ApiObject } from '../../../apis/object.js';
import { alwaysAllow } from '../../../authz/index.js';
import type { ResourceClient } from '../../../client/api/api-client.js';
import type { ResourceSet } from '../../../registry/resource-set/index.js';
import { type RegistryFixture, registryFixture } from '../../../registry/resource-set/testing/registry-fixture.js';
import { type Clock, formatTime } from '../../../util/clock.js';
import type { ControllerDescriptor } from '../../controller-descriptor.js';
import { InProcessApiClient } from '../../in-process-api-client.js';
import { ManualClock } from '../../testing/manual-clock.js';
import { type RunningDescriptors, runDescriptors } from '../../testing/run-descriptor.js';

/** The API as an administrator, over a resource set (in process, AlwaysAllow). */
export interface AdminApi {
  /** The client of `<group>/<resource>` in its preferred version. */
  rc(group: string, resource: string): ResourceClient;
  list(group: string, resource: string, namespace: string): Promise<ApiObject[]>;
}

export function adminApi(resources: ResourceSet): AdminApi {
  const client = new InProcessApiClient(
    resources,
    { user: { name: 'admin', groups: ['system:masters', 'system:authenticated'] }, manager: 'test-admin' },
    alwaysAllow,
  );
  const rc = (group: string, resource: string) => {
    const c = client.preferred(group, resource);
    if (!c) throw new Error(`${resource} not served`);
    return c;
  };
  return {
    rc,
    list: async (group, resource, namespace) =>
      (await rc(group, resource).list(namespace, {}, new AbortController().signal)).items,
  };
}

/**
 * Plays the node agent for one pod: phase Running, a pod IP (and `podIPs`), the Ready
 * condition (`ready`) since the clock's now.
 */
export async function markPodRunning(
  pods: ResourceClient,
  pod: Pod,
  o: { readonly ip: string; readonly ready?: boolean; readonly now: Date },
): Promise<void> {
  const ready = o.ready ?? true;
  const status = {
    ...(pod.status ?? {}),
    phase: 'Running',
    podIP: o.ip,
    podIPs: [{ ip: o.ip }],
    conditions: [
      { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: formatTime(o.now) },
      { type: 'ContainersReady', status: ready ? 'True' : 'False', lastTransitionTime: formatTime(o.now) },
    ],
  };
  await pods.update({ ...pod, apiVersion: 'v1', kind: 'Pod', status }, new AbortController().signal, {
    subresource: 'status',
  });
}

/**
 * A loop that makes every new Pending pod of `namespace` Running and Ready (addresses
 * 10.244.x.y), as a node agent would; `stop()` ends it.
 */
export function startNodeAgent(
  pods: ResourceClient,
  o: { readonly namespace: string; readonly clock: Clock; readonly ready?: (pod: Pod) => boolean },
): { stop(): Promise<void> } {
  let stopped = false;
  let next = 1;
  const loop = (async () => {
    while (!stopped) {
      const list = await pods.list(o.namespace, {}, new AbortController().signal).catch(() => ({ items: [] }));
      for (const p of list.items as Pod[]) {
        if (p.status?.phase === 'Running' || p.metadata.deletionTimestamp) continue;
        const n = next++;
        await markPodRunning(pods, p, {
          ip: `10.244.${Math.floor(n / 250)}.${(n % 250) + 1}`,
          ready: o.ready?.(p) ?? true,
          now: o.clock.now(),
        }).catch(() => undefined);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/** Registries over a memory store, a namespace, the admin API and the descriptors running. */
export interface WorkloadFixture extends AdminApi {
  readonly registries: RegistryFixture;
  readonly clock: ManualClock;
  readonly namespace: string;
  stop(): Promise<void>;
}

export async function workloadFixture(
  descriptors: readonly ControllerDescriptor[],
  o: {
    readonly config?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    readonly domain?: ApiDomain;
    readonly namespace?: string;
  } = {},
): Promise<WorkloadFixture> {
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const registries = await registryFixture({ clock });
  const namespace = o.namespace ?? 'work';
  await registries.createNamespace(namespace);
  const running: RunningDescriptors = runDescriptors(registries.resources, descriptors, {
    config: o.config,
    clock,
    domain: o.domain,
  });
  return {
    ...adminApi(registries.resources),
    registries,
    clock,
    namespace,
    stop: () => running.stop(),
  };
}
