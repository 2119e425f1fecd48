import type { ApiObject } from '../../apis/object.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ControllerContext, ControllerDescriptor } from '../controller-descriptor.js';

interface Taint {
  readonly key?: string;
  readonly effect?: string;
}

interface NodeObject extends ApiObject {
  spec?: { taints?: Taint[] };
}

/** The taint a node agent started with `--cloud-provider=external` registers its Node with. */
function uninitializedTaint(ctx: ControllerContext): string {
  return ctx.domain.key('node.cloudprovider', 'uninitialized');
}

function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * The cloud node controller with the `external` provider: a Node registered with the
 * uninitialized taint is initialized — Orch has no cloud to ask for its provider ID, addresses
 * or zone, so initializing is removing the taint — after which the scheduler-facing taint is gone
 * as kube's controller leaves it.
 */
async function runCloudNode(ctx: ControllerContext): Promise<void> {
  const nodes = ctx.informers.lookup('', 'nodes');
  const client = ctx.client.preferred('', 'nodes');
  if (!nodes || !client) return;
  const taint = uninitializedTaint(ctx);
  const queue = new WorkQueue<string>({ signal: ctx.signal });
  const enqueue = (n: ApiObject) => {
    if ((n as NodeObject).spec?.taints?.some((t) => t.key === taint)) queue.add(n.metadata.name ?? '');
  };
  nodes.addHandlers({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });
  await Promise.race([nodes.synced(), stopped(ctx.signal)]);
  if (ctx.signal.aborted) return;
  for (const n of nodes.list()) enqueue(n);
  await queue.run(
    async (name) => {
      const live = (await client.get('', name, ctx.signal)) as NodeObject;
      const taints = live.spec?.taints ?? [];
      const keep = taints.filter((t) => t.key !== taint);
      if (keep.length === taints.length) return;
      await client.update({ ...live, spec: { ...live.spec, taints: keep } }, ctx.signal);
      ctx.logger.info('cloud node controller: node initialized', { node: name });
    },
    {
      workers: 1,
      onError: (name, e) => ctx.logger.warn('cloud node controller: retrying', { node: name, error: String(e) }),
    },
  );
}

/**
 * A cloud controller that needs a provider's API (load balancers, routes, instance existence):
 * Orch has none, so it holds its place — it runs where leader election and leader migration
 * put it, and reconciles nothing (kube's would call the provider).
 */
function providerOnly(what: string): (ctx: ControllerContext) => Promise<void> {
  return async (ctx) => {
    ctx.logger.info(`${what}: no cloud provider API in Orch; nothing to reconcile`);
    await stopped(ctx.signal);
  };
}

/** kube's `cloud-node-controller` (cloud controller manager only). */
export const cloudNodeController: ControllerDescriptor = {
  name: 'cloud-node-controller',
  serviceAccount: 'node-controller',
  enabledByDefault: true,
  run: runCloudNode,
};

/** kube's `cloud-node-lifecycle-controller`. */
export const cloudNodeLifecycleController: ControllerDescriptor = {
  name: 'cloud-node-lifecycle-controller',
  aliases: ['cloud-node-lifecycle'],
  serviceAccount: 'node-controller',
  enabledByDefault: true,
  run: providerOnly('cloud node lifecycle controller'),
};

/** kube's `service-lb-controller` (alias `service`). */
export const serviceLbController: ControllerDescriptor = {
  name: 'service-lb-controller',
  aliases: ['service'],
  serviceAccount: 'service-controller',
  enabledByDefault: true,
  configMember: 'ServiceController',
  run: providerOnly('service load balancer controller'),
};

/** kube's `node-route-controller` (alias `route`). */
export const nodeRouteController: ControllerDescriptor = {
  name: 'node-route-controller',
  aliases: ['route'],
  serviceAccount: 'route-controller',
  enabledByDefault: true,
  run: providerOnly('node route controller'),
};
