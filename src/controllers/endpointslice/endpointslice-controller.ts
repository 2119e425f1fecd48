import type { Pod } from '../../apis/core/pod-types.js';
import type { Service } from '../../apis/core/service-types.js';
import type { EndpointSlice } from '../../apis/discovery/endpoint-slice-types.js';
import type { ApiObject } from '../../apis/object.js';
import { labelSelectorFromSet, matchesLabels } from '../../apis/selectors/index.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import {
  type ControllerContext,
  type ControllerDescriptor,
  configDurationMs,
  configNumber,
} from '../controller-descriptor.js';
import {
  errorText,
  isNamespaceTerminating,
  isStatus,
  objectKey,
  splitKey,
  startResync,
  waitForInformers,
} from '../controller-support.js';
import { type SliceNames, sliceNames } from './desired-endpoints.js';
import { planSlices } from './slice-plan.js';
import { SliceTracker } from './slice-tracker.js';

/** The service a managed slice belongs to (`<namespace>/<service-name label>`), if it is this controller's. */
function serviceKeyOf(slice: ApiObject, names: SliceNames): string | undefined {
  const labels = slice.metadata.labels ?? {};
  if (labels[names.managedBy] !== names.controllerName || !labels[names.serviceName]) return undefined;
  return `${slice.metadata.namespace ?? ''}/${labels[names.serviceName]}`;
}

async function runEndpointSliceController(ctx: ControllerContext): Promise<void> {
  const group = ctx.domain.group('discovery');
  const services = ctx.informers.lookup('', 'services');
  const pods = ctx.informers.lookup('', 'pods');
  const slices = ctx.informers.lookup(group, 'endpointslices');
  const nodes = ctx.informers.lookup('', 'nodes');
  const client = ctx.client.preferred(group, 'endpointslices');
  if (!services || !pods || !slices || !nodes || !client) return;
  const names = sliceNames(ctx.domain);
  const maxEndpoints = configNumber(ctx.config, 'MaxEndpointsPerSlice', 100);
  const batchMs = configDurationMs(ctx.config, 'EndpointUpdatesBatchPeriod', 0);
  const tracker = new SliceTracker();
  const queue = new WorkQueue<string>({ signal: ctx.signal, maxRetryDelayMs: 60_000 });
  const enqueueBatched = (key: string) => (batchMs > 0 ? queue.addAfter(key, batchMs) : queue.add(key));

  services.addHandlers({
    onAdd: (s) => queue.add(objectKey(s)),
    onUpdate: (_o, s) => queue.add(objectKey(s)),
    onDelete: (s) => queue.add(objectKey(s)),
  });
  /** Services of the pod's namespace selecting it (kube's `GetPodServiceMemberships`). */
  const servicesOf = (pod: ApiObject): string[] =>
    (services.list(pod.metadata.namespace ?? '') as Service[])
      .filter(
        (s) => s.spec?.selector && matchesLabels(labelSelectorFromSet(s.spec.selector), pod.metadata.labels ?? {}),
      )
      .map(objectKey);
  pods.addHandlers({
    onAdd: (p) => {
      for (const k of servicesOf(p)) enqueueBatched(k);
    },
    onUpdate: (old, p) => {
      for (const k of new Set([...servicesOf(old), ...servicesOf(p)])) enqueueBatched(k);
    },
    onDelete: (p) => {
      for (const k of servicesOf(p)) enqueueBatched(k);
    },
  });
  slices.addHandlers({
    onAdd: (s) => {
      const k = serviceKeyOf(s, names);
      if (k && tracker.shouldSync(k, s as EndpointSlice)) queue.add(k);
    },
    onUpdate: (old, s) => {
      const k = serviceKeyOf(s, names) ?? serviceKeyOf(old, names);
      if (k && (serviceKeyOf(old, names) !== serviceKeyOf(s, names) || tracker.shouldSync(k, s as EndpointSlice))) {
        queue.add(k);
      }
    },
    onDelete: (s) => {
      const k = serviceKeyOf(s, names);
      if (k && tracker.deletionObserved(k, s as EndpointSlice)) queue.add(k);
    },
  });

  const sync = async (key: string): Promise<void> => {
    const { namespace: ns, name } = splitKey(key);
    const svc = services.get(ns, name) as Service | undefined;
    if (!svc) {
      tracker.forgetService(key);
      return;
    }
    // ExternalName services and services without a selector get no slices from this controller.
    if (svc.spec?.type === 'ExternalName' || !svc.spec?.selector) return;
    const selector = labelSelectorFromSet(svc.spec.selector);
    const selected = (pods.list(ns) as Pod[]).filter((p) => matchesLabels(selector, p.metadata.labels ?? {}));
    const own = (slices.list(ns) as EndpointSlice[]).filter(
      (s) => serviceKeyOf(s, names) === key && !s.metadata.deletionTimestamp,
    );
    if (tracker.stale(key, own)) throw new Error('EndpointSlice informer cache is out of date');
    const plan = planSlices({
      service: svc,
      pods: selected,
      slices: own,
      node: (n) => nodes.get('', n),
      maxEndpointsPerSlice: maxEndpoints,
      names,
      apiVersion: `${group}/v1`,
    });
    await applyPlan(ctx, client, key, svc, plan, tracker);
    if (plan.missingNodes.length > 0) {
      throw new Error(`skipping pods of Service ${key}: Node ${plan.missingNodes[0]} Not Found`);
    }
  };

  if (!(await waitForInformers([services, pods, slices, nodes], ctx.signal))) return;
  startResync(ctx.minResyncPeriodMs, ctx.signal, () => {
    for (const s of services.list()) queue.add(objectKey(s));
  });
  await queue.run(sync, {
    workers: configNumber(ctx.config, 'ConcurrentServiceEndpointSyncs', 5),
    onError: (key, err) => ctx.logger.warn('endpointslice: sync failed; retrying', { key, error: errorText(err) }),
  });
}

