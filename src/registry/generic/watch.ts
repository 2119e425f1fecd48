import type { ApiObject } from '../../apis/object.js';
import type { StoreEvent } from '../../storage/store.js';
import type { RequestContext, WatchEvent, WatchOptions, WatchStream } from '../types.js';
import { type SelectionPredicate, selectionPredicate } from './predicate.js';
import { collectionPrefix, type RegistryContext } from './registry-context.js';
import { toStatusError } from './storage-errors.js';
import { convertWatchBatch } from './stored-conversion.js';
import type { StoredCodec } from './stored-object.js';
import { watchStreamOf } from './watch-stream.js';

/**
 * A watch served straight from the store: with no resourceVersion (or `0`) the current
 * objects come first as ADDED events, then every change after the read revision; with a
 * resourceVersion, only the changes after it.
 */
export async function watchObjects(rc: RegistryContext, ctx: RequestContext, o: WatchOptions): Promise<WatchStream> {
  const ac = new AbortController();
  const onAbort = () => ac.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const prefix = collectionPrefix(rc, ctx.namespace);
  const predicate = selectionPredicate(rc.def, o);
  const rv = o.resourceVersion;
  let initial: ApiObject[] = [];
  let after: bigint;
  try {
    if (rv === undefined || rv === '' || rv === '0') {
      const r = await rc.store.range(prefix, { signal: ctx.signal });
      initial = r.kvs.map((kv) => rc.codec.decode(kv)).filter((obj) => predicate.matches(obj));
      after = r.revision;
    } else {
      after = BigInt(rv);
    }
  } catch (e) {
    ctx.signal.removeEventListener('abort', onAbort);
    throw toStatusError(e, rc.gr, '');
  }
  const events = rc.store.watch(prefix, { afterRevision: after, signal: ac.signal });
  // [conversion] A webhook-converted resource converts the initial objects in one batch, then
  // each event; an ERROR event reports a failed conversion and ends the stream.
  const convert = rc.codec.async ? (batch: WatchEvent[]) => convertWatchBatch(rc, batch, ac.signal) : undefined;
  async function* iterate(): AsyncGenerator<WatchEvent> {
    try {
      const added: WatchEvent[] = initial.map((obj) => ({ type: 'ADDED', object: obj }));
      if (convert) {
        const r = await convert(added);
        yield* r.events;
        if (r.failed) return;
      } else yield* added;
      for await (const ev of events) {
        if (ev.type === 'progress') continue;
        const we = toWatchEvent(ev, predicate, rc.codec);
        if (!we) continue;
        if (!convert) {
          yield we;
          continue;
        }
        const r = await convert([we]);
        yield* r.events;
        if (r.failed) return;
      }
    } finally {
      ac.abort();
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }
  return watchStreamOf(iterate(), () => ac.abort());
}

/**
 * A store event as the watcher sees it through its selector: an object that starts matching
 * is ADDED, one that stops matching is DELETED (carrying its new state), as kube does.
 */
function toWatchEvent(ev: StoreEvent, predicate: SelectionPredicate, codec: StoredCodec): WatchEvent | undefined {
  const prev = ev.prev && !ev.prev.corrupt ? codec.decode(ev.prev) : undefined;
  const prevMatched = prev !== undefined && predicate.matches(prev);
  if (ev.type === 'put') {
    if (!ev.kv || ev.kv.corrupt) return undefined;
    const obj = codec.decode(ev.kv);
    const matches = predicate.matches(obj);
    if (matches) return { type: prevMatched ? 'MODIFIED' : 'ADDED', object: obj };
    return prevMatched ? { type: 'DELETED', object: obj } : undefined;
  }
  if (!prev || !prevMatched) return undefined;
  // A deleted object is reported at the revision of its deletion.
  prev.metadata.resourceVersion = ev.revision.toString();
  return { type: 'DELETED', object: prev };
}
