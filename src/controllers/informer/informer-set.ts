import type { ServedResource, ServedResources } from '../../endpoints/served-resources.js';
import type { Logger } from '../../util/logger.js';
import { ResourceInformer, sleep } from './resource-informer.js';

/**
 * One informer per served resource that can be listed and watched; a resource served in several
 * versions is informed once (the objects are the same). Controllers share these informers.
 */
export class InformerSet {
  private readonly informers: ResourceInformer[] = [];
  private readonly byGroupResource = new Map<string, ResourceInformer>();

  constructor(resources: ServedResources, opts: { logger: Logger; signal: AbortSignal }) {
    for (const served of resources.all()) {
      const verbs = served.def.verbs;
      if (!verbs.includes('list') || !verbs.includes('watch')) continue;
      const key = `${served.def.group}/${served.def.resource}`;
      if (this.byGroupResource.has(key)) continue;
      const informer = new ResourceInformer({ served, logger: opts.logger, signal: opts.signal });
      this.informers.push(informer);
      this.byGroupResource.set(key, informer);
    }
  }

  all(): readonly ResourceInformer[] {
    return this.informers;
  }

  /** The informer of a group/resource (any version). */
  lookup(group: string, resource: string): ResourceInformer | undefined {
    return this.byGroupResource.get(`${group}/${resource}`);
  }

  namespaced(): ResourceInformer[] {
    return this.informers.filter((i) => i.served.def.namespaced);
  }

  servedOf(informer: ResourceInformer): ServedResource {
    return informer.served;
  }

  start(): void {
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
