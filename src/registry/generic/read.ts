import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { CompactedError } from '../../storage/errors.js';
import type { GetOptions, ListOptions, ObjectList, RequestContext } from '../types.js';
import { encodeContinue, listSemantics, parseResourceVersion } from './read-semantics.js';
import { collectionPrefix, keyFor, type RegistryContext } from './registry-context.js';
import { toStatusError } from './storage-errors.js';
import { decodeStored } from './stored-object.js';

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
    return decodeStored(kv);
  } catch (e) {
    throw toStatusError(e, rc.gr, name);
  }
}

const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/**
 * A list read from the store per the spec's resourceVersion semantics: a snapshot at one
 * revision, in key order, paged with `limit` and `continue` (every page at the first page's
 * revision).
 */
export async function listObjects(rc: RegistryContext, ctx: RequestContext, o: ListOptions): Promise<ObjectList> {
  const prefix = collectionPrefix(rc, ctx.namespace);
  const sem = listSemantics(o);
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
    const r = await rc.store.range(prefix, { revision, startAfter, limit: o.limit, signal: ctx.signal });
    const items = r.kvs.map(decodeStored);
    const list: { items: ApiObject[]; resourceVersion: string; continue?: string; remainingItemCount?: number } = {
      items,
      resourceVersion: r.revision.toString(),
    };
    if (r.more && r.kvs.length > 0) {
      const last = r.kvs[r.kvs.length - 1].key.slice(prefix.length);
      list.continue = encodeContinue({ rv: r.revision.toString(), start: last });
      list.remainingItemCount = r.remaining;
    }
    return list;
  } catch (e) {
    if (e instanceof CompactedError && sem.kind === 'continue') {
      throw new StatusError(410, 'Expired', EXPIRED_CONTINUE);
    }
    if (e instanceof CompactedError) {
      throw new StatusError(
        410,
        'Expired',
        `too old resource version: ${e.requestedRevision} (${e.compactedRevision + 1n})`,
      );
    }
    throw toStatusError(e, rc.gr, '');
  }
}
