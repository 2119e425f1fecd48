import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { GetOptions, ListOptions, ObjectList, RequestContext } from '../types.js';
import { collectionPrefix, keyFor, type RegistryContext } from './registry-context.js';
import { toStatusError } from './storage-errors.js';
import { decodeStored } from './stored-object.js';

/** Get one object at the latest revision. */
export async function getObject(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  _o: GetOptions,
): Promise<ApiObject> {
  try {
    const kv = await rc.store.get(keyFor(rc, ctx.namespace, name), { signal: ctx.signal });
    if (!kv) throw apiErrors.notFound(rc.gr, name);
    return decodeStored(kv);
  } catch (e) {
    throw toStatusError(e, rc.gr, name);
  }
}

interface ContinueToken {
  /** The revision of the first page: every page is read at it. */
  readonly rv: string;
  /** The key (relative to the collection prefix) of the last item returned. */
  readonly start: string;
}

export function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'orch.io/v1', ...t })).toString('base64url');
}

export function decodeContinue(token: string): ContinueToken {
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      v?: string;
      rv?: string;
      start?: string;
    };
    if (
      t.v !== 'orch.io/v1' ||
      typeof t.rv !== 'string' ||
      !/^[1-9][0-9]*$/.test(t.rv) ||
      typeof t.start !== 'string'
    ) {
      throw new Error('bad token');
    }
    return { rv: t.rv, start: t.start };
  } catch {
    throw apiErrors.badRequest(
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.orch.io/v1)',
    );
  }
}

/**
 * A list read straight from the store: a snapshot at one revision, in key order, paged with
 * `limit` and `continue` (every page is read at the first page's revision).
 */
export async function listObjects(rc: RegistryContext, ctx: RequestContext, o: ListOptions): Promise<ObjectList> {
  const prefix = collectionPrefix(rc, ctx.namespace);
  let revision: bigint | undefined;
  let startAfter: string | undefined;
  if (o.continue) {
    const t = decodeContinue(o.continue);
    revision = BigInt(t.rv);
    startAfter = prefix + t.start;
  }
  try {
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
    throw toStatusError(e, rc.gr, '');
  }
}
