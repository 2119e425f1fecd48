import type { ApiObject } from '../../apis/object.js';
import type { Logger } from '../../util/logger.js';
import type { ApiResource, ClientWatchEvent, ResourceClient, SharedObject } from '../api/api-client.js';
import { errorText, sleep } from '../client-support.js';
import type { Informer, InformerHandlers } from './informer.js';

export interface ResourceInformerOptions {
  /** The resource's client; the informer's lists and watches are made as its identity. */
  readonly client: ResourceClient;
  readonly logger: Logger;
  /** Stops the informer when it aborts. */
  readonly signal: AbortSignal;
  /**
   * Page size of the (re-)lists. Default: one unpaged list, which the watch cache serves as the
   * shared objects it holds (in process), so the informer's cache costs no second copy of them
   * (pages after the first are read from the store and decoded afresh).
   */
  readonly pageSize?: number;
  /** First delay before re-listing after a failure; doubles up to 5 s. Default 100 ms. */
  readonly retryDelayMs?: number;
}

const MAX_RETRY_DELAY_MS = 5000;

function keyOf(obj: ApiObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

/**
 * What the informer keeps per object: a decoded object, or (in process) the watch cache's
 * shared object, decoded whenever it is read and otherwise kept only as the cache's bytes.
 */
type Held = ApiObject | SharedObject;

/** The cache key of a shared object, from its own names when it tells them (no decoding). */
function heldKey(held: SharedObject): string {
  return held.namespacedName ?? keyOf(held.object);
}

function objectOf(held: Held): ApiObject {
  return isShared(held) ? held.object : held;
}

/** Whether `h` says it ignores the add of `shared` (a failing test counts as no). */
function wantsNoAdd(h: InformerHandlers, shared: SharedObject): boolean {
  if (!h.onAdd) return true;
  try {
    return h.ignoresAdd?.(shared) === true;
  } catch {
    return false;
  }
}

function isShared(held: Held): held is SharedObject {
  // Decoded API objects carry `metadata`; a shared object exposes only its decoded `object`.
  return !('metadata' in held);
}

/**
 * client-go's reflector plus store for one served resource, over any {@link ResourceClient} (in
 * process or HTTP): lists every object (all namespaces), then watches from the list's resourceVersion,
 * keeping a cache and calling the handlers for each change. A watch that fails (an ERROR event,
 * 410 Gone after compaction, a thrown error) is followed by a fresh list, whose differences from
 * the cache are delivered as adds, updates and deletes, so handlers never miss a final state.
 * A watch that simply ends is resumed from the last resourceVersion seen.
 */
export class ResourceInformer implements Informer {
  readonly resource: ApiResource;
  private readonly cache = new Map<string, Held>();
  private readonly handlers: InformerHandlers[] = [];
  private syncedFlag = false;
  private resolveSynced!: () => void;
  private readonly syncedPromise = new Promise<void>((r) => {
    this.resolveSynced = r;
  });
  private running: Promise<void> | undefined;

  constructor(private readonly options: ResourceInformerOptions) {
    this.resource = options.client.resource;
  }

  /**
   * Adds handlers; as client-go's shared informer does for a handler added late, the objects
   * already cached are delivered to it as adds first, so it misses none.
   */
  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
    if (!h.onAdd) return;
    for (const held of this.cache.values()) {
      try {
        h.onAdd(objectOf(held));
      } catch (e) {
        this.options.logger.error('informer: handler failed', {
          resource: this.resourceName(),
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
  }

  /** Starts the list/watch loop (once); it ends when the signal aborts. */
  start(): void {
    this.running ??= this.loop();
  }

  /** Resolves when the loop has ended (after the signal aborted). */
  async stopped(): Promise<void> {
    await this.running;
  }

  /** True once the first list has been delivered. */
  hasSynced(): boolean {
    return this.syncedFlag;
  }

  /** Resolves after the first list has been delivered. */
  synced(): Promise<void> {
    return this.syncedPromise;
  }

  /** The cached objects (all namespaces, or one). */
  list(namespace?: string): ApiObject[] {
    const all: ApiObject[] = [];
    const prefix = namespace === undefined ? undefined : `${namespace}/`;
    for (const [key, held] of this.cache) {
      if (prefix === undefined || (key.startsWith(prefix) && key.indexOf('/', prefix.length) < 0)) {
        all.push(objectOf(held));
      }
    }
    return all;
  }

  get(namespace: string, name: string): ApiObject | undefined {
    const held = this.cache.get(`${namespace}/${name}`);
    return held === undefined ? undefined : objectOf(held);
  }

  private async loop(): Promise<void> {
    const { signal, logger } = this.options;
    const base = this.options.retryDelayMs ?? 100;
    let delay = base;
    let resourceVersion: string | undefined;
    while (!signal.aborted) {
      try {
        if (resourceVersion === undefined) resourceVersion = await this.relist();
        const started = Date.now();
        resourceVersion = await this.watchFrom(resourceVersion);
        // A watch that keeps ending at once must not spin: back off as after a failure.
        if (Date.now() - started < 1000) {
          await sleep(delay, signal);
          delay = Math.min(MAX_RETRY_DELAY_MS, delay * 2);
        } else delay = base;
      } catch (e) {
        if (signal.aborted) return;
        logger.warn('informer: list/watch failed; listing again', {
          resource: this.resourceName(),
          error: errorText(e),
        });
        resourceVersion = undefined;
        await sleep(delay, signal);
        delay = Math.min(MAX_RETRY_DELAY_MS, delay * 2);
      }
    }
  }

  private resourceName(): string {
    const d = this.resource;
    return d.group ? `${d.resource}.${d.group}` : d.resource;
  }

  /** Lists everything, replaces the cache (delivering the differences) and returns the list RV. */
  private async relist(): Promise<string> {
    const fresh = new Map<string, Held>();
    let cont: string | undefined;
    let rv = '';
    do {
      const { pageSize } = this.options;
      const page = await this.options.client.list(
        '',
        pageSize === undefined ? {} : { limit: pageSize, continue: cont },
        this.options.signal,
      );
      const shared = page.encodedItems;
      if (shared) for (const held of shared) fresh.set(heldKey(held), held);
      else for (const obj of page.items) fresh.set(keyOf(obj), obj);
      rv ||= page.resourceVersion;
      cont = page.continue;
    } while (cont);
    for (const [key, old] of this.cache) {
      if (!fresh.has(key)) {
        this.cache.delete(key);
        this.emit((h) => h.onDelete?.(objectOf(old)));
      }
    }
    for (const [key, held] of fresh) this.apply(key, held);
    if (!this.syncedFlag) {
      this.syncedFlag = true;
      this.resolveSynced();
    }
    return rv;
  }

  /**
   * Watches from `resourceVersion` until the stream ends; returns the last resourceVersion seen.
   * Throws on an ERROR event so the caller lists again.
   */
  private async watchFrom(resourceVersion: string): Promise<string> {
    let rv = resourceVersion;
    const stream = await this.options.client.watch(
      '',
      { resourceVersion: rv, allowWatchBookmarks: true },
      this.options.signal,
    );
    try {
      for await (const ev of stream) {
        if (ev.type === 'ERROR') throw new WatchErrorEvent(ev);
        // A shared object tells its key and revision without being decoded.
        const shared = ev.encoded;
        const revision = shared?.modRevision;
        rv = revision !== undefined ? revision.toString() : (ev.object.metadata.resourceVersion ?? rv);
        if (ev.type === 'BOOKMARK') continue;
        const key =
          shared?.namespacedName !== undefined && revision !== undefined ? shared.namespacedName : keyOf(ev.object);
        if (ev.type === 'DELETED') {
          const old = this.cache.get(key);
          this.cache.delete(key);
          const gone = old === undefined ? ev.object : objectOf(old);
          this.emit((h) => h.onDelete?.(gone));
        } else {
          this.apply(key, ev.encoded ?? ev.object);
        }
      }
    } finally {
      stream.stop();
    }
    return rv;
  }

  private apply(key: string, held: Held): void {
    const old = this.cache.get(key);
    this.cache.set(key, held);
    // The same shared object is the same object at the same resourceVersion: nothing changed.
    if (old === held || this.handlers.length === 0) return;
    if (!old) {
      // Handlers that can tell from the shared object that the add means nothing to them are
      // skipped; when all are, the object is not decoded.
      const wanted = isShared(held) ? this.handlers.filter((h) => !wantsNoAdd(h, held)) : this.handlers;
      if (wanted.length === 0) return;
      const obj = objectOf(held);
      this.emit((h) => h.onAdd?.(obj), wanted);
      return;
    }
    const obj = objectOf(held);
    const before = objectOf(old);
    if (before.metadata.resourceVersion !== obj.metadata.resourceVersion) this.emit((h) => h.onUpdate?.(before, obj));
  }

  private emit(call: (h: InformerHandlers) => void, handlers: readonly InformerHandlers[] = this.handlers): void {
    for (const h of handlers) {
      try {
        call(h);
      } catch (e) {
        this.options.logger.error('informer: handler failed', {
          resource: this.resourceName(),
          error: errorText(e),
        });
      }
    }
  }
}

/** An ERROR event on a watch (its object is a Status). */
export class WatchErrorEvent extends Error {
  constructor(readonly event: ClientWatchEvent) {
    super(`watch error: ${String((event.object as { message?: unknown }).message ?? 'unknown')}`);
    this.name = 'WatchErrorEvent';
  }
}
