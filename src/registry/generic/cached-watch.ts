import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { apiVersionOf } from '../../apis/resource-definition.js';
import {
  type Cacher,
  type CacheWatchEvent,
  ResourceVersionTooOldError,
  WatcherTooSlowError,
} from '../../storage/cacher/index.js';
import type { RequestContext, SyncWatchSource, WatchEvent, WatchOptions, WatchStream } from '../types.js';
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
  let watcher: Awaited<ReturnType<Cacher<CachedObject>['watch']>>;
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
  const apiVersion = apiVersionOf(rc.def);
  const events = rc.watchEvents;
  const toWatchEvent = (ev: CacheWatchEvent<CachedObject>): WatchEvent => {
    if (ev.type !== 'BOOKMARK') {
      // One event object per cache event, shared by every watcher (and its encodings with it).
      let shared = events.get(ev);
      if (!shared) {
        shared = new CachedWatchEvent(ev.type, ev.object);
        events.set(ev, shared);
      }
      return shared;
    }
    const metadata: ApiObject['metadata'] = { resourceVersion: ev.revision.toString() };
    if (ev.initialEventsEnd) metadata.annotations = { [rc.domain.initialEventsEndAnnotation]: 'true' };
    return { type: 'BOOKMARK', object: { apiVersion, kind: rc.def.kind, metadata } };
  };
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    ac.abort();
    ctx.signal.removeEventListener('abort', onAbort);
  };
  /** The events of a failed watcher, after ending the stream (a watcher that fell behind is closed). */
  const failed = (e: unknown): readonly WatchEvent[] | undefined => {
    end();
    // The client re-watches from its last version.
    if (e instanceof WatcherTooSlowError) return undefined;
    if (e instanceof ResourceVersionTooOldError) {
      return [{ type: 'ERROR', object: cacherErrorToStatus(rc, e).toStatus() as unknown as ApiObject }];
    }
    throw e;
  };
  // Shared, read-only events, typed mutable at the registry boundary (see listFromCache).
  type Batch = CacheWatchEvent<CachedObject>[];
  function poll(): readonly WatchEvent[] | undefined | null {
    if (ended) return undefined;
    let batch: Batch | undefined | null;
    try {
      batch = watcher.poll() as Batch | undefined | null;
    } catch (e) {
      return failed(e);
    }
    if (batch === null) return null;
    if (batch === undefined) {
      end();
      return undefined;
    }
    return batch.map(toWatchEvent);
  }
  async function nextBatch(): Promise<readonly WatchEvent[] | undefined> {
    if (ended) return undefined;
    let batch: Batch | undefined;
    try {
      batch = (await watcher.nextBatch()) as Batch | undefined;
    } catch (e) {
      return failed(e);
    }
    if (batch === undefined) {
      end();
      return undefined;
    }
    const out = batch.map(toWatchEvent);
    if (!rc.codec.async) return out;
    // [conversion] The cache holds stored objects of a webhook-converted resource: one batch
    // per wake-up (the initial objects are one); a failed conversion is the stream's last event.
    const r = await convertWatchBatch(rc, out, ac.signal);
    if (r.failed) end();
    return r.events;
  }
  async function* iterate(): AsyncGenerator<WatchEvent> {
    try {
      for (let batch = await nextBatch(); batch !== undefined; batch = await nextBatch()) yield* batch;
    } finally {
      end();
    }
  }
  const it = iterate();
  // Events that need an asynchronous conversion cannot be handed out synchronously.
  const sync: SyncWatchSource | undefined = rc.codec.async
    ? undefined
    : {
        poll,
        onReady(listener) {
          if (listener === undefined) return watcher.setListener(undefined);
          const offer = listener.offer;
          watcher.setListener({
            wake: listener.wake,
            offer:
              offer === undefined
                ? undefined
                : (ev) => !ended && offer(toWatchEvent(ev as CacheWatchEvent<CachedObject>)),
          });
        },
      };
  return { [Symbol.asyncIterator]: () => it, nextBatch, stop: end, sync };
}

/**
 * A change event of the watch cache: the object decoded only when read (a JSON watch copies
 * the encoded object's bytes instead).
 */
class CachedWatchEvent implements WatchEvent {
  constructor(
    readonly type: 'ADDED' | 'MODIFIED' | 'DELETED',
    readonly encoded: CachedObject,
  ) {}

  get object(): ApiObject {
    return this.encoded.object;
  }
}
