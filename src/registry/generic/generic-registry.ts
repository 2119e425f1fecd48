import type { ApiObject } from '../../apis/object.js';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  ObjectList,
  RequestContext,
  ResourceStore,
  UpdatedObject,
  UpdateOptions,
  WatchOptions,
  WatchStream,
} from '../types.js';
import { createObject } from './create.js';
import { deleteObject } from './delete.js';
import { getObject, listObjects } from './read.js';
import type { RegistryContext } from './registry-context.js';
import { updateObject } from './update.js';
import { watchObjects } from './watch.js';

/** The generic registry of one resource: each verb lives in its own module. */
export class GenericRegistry implements ResourceStore {
  constructor(readonly rc: RegistryContext) {}

  create(ctx: RequestContext, obj: ApiObject, o: CreateOptions): Promise<ApiObject> {
    return createObject(this.rc, ctx, obj, o);
  }
  get(ctx: RequestContext, name: string, o: GetOptions): Promise<ApiObject> {
    return getObject(this.rc, ctx, name, o);
  }
  list(ctx: RequestContext, o: ListOptions): Promise<ObjectList> {
    return listObjects(this.rc, ctx, o);
  }
  update(
    ctx: RequestContext,
    name: string,
    next: UpdatedObject,
    o: UpdateOptions,
  ): Promise<{ obj: ApiObject; created: boolean }> {
    return updateObject(this.rc, ctx, name, next, o);
  }
  delete(ctx: RequestContext, name: string, o: DeleteOptions): Promise<{ obj: ApiObject; deleted: boolean }> {
    return deleteObject(this.rc, ctx, name, o);
  }
  watch(ctx: RequestContext, o: WatchOptions): Promise<WatchStream> {
    return watchObjects(this.rc, ctx, o);
  }
  async deleteCollection(ctx: RequestContext, o: DeleteOptions, listOptions: ListOptions): Promise<ObjectList> {
    const list = await this.list(ctx, listOptions);
    const deleted: ApiObject[] = [];
    for (const item of list.items) {
      const itemCtx = { ...ctx, namespace: item.metadata.namespace ?? '' };
      try {
        deleted.push((await this.delete(itemCtx, item.metadata.name ?? '', o)).obj);
      } catch (e) {
        // An object deleted concurrently is simply gone already.
        if ((e as { code?: number }).code !== 404) throw e;
      }
    }
    return { items: deleted, resourceVersion: list.resourceVersion };
  }
}