/** kube's `finalize`: creates (unless the service is being deleted), updates, deletes. */
async function applyPlan(
  ctx: ControllerContext,
  client: ResourceClient,
  key: string,
  svc: Service,
  plan: ReturnType<typeof planSlices>,
  tracker: SliceTracker,
): Promise<void> {
  const ns = svc.metadata.namespace ?? '';
  if (!svc.metadata.deletionTimestamp) {
    for (const slice of plan.create) {
      try {
        tracker.written(key, (await client.create(ns, slice, ctx.signal)) as EndpointSlice);
      } catch (e) {
        // A terminating namespace refuses creates for good.
        if (isNamespaceTerminating(e)) return;
        throw e;
      }
    }
  }
  for (const slice of plan.update) tracker.written(key, (await client.update(slice, ctx.signal)) as EndpointSlice);
  for (const slice of plan.delete) {
    try {
      await client.delete(ns, slice.metadata.name ?? '', {}, ctx.signal);
      tracker.deleted(key, slice);
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }
}

/**
 * kube-controller-manager's `endpointslice-controller` (alias `endpointslice`): EndpointSlices
 * for every Service with a selector, labelled `<service-name>` and managed-by
 * `endpointslice-controller.<domain>` (kube's names under `k8s.io`), from the selected pods with
 * an IP (ready/serving/terminating, named ports resolved per pod), at most
 * `MaxEndpointsPerSlice` endpoints each, one address type per slice. Slices it does not manage
 * (the API server's `default/kubernetes`) are left alone. `EndpointSliceController` member:
 * `ConcurrentServiceEndpointSyncs` (5), `MaxEndpointsPerSlice` (100), `EndpointUpdatesBatchPeriod` (0).
 */
export const endpointSliceController: ControllerDescriptor = {
  name: 'endpointslice-controller',
  aliases: ['endpointslice'],
  serviceAccount: 'endpointslice-controller',
  enabledByDefault: true,
  configMember: 'EndpointSliceController',
  run: runEndpointSliceController,
};
