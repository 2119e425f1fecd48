import { setMaxListeners } from 'node:events';
import type { Logger } from '../../util/logger.js';
import type { ApiClient, ApiResource } from '../api/api-client.js';
import { sleep } from '../client-support.js';
import type { Informer, SharedInformers } from './informer.js';
import { ResourceInformer } from './resource-informer.js';

function groupResource(r: ApiResource): string {
  return `${r.group}/${r.resource}`;
}

/**
 * One informer per served resource that can be listed and watched, over any {@link ApiClient}
 * (in process or HTTP); a resource served in several versions is informed once, in the first
 * version the client reports. The set follows the client's resources: a resource added while
 * running gets an informer (started when the set is) and `onAdded` listeners hear of it; a
 * removed resource's informer stops.
 */
export class SharedInformerSet implements SharedInformers {
  private informers: ResourceInformer[] = [];
  private readonly byGroupResource = new Map<
    string,
    { informer: ResourceInformer; stop: AbortController; onAbort: () => void }
  >();
  private readonly added = new Set<(informer: Informer) => void>();
  private started = false;
  private readonly unsubscribe: () => void;

  /** The informers list and watch as `client`'s identity. */
  constructor(
    private readonly client: ApiClient,
    private readonly opts: {
      readonly logger: Logger;
      readonly signal: AbortSignal;
      /** Only these group/resources (`<group>/<resource>`, core group `''`); default all. */
      readonly only?: ReadonlySet<string>;
    },
  ) {
    // One listener per informer, by design: not a leak for Node to warn about.
    setMaxListeners(0, opts.signal);
    for (const r of client.resources()) this.add(r);
    this.unsubscribe = client.subscribe((change) => {
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

  private add(r: ApiResource): ResourceInformer | undefined {
    if (!r.verbs.includes('list') || !r.verbs.includes('watch')) return undefined;
    const key = groupResource(r);
    if (this.opts.only && !this.opts.only.has(key)) return undefined;
    if (this.byGroupResource.has(key)) return undefined;
    const rc = this.client.resource(r.group, r.version, r.resource);
    if (!rc) return undefined;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    this.opts.signal.addEventListener('abort', onAbort, { once: true });
    if (this.opts.signal.aborted) stop.abort();
    const informer = new ResourceInformer({ client: rc, logger: this.opts.logger, signal: stop.signal });
    this.informers = [...this.informers, informer];
    this.byGroupResource.set(key, { informer, stop, onAbort });
    return informer;
  }

  private remove(r: ApiResource): void {
    const key = groupResource(r);
    const entry = this.byGroupResource.get(key);
    if (!entry || entry.informer.resource.version !== r.version) return;
    this.byGroupResource.delete(key);
    this.informers = this.informers.filter((i) => i !== entry.informer);
    // A resource that comes and goes (a CRD) must not leave its listener on the set's signal.
    this.opts.signal.removeEventListener('abort', entry.onAbort);
    entry.stop.abort();
  }

  onAdded(listener: (informer: Informer) => void): void {
    this.added.add(listener);
  }

  all(): readonly ResourceInformer[] {
    return this.informers;
  }

  lookup(group: string, resource: string): ResourceInformer | undefined {
    return this.byGroupResource.get(`${group}/${resource}`)?.informer;
  }

  start(): void {
    this.started = true;
    for (const i of this.informers) i.start();
  }

  async waitForSync(timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    const all = Promise.all(this.informers.map((i) => i.synced())).then(() => true);
    const timeout = sleep(timeoutMs, signal).then(() => false);
    return Promise.race([all, timeout]);
  }

  async stopped(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.stopped()));
  }
}
