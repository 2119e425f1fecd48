import { CompactedError, RevisionTooNewError } from '../errors.js';
import type { Store } from '../store.js';
import { toCachedItem } from './cached-item.js';
import { ResourceVersionTooOldError, TooLargeResourceVersionError } from './cacher-errors.js';
import type { Decoder } from './types.js';

export interface StoreListRequest<T> {
  readonly prefix: string;
  /** Read at exactly this revision; the latest when undefined. */
  readonly revision?: bigint;
  /** With `revision` undefined: fail with TooLargeResourceVersionError when the latest is older. */
  readonly minRevision?: bigint;
  readonly startAfter?: string;
  readonly limit: number;
  readonly filter?: (obj: T) => boolean;
  readonly signal?: AbortSignal;
}

export interface StoreListResult<T> {
  readonly items: T[];
  readonly revision: bigint;
  readonly more: boolean;
  readonly remaining: number | undefined;
  readonly lastKey: string | undefined;
}

/**
 * A list read from the store instead of the cache (the cache is not ready, or the revision is
 * older than its history). Same contract as a cached page: with a filter and a limit it keeps
 * reading pages at the first page's revision until the limit is filled; `more` then only says
 * keys remain (a last page may come out empty), and `remaining` is undefined.
 * Store errors are translated: CompactedError → ResourceVersionTooOldError, RevisionTooNewError →
 * TooLargeResourceVersionError; unreadable items throw their error.
 */
export async function listFromStore<T>(
  store: Store,
  decode: Decoder<T>,
  request: StoreListRequest<T>,
): Promise<StoreListResult<T>> {
  const { prefix, limit, filter, signal } = request;
  const items: T[] = [];
  let revision = request.revision;
  let startAfter = request.startAfter;
  let lastKey: string | undefined;
  for (;;) {
    const page = await translate(revision, () =>
      store.range(prefix, { revision, startAfter, limit: limit > 0 ? limit - items.length : 0, signal }),
    );
    if (revision === undefined && request.minRevision !== undefined && page.revision < request.minRevision) {
      throw new TooLargeResourceVersionError(request.minRevision, page.revision);
    }
    revision = page.revision;
    for (const kv of page.kvs) {
      const item = toCachedItem(kv, decode);
      if (item.error !== undefined) throw item.error;
      startAfter = kv.key;
      if (filter !== undefined && !filter(item.object as T)) continue;
      items.push(item.object as T);
      lastKey = kv.key;
    }
    const full = limit > 0 && items.length >= limit;
    if (full || !page.more || page.kvs.length === 0 || filter === undefined) {
      const remaining = filter === undefined ? page.remaining : undefined;
      // A filtered page that skipped trailing keys continues after the last key read, not returned.
      return { items, revision, more: page.more, remaining, lastKey: filter === undefined ? lastKey : startAfter };
    }
  }
}

/** One key from the store, decoded; errors translated as for {@link listFromStore}. */
export async function getFromStore<T>(
  store: Store,
  decode: Decoder<T>,
  key: string,
  signal?: AbortSignal,
): Promise<{ object: T | undefined; revision: bigint }> {
  const [kv, revision] = await Promise.all([store.get(key, { signal }), store.currentRevision(signal)]);
  if (kv === undefined) return { object: undefined, revision };
  const item = toCachedItem(kv, decode);
  if (item.error !== undefined) throw item.error;
  // The two reads are not one snapshot: a write may fall between them.
  if (kv.modRevision > revision) return { object: item.object, revision: kv.modRevision };
  return { object: item.object, revision };
}

async function translate<R>(revision: bigint | undefined, read: () => Promise<R>): Promise<R> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof CompactedError) {
      throw new ResourceVersionTooOldError(revision ?? e.requestedRevision, e.oldestRetainedRevision, { cause: e });
    }
    if (e instanceof RevisionTooNewError)
      throw new TooLargeResourceVersionError(e.requestedRevision, e.currentRevision);
    throw e;
  }
}
