import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { apiVersionOf } from '../../apis/resource-definition.js';
import {
  type Cacher,
  type CacheWatchEvent,
  type CacheWatcher,
  ResourceVersionTooOldError,
  type WatcherListener,
  WatcherTooSlowError,
} from '../../storage/cacher/index.js';
import type {
  RequestContext,
  SyncWatchListener,
  SyncWatchSource,
  WatchEvent,
  WatchOptions,
  WatchStream,
} from '../types.js';
import type { CachedObject } from './cached-object.js';
import { cacherErrorToStatus } from './cached-read.js';
import { checkListOptions } from './list-options-validation.js';
import { selectionPredicate } from './predicate.js';
import { parseResourceVersion } from './read-semantics.js';
import { collectionPrefix, type RegistryContext } from './registry-context.js';
import { convertWatchBatch } from './stored-conversion.js';
import { watchStreamOf } from './watch-stream.js';

/** The annotation that marks the bookmark ending a streaming list's initial events. */

/** A watch stream that reports one ERROR event (a `Status`) and ends, as kube does for 410. */
function errorStream(status: StatusError): WatchStream {
  async function* one(): AsyncGenerator<WatchEvent> {
    yield { type: 'ERROR', object: status.toStatus() as unknown as ApiObject };
  }
  return watchStreamOf(one(), () => {});
}

/**
 * A watch served from the watch cache. resourceVersion unset or `0`: the current state as
 * ADDED events first; a value: only the changes after it (410 inside the stream when it is no
 * longer retained). `sendInitialEvents` streams the state first, then a bookmark annotated as
 * the end of the initial events.
 */
export async function watchFromCache(
  rc: RegistryContext,
  cacher: Cacher<CachedObject>,
  ctx: RequestContext,
  o: WatchOptions,
): Promise<WatchStream> {
  const rv = o.resourceVersion ?? '';
  checkListOptions(o, { watch: true, metaGroup: rc.domain.metaGroup });
  const revision = rv === '' ? undefined : parseResourceVersion(rv);
  const predicate = selectionPredicate(rc.def, o);
  if (revision !== undefined && revision > 0n) {
    // History below the store's compacted revision is gone, whatever the cache still holds.
    const compacted = await rc.store.compactedRevision(ctx.signal);
    if (revision < compacted) {
      return errorStream(new StatusError(410, 'Expired', `too old resource version: ${revision} (${compacted + 1n})`));
    }
  }
  const ac = new AbortController();
  const onAbort = () => ac.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let watcher: Watcher;
  try {
    const initial = o.sendInitialEvents === true;
    watcher = await cacher.watch({
      prefix: collectionPrefix(rc, ctx.namespace),
      afterRevision: revision === 0n ? undefined : revision,
      sendInitialEvents: initial || undefined,
      consistent: rv === '' || undefined,
      filter: predicate.everything ? undefined : (co) => predicate.matchesSelected(co),
      allowBookmarks: o.allowWatchBookmarks === true,
      signal: ac.signal,
    });
  } catch (e) {
    ctx.signal.removeEventListener('abort', onAbort);
    if (e instanceof ResourceVersionTooOldError) return errorStream(cacherErrorToStatus(rc, e));
    throw cacherErrorToStatus(rc, e);
  }
  return new CachedWatch(rc, watcher, ac, () => ctx.signal.removeEventListener('abort', onAbort));
}

/**
 * One watch on the watch cache, as the registry hands it out: the cache watcher's events as API
 * watch events. It is also the cache watcher's listener: a live change goes from the cache's
 * dispatch through {@link CachedWatch.offer} straight to the consumer's listener, with nothing
 * made per watcher but a bookmark's object.
 */
class CachedWatch implements WatchStream, SyncWatchSource, WatcherListener<WatchedObject> {
  /** Events that need an asynchronous conversion cannot be handed out synchronously. */
  readonly sync: SyncWatchSource | undefined;
  private ended = false;
  private target: SyncWatchListener | undefined;
  private iterator: AsyncGenerator<WatchEvent> | undefined;
  private readonly apiVersion: string;

  constructor(
    private readonly rc: RegistryContext,
    private readonly watcher: Watcher,
    private readonly ac: AbortController,
    private readonly detachSignal: () => void,
  ) {
    this.apiVersion = apiVersionOf(rc.def);
    this.sync = rc.codec.async ? undefined : this;
  }

  /** Ends the watch (idempotent). */
  stop(): void {
    if (this.ended) return;
    this.ended = true;
    this.ac.abort();
    this.detachSignal();
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    this.iterator ??= this.iterate();
    return this.iterator;
  }

  poll(): readonly WatchEvent[] | undefined | null {
    if (this.ended) return undefined;
    let batch: Batch | undefined | null;
    try {
      batch = this.watcher.poll() as Batch | undefined | null;
    } catch (e) {
      return this.failed(e);
    }
    if (batch === null) return null;
    if (batch === undefined) {
      this.stop();
      return undefined;
    }
    return this.toWatchEvents(batch);
  }

