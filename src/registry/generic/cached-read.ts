import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { type Cacher, ResourceVersionTooOldError, TooLargeResourceVersionError } from '../../storage/cacher/index.js';
import { CorruptValueError } from '../../storage/errors.js';
import type { EncodedObject, ListOptions, ObjectList, RequestContext } from '../types.js';
import { type CachedObject, CachedObjectList } from './cached-object.js';
import { selectionPredicate } from './predicate.js';
import {
  EXPIRED_CONTINUE,
  EXPIRED_LIST,
  encodeContinue,
  type ListSemantics,
  listSemantics,
  parseResourceVersion,
} from './read-semantics.js';
import { collectionPrefix, keyFor, type LastKey, type RegistryContext } from './registry-context.js';
import { toStatusError } from './storage-errors.js';
import { convertFromStorage, convertOneFromStorage } from './stored-conversion.js';

/** Translates watch-cache errors into API errors; anything else goes to the storage mapping. */
export function cacherErrorToStatus(rc: RegistryContext, e: unknown, sem?: ListSemantics): StatusError {
  if (e instanceof ResourceVersionTooOldError) {
    if (sem?.kind === 'continue') return new StatusError(410, 'Expired', EXPIRED_CONTINUE);
    if (sem) return new StatusError(410, 'Expired', EXPIRED_LIST, undefined, { cause: e });
    return new StatusError(410, 'Expired', e.message);
  }
  if (e instanceof TooLargeResourceVersionError) return apiErrors.tooLargeResourceVersion(rc.gr);
  return toStatusError(e, rc.gr, '');
}

/**
 * A list served from the watch cache, per the spec's resourceVersion table: unset is a
 * consistent read, `0` any state, a value not older than it (or exactly it with a limit),
 * continue tokens exactly the first page's revision. Returns undefined for reads the store
 * serves: exact versions, continue tokens, and lists over a corrupt object (which the store
 * reports as kube does).
 */
export async function listFromCache(
  rc: RegistryContext,
  cacher: Cacher<CachedObject>,
  ctx: RequestContext,
  o: ListOptions,
): Promise<ObjectList | undefined> {
  const prefix = collectionPrefix(rc, ctx.namespace);
  const sem = listSemantics(o, rc.domain.metaGroup);
  // Exact versions and continue tokens are read from the store (as kube 1.32 delegates them):
  // it keeps exactly the compaction window, so they expire with it.
  if (sem.kind === 'exact' || sem.kind === 'continue') return undefined;
  const predicate = selectionPredicate(rc.def, o);
  // [conversion] The cache holds stored objects of a webhook-converted resource; selectors
  // apply to objects in this version, so the store serves selected lists (converting first).
  if (rc.codec.async && !predicate.everything) return undefined;
  try {
    const r = await cacher.list({
      prefix,
      consistent: sem.kind === 'latest' || undefined,
      minRevision: sem.kind === 'notOlderThan' ? sem.revision : undefined,
      limit: o.limit,
      filter: predicate.everything ? undefined : (co) => predicate.matchesSelected(co),
      signal: ctx.signal,
    });
    // The cache's shared objects leave the registry typed mutable (ObjectList); nothing above
    // the registry writes to a read's result: response writers only encode it.
    const cached = r.items as CachedObject[];
    const list: { -readonly [K in keyof ObjectList]: ObjectList[K] } = rc.codec.async
      ? {
          items: await convertFromStorage(
            rc,
            cached.map((co) => co.object),
            ctx.signal,
          ),
          resourceVersion: r.revision.toString(),
        }
      : new CachedObjectList(cached, r.revision.toString());
    if (r.more && r.lastKey) {
      list.continue = encodeContinue(
        { rv: r.revision.toString(), start: r.lastKey.slice(prefix.length) },
        rc.domain.metaGroup,
      );
      if (predicate.everything && r.remaining !== undefined) list.remainingItemCount = r.remaining;
    }
    return list;
  } catch (e) {
    if (e instanceof CorruptValueError) return undefined;
    throw cacherErrorToStatus(rc, e, sem);
  }
}

/** A get served from the watch cache: `0` = any state, a value = not older than it. */
export async function getFromCache(
  rc: RegistryContext,
  cacher: Cacher<CachedObject>,
  ctx: RequestContext,
  name: string,
  resourceVersion: string,
): Promise<ApiObject> {
  const object = (await cachedObject(rc, cacher, ctx, name, resourceVersion)).object;
  // [conversion] The cache holds stored objects of a webhook-converted resource; converting
  // leaves them alone (the converter returns new objects).
  if (rc.codec.async) return convertOneFromStorage(rc, object, ctx.signal);
  // Shared with every reader, typed mutable at the registry boundary: see listFromCache.
  return object;
}

/**
 * The same get as an encoded object, for response writers that copy its bytes; undefined for a
 * webhook-converted resource (its cache holds another version). resourceVersion=0 from a ready
 * cache is answered at once, without a promise (and its failures thrown).
 */
export function getEncodedFromCache(
  rc: RegistryContext,
  cacher: Cacher<CachedObject>,
  ctx: RequestContext,
  name: string,
  resourceVersion: string,
  keys?: LastKey,
): EncodedObject | undefined | Promise<EncodedObject | undefined> {
  if (rc.codec.async) return undefined;
  if (cacher.ready && (resourceVersion === '0' || parseResourceVersion(resourceVersion) === 0n)) {
    let object: CachedObject | undefined;
    try {
      const key = keys ? keys.of(rc, ctx.namespace, name) : keyFor(rc, ctx.namespace, name);
      object = cacher.peek(key) as CachedObject | undefined;
    } catch (e) {
      throw cacherErrorToStatus(rc, e);
    }
    if (!object) throw apiErrors.notFound(rc.gr, name);
    return object;
  }
  return cachedObject(rc, cacher, ctx, name, resourceVersion);
}

async function cachedObject(
  rc: RegistryContext,
  cacher: Cacher<CachedObject>,
  ctx: RequestContext,
  name: string,
  resourceVersion: string,
): Promise<CachedObject> {
  const revision = parseResourceVersion(resourceVersion);
  let object: CachedObject | undefined;
  try {
    ({ object } = (await cacher.get(keyFor(rc, ctx.namespace, name), {
      minRevision: revision === 0n ? undefined : revision,
      // Only a read that may wait needs the request's signal; creating it costs more than the read.
      signal: revision === 0n ? undefined : ctx.signal,
    })) as { object: CachedObject | undefined });
  } catch (e) {
    throw cacherErrorToStatus(rc, e);
  }
  if (!object) throw apiErrors.notFound(rc.gr, name);
  return object;
}
