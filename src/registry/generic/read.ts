import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { CompactedError } from '../../storage/errors.js';
import type { GetOptions, ListOptions, ObjectList, RequestContext } from '../types.js';
import { CachedObject, CachedObjectList } from './cached-object.js';
import { decodeListItems, decodeOrThrow, readErrorToStatus } from './delete-corrupt-object.js';
import { type SelectionPredicate, selectionPredicate } from './predicate.js';
import {
  EXPIRED_CONTINUE,
  EXPIRED_LIST,
  encodeContinue,
  listSemantics,
  parseResourceVersion,
} from './read-semantics.js';
import { collectionPrefix, keyFor, type RegistryContext } from './registry-context.js';
import { toStatusError } from './storage-errors.js';
import { convertFromStorage, convertOneFromStorage } from './stored-conversion.js';

// How long a read for a resourceVersion the server has not seen yet waits before 504.
const FUTURE_REVISION_WAIT_MS = 3000;

/** Waits (briefly) until the store has reached `revision`; 504 "Too large resource version" else. */
async function awaitRevision(rc: RegistryContext, revision: bigint, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + FUTURE_REVISION_WAIT_MS;
  for (;;) {
    const current = await rc.store.currentRevision(signal);
    if (current >= revision) return;
    if (Date.now() >= deadline) throw apiErrors.tooLargeResourceVersion(rc.gr);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Get one object: resourceVersion unset = latest, `0` = any, else not older than it. */
export async function getObject(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  o: GetOptions,
): Promise<ApiObject> {
  try {
    if (o.resourceVersion && o.resourceVersion !== '0') {
      await awaitRevision(rc, parseResourceVersion(o.resourceVersion), ctx.signal);
    }
    const kv = await rc.store.get(keyFor(rc, ctx.namespace, name), { signal: ctx.signal });
    if (!kv) throw apiErrors.notFound(rc.gr, name);
    // [deletion lifecycle] corrupt objects answer kube's 500 (see delete-corrupt-object.ts).
    const obj = decodeOrThrow(rc, kv);
    // [conversion] A webhook-converted resource shows the stored object in this version.
    return rc.codec.async ? await convertOneFromStorage(rc, obj, ctx.signal) : obj;
  } catch (e) {
    throw readErrorToStatus(rc, e, name);
  }
}

/**
 * A list read from the store per the spec's resourceVersion semantics: a snapshot at one
 * revision, in key order, paged with `limit` and `continue` (every page at the first page's
 * revision).
 */
export async function listObjects(rc: RegistryContext, ctx: RequestContext, o: ListOptions): Promise<ObjectList> {
  const prefix = collectionPrefix(rc, ctx.namespace);
  const sem = listSemantics(o, rc.domain.metaGroup);
  const predicate = selectionPredicate(rc.def, o);
  let revision: bigint | undefined;
  let startAfter: string | undefined;
  try {
    switch (sem.kind) {
      case 'notOlderThan':
        await awaitRevision(rc, sem.revision, ctx.signal);
        break;
      case 'exact':
        await awaitRevision(rc, sem.revision, ctx.signal);
        revision = sem.revision;
        break;
      case 'continue':
        revision = sem.revision;
        startAfter = prefix + sem.startAfter;
        break;
    }
    return await readPages(rc, ctx, { prefix, revision, startAfter, limit: o.limit, predicate });
  } catch (e) {
    if (e instanceof CompactedError && sem.kind === 'continue') {
      throw new StatusError(410, 'Expired', EXPIRED_CONTINUE);
    }
    // Watches say `too old resource version: X (Y)`; lists have their own wording.
    if (e instanceof CompactedError) throw new StatusError(410, 'Expired', EXPIRED_LIST, undefined, { cause: e });
    throw toStatusError(e, rc.gr, '');
  }
}

/**
 * Reads one page: with a selector, keeps reading store pages at the same revision until
 * `limit` matching items are found or the collection ends (as kube's storage does), so a
 * page is never short while more matches exist.
 */
async function readPages(
  rc: RegistryContext,
  ctx: RequestContext,
  q: { prefix: string; revision?: bigint; startAfter?: string; limit?: number; predicate: SelectionPredicate },
): Promise<ObjectList> {
  // Every item as stored (no selector, no conversion): kept as its bytes, like the watch cache's.
  const asStored = q.predicate.everything && !rc.codec.async;
  const toCached = asStored ? CachedObject.decoder(rc.cachedType) : undefined;
  const items: ApiObject[] = [];
  const cached: CachedObject[] = [];
  let revision = q.revision;
  let startAfter = q.startAfter;
  for (;;) {
    const want = q.limit ? q.limit - items.length - cached.length : undefined;
    const r = await rc.store.range(q.prefix, { revision, startAfter, limit: want, signal: ctx.signal });
    revision = r.revision;
    // A corrupt item fails the list as kube reports it (see delete-corrupt-object.ts).
    if (toCached) for (const co of decodeListItems(rc, r.kvs, toCached)) cached.push(co);
    else {
      let decoded = decodeListItems(rc, r.kvs);
      // [conversion] One batch per store page, selected in this version; a page that cannot be
      // converted fails the list whole.
      if (rc.codec.async) decoded = await convertFromStorage(rc, decoded, ctx.signal);
      for (const obj of decoded) if (q.predicate.matches(obj)) items.push(obj);
    }
    const lastKey = r.kvs.length > 0 ? r.kvs[r.kvs.length - 1].key : startAfter;
    const full = q.limit !== undefined && items.length + cached.length >= q.limit;
    if (!r.more || full) {
      const resourceVersion = r.revision.toString();
      const list: { -readonly [K in keyof ObjectList]: ObjectList[K] } = toCached
        ? new CachedObjectList(cached, resourceVersion)
        : { items, resourceVersion };
      if (r.more && lastKey) {
        list.continue = encodeContinue(
          { rv: r.revision.toString(), start: lastKey.slice(q.prefix.length) },
          rc.domain.metaGroup,
        );
        if (q.predicate.everything) list.remainingItemCount = r.remaining;
      }
      return list;
    }
    startAfter = lastKey;
  }
}