  onReady(listener: SyncWatchListener | undefined): void {
    this.target = listener;
    this.watcher.setListener(listener === undefined ? undefined : this);
  }

  /** The cache watcher's wake-up, passed on to the consumer. */
  wake(): void {
    this.target?.wake();
  }

  /** A live event from the cache's dispatch, offered to the consumer as it is. */
  offer(ev: CacheWatchEvent<WatchedObject>): boolean {
    const target = this.target;
    if (this.ended || target?.offer === undefined) return false;
    return target.offer(this.toWatchEvent(ev as CacheWatchEvent<CachedObject>));
  }

  async nextBatch(): Promise<readonly WatchEvent[] | undefined> {
    if (this.ended) return undefined;
    let batch: Batch | undefined;
    try {
      batch = (await this.watcher.nextBatch()) as Batch | undefined;
    } catch (e) {
      return this.failed(e);
    }
    if (batch === undefined) {
      this.stop();
      return undefined;
    }
    const out = this.toWatchEvents(batch);
    if (!this.rc.codec.async) return out;
    // [conversion] The cache holds stored objects of a webhook-converted resource: one batch
    // per wake-up (the initial objects are one); a failed conversion is the stream's last event.
    const r = await convertWatchBatch(this.rc, out, this.ac.signal);
    if (r.failed) this.stop();
    return r.events;
  }

  private async *iterate(): AsyncGenerator<WatchEvent> {
    try {
      for (let batch = await this.nextBatch(); batch !== undefined; batch = await this.nextBatch()) yield* batch;
    } finally {
      this.stop();
    }
  }

  /** The events of a failed watcher, after ending the stream (a watcher that fell behind is closed). */
  private failed(e: unknown): readonly WatchEvent[] | undefined {
    this.stop();
    // The client re-watches from its last version.
    if (e instanceof WatcherTooSlowError) return undefined;
    if (e instanceof ResourceVersionTooOldError) {
      return [{ type: 'ERROR', object: cacherErrorToStatus(this.rc, e).toStatus() as unknown as ApiObject }];
    }
    throw e;
  }

  // Shared, read-only events, typed mutable at the registry boundary (see listFromCache).
  private toWatchEvents(batch: Batch): WatchEvent[] {
    const out: WatchEvent[] = new Array(batch.length);
    for (let i = 0; i < batch.length; i++) out[i] = this.toWatchEvent(batch[i]);
    return out;
  }

  private toWatchEvent(ev: CacheWatchEvent<CachedObject>): WatchEvent {
    if (ev.type !== 'BOOKMARK') {
      // One event object per cache event, shared by every watcher (and its encodings with it),
      // kept in the cache event's slot for it.
      let shared = ev.derived as CachedWatchEvent | undefined;
      if (shared === undefined) {
        shared = new CachedWatchEvent(ev.type, ev.object);
        ev.derived = shared;
      }
      return shared;
    }
    const metadata: ApiObject['metadata'] = { resourceVersion: ev.revision.toString() };
    if (ev.initialEventsEnd) metadata.annotations = { [this.rc.domain.initialEventsEndAnnotation]: 'true' };
    return { type: 'BOOKMARK', object: { apiVersion: this.apiVersion, kind: this.rc.def.kind, metadata } };
  }
}

type Batch = CacheWatchEvent<CachedObject>[];
/** The cache watcher of a registry's watch cache, and the objects it hands out (read-only). */
type Watcher = Awaited<ReturnType<Cacher<CachedObject>['watch']>>;
type WatchedObject = Watcher extends CacheWatcher<infer O> ? O : never;

/**
 * A change event of the watch cache: the object decoded only when read (a JSON watch copies
 * the encoded object's bytes instead), and its frames per media type made once for all watchers.
 */
class CachedWatchEvent implements WatchEvent {
  /** The frame asked for first (most watches of a resource use one media type) ... */
  private frameName: string | undefined = undefined;
  private frameBytes: Buffer | undefined = undefined;
  /** ... and any others. */
  private otherFrames: Map<string, Buffer> | undefined = undefined;

  constructor(
    readonly type: 'ADDED' | 'MODIFIED' | 'DELETED',
    readonly encoded: CachedObject,
  ) {}

  get object(): ApiObject {
    return this.encoded.object;
  }

  frame(name: string, encode: (ev: WatchEvent) => Buffer): Buffer {
    if (this.frameName === name) return this.frameBytes as Buffer;
    if (this.frameName === undefined) {
      const bytes = encode(this);
      this.frameName = name;
      this.frameBytes = bytes;
      return bytes;
    }
    this.otherFrames ??= new Map();
    let bytes = this.otherFrames.get(name);
    if (bytes === undefined) {
      bytes = encode(this);
      this.otherFrames.set(name, bytes);
    }
    return bytes;
  }
}
