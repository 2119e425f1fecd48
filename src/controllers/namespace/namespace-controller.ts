import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject } from '../../apis/object.js';
import type { Authorizer } from '../../authz/index.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ResourceSet, ServedResource } from '../../registry/resource-set/index.js';
import { type Clock, formatTime, systemClock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { ControllerClient, controllerIdentity } from '../controller-client.js';
import type { InformerSet } from '../informer/informer-set.js';
import { getLive, type ObjectRef, updateLive } from '../object-client.js';
import { failingConditions, type NamespaceCondition, updateConditions } from './namespace-conditions.js';
import { deleteAllContent } from './namespace-content.js';

// kube requeues a namespace whose content waits for finalizers after estimate/2+1 seconds, with
// a 15 s estimate; content changes requeue it sooner here (the informers see them).
const CONTENT_REMAINING_REQUEUE_MS = 8_000;

export interface NamespaceControllerOptions {
  readonly resources: ResourceSet;
  readonly informers: InformerSet;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly clock?: Clock;
  /** Names the namespace finalizer this controller removes and the controller's identity. */
  readonly domain: ApiDomain;
  /** Decides on every request of the controller (its role: `system:controller:namespace-controller`). */
  readonly authorizer: Authorizer;
}

interface NamespaceObject extends ApiObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

/** Thrown when a pass left errors; the namespace is retried with backoff. */
export class NamespaceContentError extends Error {}

/** kube-controller-manager's name for this controller (its service account and field manager). */
export const NAMESPACE_CONTROLLER_NAME = 'namespace-controller';

/**
 * kube's namespace controller, in process: for every namespace with a `deletionTimestamp` whose
 * `spec.finalizers` holds `orch`, it deletes all namespaced content (every served namespaced
 * resource), reports progress in `status.conditions`, waits while objects remain (their
 * finalizers pending), and finally removes `orch` through `namespaces/finalize`, which removes
 * the namespace once no other finalizer remains. Deletions of content in a terminating
 * namespace requeue it at once; failures retry with backoff.
 */
export class NamespaceController {
  private readonly queue: WorkQueue<string>;
  private readonly namespaces: ServedResource | undefined;
  private readonly clock: Clock;

  private readonly client: ControllerClient;
  private readonly finalizer: string;

  constructor(private readonly options: NamespaceControllerOptions) {
    this.client = new ControllerClient(
      controllerIdentity(NAMESPACE_CONTROLLER_NAME, options.domain),
      options.authorizer,
    );
    this.finalizer = options.domain.namespaceFinalizer;
    this.queue = new WorkQueue<string>({ signal: options.signal, maxRetryDelayMs: 30_000 });
    this.clock = options.clock ?? systemClock;
    this.namespaces = options.resources.lookup('', 'v1', 'namespaces');
    const nsInformer = options.informers.lookup('', 'namespaces');
    nsInformer?.addHandlers({
      onAdd: (ns) => this.enqueueIfDeleting(ns),
      onUpdate: (_old, ns) => this.enqueueIfDeleting(ns),
    });
    const contentChanged = (obj: ApiObject) => {
      const ns = obj.metadata.namespace;
      if (ns && nsInformer?.get('', ns)?.metadata.deletionTimestamp) this.queue.add(ns);
    };
    for (const informer of options.informers.namespaced()) {
      informer.addHandlers({ onDelete: contentChanged, onUpdate: (_old, obj) => contentChanged(obj) });
    }
    // Resources served later (custom resources) are namespace content too.
    options.informers.onAdded((informer) => {
      if (informer.served.def.namespaced) {
        informer.addHandlers({ onDelete: contentChanged, onUpdate: (_old, obj) => contentChanged(obj) });
      }
    });
  }

  /** The namespaced resources served now, one version of each. */
  private content(): ServedResource[] {
    const seen = new Set<string>();
    return this.options.resources.all().filter((r) => {
      const key = `${r.def.group}/${r.def.resource}`;
      if (!r.def.namespaced || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Processes namespaces until the signal aborts. */
  async run(): Promise<void> {
    if (!this.namespaces) return;
    await this.queue.run((name) => this.sync(name), {
      workers: 1,
      onError: (name, err) =>
        this.options.logger.warn('namespace controller: retrying', {
          namespace: name,
          error: err instanceof Error ? err.message : String(err),
        }),
    });
  }

  private enqueueIfDeleting(ns: ApiObject): void {
    if (ns.metadata.deletionTimestamp && ns.metadata.name) this.queue.add(ns.metadata.name);
  }

  private async sync(name: string): Promise<void> {
    const { signal } = this.options;
    const served = this.namespaces!;
    let ns = (await getLive(this.client, { served, namespace: '', name }, signal)) as NamespaceObject | undefined;
    if (!ns?.metadata.deletionTimestamp) return;
    const ref: ObjectRef = { served, namespace: '', name, uid: ns.metadata.uid };
    if (ns.status?.phase !== 'Terminating') {
      ns = (await updateLive(
        this.client,
        ref,
        (obj) => {
          (obj as NamespaceObject).status = { ...((obj as NamespaceObject).status ?? {}), phase: 'Terminating' };
          return true;
        },
        { signal, subresource: 'status' },
      )) as NamespaceObject | undefined;
      if (!ns) return;
    }
    if (!(ns.spec?.finalizers ?? []).includes(this.finalizer)) return;

    const totals = await deleteAllContent(this.client, this.content(), name, signal);
    const now = formatTime(this.clock.now());
    const failing = failingConditions(totals, now);
    await updateLive(
      this.client,
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
      this.queue.addAfter(name, CONTENT_REMAINING_REQUEUE_MS);
      return;
    }
    this.options.logger.info('namespace controller: namespace empty; finalizing', { namespace: name });
    await updateLive(
      this.client,
      ref,
      (obj) => {
        const nsObj = obj as NamespaceObject;
        const finalizers = nsObj.spec?.finalizers ?? [];
        if (!finalizers.includes(this.finalizer)) return false;
        nsObj.spec = { ...(nsObj.spec ?? {}), finalizers: finalizers.filter((f) => f !== this.finalizer) };
        return true;
      },
      { signal, subresource: 'finalize' },
    );
  }
}
