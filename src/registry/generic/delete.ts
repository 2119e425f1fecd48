import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { ConflictError, NotFoundError } from '../../storage/errors.js';
import type { KeyValue } from '../../storage/store.js';
import { formatTime } from '../../util/clock.js';
import type { DeleteOptions, RequestContext } from '../types.js';
import { keyFor, type RegistryContext } from './registry-context.js';
import { toStatusError } from './storage-errors.js';
import { decodeStored, encodeStored } from './stored-object.js';

const MAX_ATTEMPTS = 16;

/**
 * Delete in two phases: an object with finalizers gets `deletionTimestamp` (once) and stays
 * until its last finalizer is removed; one without is removed from the store. Preconditions
 * (uid, resourceVersion) are checked against the live object; a conflict with a concurrent
 * writer re-reads and re-checks.
 */
export async function deleteObject(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  o: DeleteOptions,
): Promise<{ obj: ApiObject; deleted: boolean }> {
  const key = keyFor(rc, ctx.namespace, name);
  let kv: KeyValue | undefined;
  try {
    kv = await rc.store.get(key, { signal: ctx.signal });
  } catch (e) {
    throw toStatusError(e, rc.gr, name);
  }
  for (let attempt = 1; ; attempt++) {
    if (!kv) throw apiErrors.notFound(rc.gr, name);
    const live = decodeStored(kv);
    checkPreconditions(rc, live, o);
    try {
      const finalizers = live.metadata.finalizers ?? [];
      if (finalizers.length > 0) {
        if (live.metadata.deletionTimestamp) return { obj: live, deleted: false };
        const marked = structuredClone(live);
        marked.metadata.deletionTimestamp = formatTime(rc.clock.now());
        marked.metadata.deletionGracePeriodSeconds = o.gracePeriodSeconds ?? 0;
        if (o.dryRun) return { obj: marked, deleted: false };
        const { revision } = await rc.store.update(key, encodeStored(marked), kv.modRevision, ctx.signal);
        marked.metadata.resourceVersion = revision.toString();
        return { obj: marked, deleted: false };
      }
      if (o.dryRun) return { obj: live, deleted: true };
      await rc.store.delete(key, kv.modRevision, ctx.signal);
      return { obj: live, deleted: true };
    } catch (e) {
      if (e instanceof ConflictError && attempt < MAX_ATTEMPTS) {
        kv = e.current;
        continue;
      }
      if (e instanceof NotFoundError) throw apiErrors.notFound(rc.gr, name);
      throw toStatusError(e, rc.gr, name);
    }
  }
}

function checkPreconditions(rc: RegistryContext, live: ApiObject, o: DeleteOptions): void {
  const p = o.preconditions;
  if (!p) return;
  const name = live.metadata.name ?? '';
  if (p.uid !== undefined && p.uid !== live.metadata.uid) {
    throw apiErrors.conflict(
      rc.gr,
      name,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${live.metadata.uid}`,
    );
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== live.metadata.resourceVersion) {
    throw apiErrors.conflict(
      rc.gr,
      name,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${live.metadata.resourceVersion}`,
    );
  }
}
