import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { DeleteOptions, ListOptions, ObjectList, RequestContext } from '../types.js';

// kube's deleteCollectionPageSize.
const PAGE_SIZE = 10_000;

export interface DeleteCollectionDeps {
  list(ctx: RequestContext, o: ListOptions): Promise<ObjectList>;
  delete(ctx: RequestContext, name: string, o: DeleteOptions): Promise<{ obj: ApiObject; deleted: boolean }>;
}

/**
 * kube's `DeleteCollection`: lists the selected objects page by page (one page only when the
 * client set `limit`) and deletes each with the same options, each in its own namespace. Not
 * atomic: the first failure other than 404 (already gone) stops it. Returns the objects as they
 * were listed (so finalizers still pending show as they were), at the first page's revision.
 */
export async function deleteCollection(
  deps: DeleteCollectionDeps,
  ctx: RequestContext,
  o: DeleteOptions,
  listOptions: ListOptions,
): Promise<ObjectList> {
  const items: ApiObject[] = [];
  let first: ObjectList | undefined;
  let opts: ListOptions = listOptions.limit ? listOptions : { ...listOptions, limit: PAGE_SIZE };
  for (;;) {
    ctx.signal.throwIfAborted();
    const page = await deps.list(ctx, opts);
    first ??= page;
    for (const item of page.items) {
      items.push(item);
      const itemCtx: RequestContext = { ...ctx, namespace: item.metadata.namespace ?? '' };
      try {
        await deps.delete(itemCtx, item.metadata.name ?? '', o);
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 404)) throw e;
      }
    }
    if (listOptions.limit) return { ...page, items };
    if (!page.continue) return { items, resourceVersion: first.resourceVersion };
    opts = { ...opts, continue: page.continue, resourceVersion: undefined, resourceVersionMatch: undefined };
  }
}
