import type { ApiObject } from '../../apis/object.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import type { Informer } from '../../client/informer/informer.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import { formatTime } from '../../util/clock.js';
import {
  type ControllerContext,
  type ControllerDescriptor,
  configDurationMs,
  configNumber,
} from '../controller-descriptor.js';
import { errorText, startResync, waitForInformers } from '../controller-support.js';
import { getLive, type ObjectRef, updateLive } from '../object-client.js';
import { failingConditions, type NamespaceCondition, updateConditions } from './namespace-conditions.js';
import { deleteAllContent } from './namespace-content.js';

// kube requeues a namespace whose content waits for finalizers after estimate/2+1 seconds, with
// a 15 s estimate; content changes requeue it sooner here (the informers see them).
const CONTENT_REMAINING_REQUEUE_MS = 8_000;

/** kube's NamespaceControllerConfiguration defaults. */
const DEFAULT_CONCURRENT_NAMESPACE_SYNCS = 10;
const DEFAULT_NAMESPACE_SYNC_PERIOD_MS = 5 * 60_000;

interface NamespaceObject extends ApiObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

/** Thrown when a pass left errors; the namespace is retried with backoff. */
export class NamespaceContentError extends Error {}

/** kube-controller-manager's service account (and field manager) of this controller. */
export const NAMESPACE_CONTROLLER_NAME = 'namespace-controller';

/** The namespaced resources served now, each once (in its preferred version). */
function namespacedContent(ctx: ControllerContext): ResourceClient[] {
  const seen = new Set<string>();
  const out: ResourceClient[] = [];
  for (const r of ctx.client.resources()) {
    const key = `${r.group}/${r.resource}`;
    if (!r.namespaced || seen.has(key)) continue;
    seen.add(key);
    const c = ctx.client.preferred(r.group, r.resource) ?? ctx.client.resource(r.group, r.version, r.resource);
    if (c) out.push(c);
  }
  return out;
}

/**
 * kube's namespace controller: for every namespace with a `deletionTimestamp` whose
 * `spec.finalizers` holds the domain's namespace finalizer, it deletes all namespaced content
 * (every served namespaced resource), reports progress in `status.conditions`, waits while
 * objects remain (their finalizers pending), and finally removes the finalizer through
 * `namespaces/finalize`, which removes the namespace once no other finalizer remains. Deletions
 * of content in a terminating namespace requeue it at once; failures retry with backoff;
 * every `NamespaceSyncPeriod` every terminating namespace is queued again.
 */
async function runNamespaceController(ctx: ControllerContext): Promise<void> {
  const { signal, logger, clock } = ctx;
  const finalizer = ctx.domain.namespaceFinalizer;
  const namespaces = ctx.client.resource('', 'v1', 'namespaces');
  const nsInformer = ctx.informers.lookup('', 'namespaces');
  if (!namespaces || !nsInformer) {
    logger.warn('namespace controller: namespaces are not served; not running');
    return;
  }
  const queue = new WorkQueue<string>({ signal, maxRetryDelayMs: 30_000 });
  const enqueueIfDeleting = (ns: ApiObject) => {
    if (ns.metadata.deletionTimestamp && ns.metadata.name) queue.add(ns.metadata.name);
  };
  nsInformer.addHandlers({ onAdd: enqueueIfDeleting, onUpdate: (_old, ns) => enqueueIfDeleting(ns) });
  const contentChanged = (obj: ApiObject) => {
    const ns = obj.metadata.namespace;
    if (ns && nsInformer.get('', ns)?.metadata.deletionTimestamp) queue.add(ns);
  };
  const watchContent = (informer: Informer) => {
    if (informer.resource.namespaced) {
      informer.addHandlers({ onDelete: contentChanged, onUpdate: (_old, obj) => contentChanged(obj) });
    }
  };
  for (const informer of ctx.informers.all()) watchContent(informer);
  // Resources served later (custom resources) are namespace content too.
  ctx.informers.onAdded(watchContent);
  const resync = () => {
    for (const ns of nsInformer.list()) enqueueIfDeleting(ns);
  };
  if (!(await waitForInformers([nsInformer], signal))) return;
  resync();

  const sync = async (name: string): Promise<void> => {
    let ns = (await getLive({ client: namespaces, namespace: '', name }, signal)) as NamespaceObject | undefined;
    if (!ns?.metadata.deletionTimestamp) return;
    const ref: ObjectRef = { client: namespaces, namespace: '', name, uid: ns.metadata.uid };
    if (ns.status?.phase !== 'Terminating') {
      ns = (await updateLive(
        ref,
        (obj) => {
          (obj as NamespaceObject).status = { ...((obj as NamespaceObject).status ?? {}), phase: 'Terminating' };
          return true;
        },
        { signal, subresource: 'status' },
      )) as NamespaceObject | undefined;
      if (!ns) return;
    }
    if (!(ns.spec?.finalizers ?? []).includes(finalizer)) return;

    // What is served now (kube discovers afresh for every namespace it empties).
    await ctx.client.refresh?.(signal);
    const totals = await deleteAllContent(namespacedContent(ctx), name, signal);
    const now = formatTime(clock.now());
    const failing = failingConditions(totals, now);
    await updateLive(
      ref,
      (obj) => {
        const nsObj = obj as NamespaceObject;
        nsObj.status = nsObj.status ?? {};
        nsObj.status.conditions = nsObj.status.conditions ?? [];
        return updateConditions(nsObj.status.conditions, failing, now);
      },
      { signal, subresource: 'status' },
    );
    if (totals.errors.length > 0) throw new NamespaceContentError(totals.errors.join('; '));
    if (totals.remainingByResource.size > 0) {
      queue.addAfter(name, CONTENT_REMAINING_REQUEUE_MS);
      return;
    }
    logger.info('namespace controller: namespace empty; finalizing', { namespace: name });
    await updateLive(
      ref,
      (obj) => {
        const nsObj = obj as NamespaceObject;
        const finalizers = nsObj.spec?.finalizers ?? [];
        if (!finalizers.includes(finalizer)) return false;
        nsObj.spec = { ...(nsObj.spec ?? {}), finalizers: finalizers.filter((f) => f !== finalizer) };
        return true;
      },
      { signal, subresource: 'finalize' },
    );
  };
  startResync(configDurationMs(ctx.config, 'NamespaceSyncPeriod', DEFAULT_NAMESPACE_SYNC_PERIOD_MS), signal, resync);
  await queue.run(sync, {
    workers: configNumber(ctx.config, 'ConcurrentNamespaceSyncs', DEFAULT_CONCURRENT_NAMESPACE_SYNCS),
    onError: (name, err) =>
      logger.warn('namespace controller: retrying', {
        namespace: name,
        error: errorText(err),
      }),
  });
}

/**
 * The namespace controller (`namespace-controller`, alias `namespace`), as the service account
 * `namespace-controller`; reads `NamespaceController` (`ConcurrentNamespaceSyncs` workers, default
 * 10; `NamespaceSyncPeriod`, default 5m).
 */
export const namespaceController: ControllerDescriptor = {
  name: 'namespace-controller',
  aliases: ['namespace'],
  serviceAccount: NAMESPACE_CONTROLLER_NAME,
  enabledByDefault: true,
  configMember: 'NamespaceController',
  run: runNamespaceController,
};
