import type { ApiDomain } from '../../apis/api-domain.js';
import { AUTHENTICATED_GROUP } from '../../apis/request/user-info.js';
import type { Authorizer } from '../../authz/index.js';
import type { ResourceSet, ServedResource } from '../../registry/resource-set/index.js';
import type { Logger } from '../../util/logger.js';
import { ControllerClient, type ControllerIdentity, frozenUser } from '../controller-client.js';
import { ResourceInformer, sleep } from './resource-informer.js';

/** The shared informers' identity (kube-controller-manager's own user). */
export function informerIdentity(domain: ApiDomain): ControllerIdentity {
  return {
    user: frozenUser({ name: domain.controllerManagerUser, groups: [AUTHENTICATED_GROUP] }),
    manager: domain.controllerManagerName,
  };
}

export type InformerListener = (informer: ResourceInformer) => void;

/**
 * One informer per served resource that can be listed and watched; a resource served in several
 * versions is informed once (the objects are the same). Controllers share these informers. The
 * set follows the resource set: a resource added while running gets an informer (started when
 * the set is) and `onAdded` listeners hear of it; a removed resource's informer stops.
 */
export class InformerSet {
  private informers: ResourceInformer[] = [];
  private readonly byGroupResource = new Map<string, { informer: ResourceInformer; stop: AbortController }>();
  private readonly added = new Set<InformerListener>();
  private started = false;
  private readonly unsubscribe: () => void;
  private readonly client: ControllerClient;

  /** `authorizer` decides on the informers' lists and watches, made as {@link informerIdentity}. */
  constructor(
    resources: ResourceSet,
    private readonly opts: { logger: Logger; signal: AbortSignal; domain: ApiDomain; authorizer: Authorizer },
  ) {
    this.client = new ControllerClient(informerIdentity(opts.domain), opts.authorizer);
    for (const served of resources.all()) this.add(served);
    this.unsubscribe = resources.subscribe((change) => {
      if (change.type === 'added') {
        const informer = this.add(change.resource);
        if (informer && this.started) informer.start();
        if (informer) for (const l of [...this.added]) l(informer);
      } else {
        this.remove(change.resource);
      }
    });
    opts.signal.addEventListener('abort', () => this.unsubscribe(), { once: true });
  }

  private add(served: ServedResource): ResourceInformer | undefined {
    const verbs = served.def.verbs;
    if (!verbs.includes('list') || !verbs.includes('watch')) return undefined;
    const key = `${served.def.group}/${served.def.resource}`;
    if (this.byGroupResource.has(key)) return undefined;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    this.opts.signal.addEventListener('abort', onAbort, { once: true });
    if (this.opts.signal.aborted) stop.abort();
    const informer = new ResourceInformer({
      served,
      client: this.client,
      logger: this.opts.logger,
      signal: stop.signal,
    });
    this.informers = [...this.informers, informer];
    this.byGroupResource.set(key, { informer, stop });
    return informer;
  }

  private remove(served: ServedResource): void {
    const key = `${served.def.group}/${served.def.resource}`;
    const entry = this.byGroupResource.get(key);
    if (!entry || entry.informer.served !== served) return;
    this.byGroupResource.delete(key);
    this.informers = this.informers.filter((i) => i !== entry.informer);
    entry.stop.abort();
  }

  /** Calls `listener` for every informer added after construction (resources served later). */
  onAdded(listener: InformerListener): void {
    this.added.add(listener);
  }

  all(): readonly ResourceInformer[] {
    return this.informers;
  }

  /** The informer of a group/resource (any version). */
  lookup(group: string, resource: string): ResourceInformer | undefined {
    return this.byGroupResource.get(`${group}/${resource}`)?.informer;
  }

  namespaced(): ResourceInformer[] {
    return this.informers.filter((i) => i.served.def.namespaced);
  }

  servedOf(informer: ResourceInformer): ServedResource {
    return informer.served;
  }

  start(): void {
    this.started = true;
    for (const i of this.informers) i.start();
  }

  /**
   * Resolves once every informer has listed, or after `timeoutMs` (a resource that cannot be
   * listed, e.g. because of a corrupt object, must not stop the others), or when `signal` aborts.
   */
  async waitForSync(timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    const all = Promise.all(this.informers.map((i) => i.synced())).then(() => true);
    const timeout = sleep(timeoutMs, signal).then(() => false);
    return Promise.race([all, timeout]);
  }

  async stopped(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.stopped()));
  }
}
