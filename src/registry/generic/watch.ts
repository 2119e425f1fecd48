import type { ApiObject } from '../../apis/object.js';
import type { StoreEvent, StoreProgress } from '../../storage/store.js';
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
  // [conversion] A webhook-converted resource selects on objects in this version: they are
  // converted first (see iterateConverted).
  const converting = rc.codec.async !== undefined;
  let initial: ApiObject[] = [];
  let after: bigint;
  try {
    if (rv === undefined || rv === '' || rv === '0') {
      const r = await rc.store.range(prefix, { signal: ctx.signal });
      initial = r.kvs.map((kv) => rc.codec.decode(kv));
      if (!converting) initial = initial.filter((obj) => predicate.matches(obj));
      after = r.revision;
    } else {
      after = BigInt(rv);
    }
  } catch (e) {
    ctx.signal.removeEventListener('abort', onAbort);
    throw toStatusError(e, rc.gr, '');
  }
  const events = rc.store.watch(prefix, { afterRevision: after, signal: ac.signal });
  async function* iterate(): AsyncGenerator<WatchEvent> {
    try {
      if (converting) {
        yield* iterateConverted(rc, { initial, events, predicate, signal: ac.signal });
        return;
      }
      for (const obj of initial) yield { type: 'ADDED', object: obj };
      for await (const ev of events) {
        if (ev.type === 'progress') continue;
        const we = toWatchEvent(ev, predicate, rc.codec);
        if (we) yield we;
      }
    } finally {
      ac.abort();
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }
  return watchStreamOf(iterate(), () => ac.abort());
}

/**
 * [conversion] The events of a webhook-converted resource: the initial objects converted in
 * one batch, then each change with its previous state in one batch, selected after conversion.
 * A conversion that fails is reported as an ERROR event that ends the stream.
 */
async function* iterateConverted(
  rc: RegistryContext,
  w: {
    readonly initial: readonly ApiObject[];
    readonly events: AsyncIterable<StoreEvent | StoreProgress>;
    readonly predicate: SelectionPredicate;
    readonly signal: AbortSignal;
  },
): AsyncGenerator<WatchEvent> {
  const added = w.initial.map((object): WatchEvent => ({ type: 'ADDED', object }));
  const first = await convertWatchBatch(rc, added, w.signal);
  for (const ev of first.events) if (ev.type === 'ERROR' || w.predicate.matches(ev.object)) yield ev;
  if (first.failed) return;
  for await (const ev of w.events) {
    if (ev.type === 'progress') continue;
    const prev = ev.prev && !ev.prev.corrupt ? rc.codec.decode(ev.prev) : undefined;
    const obj = ev.type === 'put' && ev.kv && !ev.kv.corrupt ? rc.codec.decode(ev.kv) : undefined;
    const stored = [prev, obj].filter((x): x is ApiObject => x !== undefined);
    const asEvents = stored.map((object): WatchEvent => ({ type: 'MODIFIED', object }));
    const r = await convertWatchBatch(rc, asEvents, w.signal);
    if (r.failed) {
      yield* r.events;
      return;
    }
    const converted = r.events.map((e) => e.object);
    const we = eventOf(ev, prev ? converted[0] : undefined, obj ? converted[prev ? 1 : 0] : undefined, w.predicate);
    if (we) yield we;
  }
}

/**
 * A store event as the watcher sees it through its selector: an object that starts matching
 * is ADDED, one that stops matching is DELETED (carrying its new state), as kube does.
 */
function toWatchEvent(ev: StoreEvent, predicate: SelectionPredicate, codec: StoredCodec): WatchEvent | undefined {
  const prev = ev.prev && !ev.prev.corrupt ? codec.decode(ev.prev) : undefined;
  const obj = ev.type === 'put' && ev.kv && !ev.kv.corrupt ? codec.decode(ev.kv) : undefined;
  return eventOf(ev, prev, obj, predicate);
}

/** {@link toWatchEvent} over decoded objects: `prev` (if any) and the new state of a put. */
function eventOf(
  ev: StoreEvent,
  prev: ApiObject | undefined,
  obj: ApiObject | undefined,
  predicate: SelectionPredicate,
): WatchEvent | undefined {
  const prevMatched = prev !== undefined && predicate.matches(prev);
  if (ev.type === 'put') {
    if (!obj) return undefined;
    const matches = predicate.matches(obj);
    if (matches) return { type: prevMatched ? 'MODIFIED' : 'ADDED', object: obj };
    return prevMatched ? { type: 'DELETED', object: obj } : undefined;
  }
  if (!prev || !prevMatched) return undefined;
  // A deleted object is reported at the revision of its deletion.
  prev.metadata.resourceVersion = ev.revision.toString();
  return { type: 'DELETED', object: prev };
}
