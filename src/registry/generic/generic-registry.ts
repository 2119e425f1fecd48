import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { Schema } from '../../apis/schema/schema.js';
import type {
  CreatedObject,
  CreateOptions,
  DeleteOptions,
  EncodedObject,
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
import { getEncodedFromCache, getFromCache, listFromCache } from './cached-read.js';
import { watchFromCache } from './cached-watch.js';
import { createSubresourceObject } from './computed-create.js';
import { createObject, createObjectWithJson } from './create.js';
import { deleteObject } from './delete.js';
import { deleteCollection } from './delete-collection.js';
import { collectionDeleteOptions } from './delete-options.js';
import { deleteWithFinalization } from './delete-with-finalization.js';
import { selectionPredicate } from './predicate.js';
import { getObject, listObjects } from './read.js';
import { LastKey, type RegistryContext } from './registry-context.js';
import { convertOneFromStorage } from './stored-conversion.js';
import { updateObject } from './update.js';
import { watchObjects } from './watch.js';

/** The generic registry of one resource: each verb lives in its own module. */
export class GenericRegistry implements ResourceStore {
  /** The key of the object the last cached GET read. */
  private readonly lastKey = new LastKey();

  constructor(readonly rc: RegistryContext) {}

  create(ctx: RequestContext, obj: ApiObject, o: CreateOptions): Promise<ApiObject> {
    return createObject(this.rc, ctx, obj, o);
  }
  createWithJson(ctx: RequestContext, obj: ApiObject, o: CreateOptions): Promise<CreatedObject> {
    return createObjectWithJson(this.rc, ctx, obj, o);
  }
  get createDefaultsSchema(): Schema | undefined {
    return this.rc.def.strategy.defaultsSchema;
  }
  get createDefaultsQuantities(): boolean {
    return !!this.rc.def.strategy.defaultsQuantities;
  }
  createSubresource(
    ctx: RequestContext,
    name: string,
    subresource: string,
    body: ApiObject,
    o: CreateOptions,
  ): Promise<ApiObject> {
    return createSubresourceObject(this.rc, ctx, name, subresource, body, o);
  }
  get(ctx: RequestContext, name: string, o: GetOptions): Promise<ApiObject> {
    // resourceVersion unset reads the store (most recent); `0` or a value reads the watch cache.
    if (this.rc.cacher && o.resourceVersion) return getFromCache(this.rc, this.rc.cacher, ctx, name, o.resourceVersion);
    return getObject(this.rc, ctx, name, o);
  }
  getEncoded(
    ctx: RequestContext,
    name: string,
    o: GetOptions,
  ): EncodedObject | undefined | Promise<EncodedObject | undefined> {
    if (!this.rc.cacher || !o.resourceVersion) return undefined;
    return getEncodedFromCache(this.rc, this.rc.cacher, ctx, name, o.resourceVersion, this.lastKey);
  }
  async list(ctx: RequestContext, o: ListOptions): Promise<ObjectList> {
    if (this.rc.cacher) {
      const list = await listFromCache(this.rc, this.rc.cacher, ctx, o);
      if (list) return list;
    }
    // No cache, or the cache holds a corrupt object: the store reports it as kube does.
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
    const refusal = this.rc.def.strategy.refuseDelete?.(name);
    if (refusal) return Promise.reject(apiErrors.forbidden(this.rc.gr, name, refusal));
    if (this.rc.codec.async) return this.deleteConverted(ctx, name, o);
    return this.deleteStored(ctx, name, o);
  }
  /**
   * [conversion] A webhook-converted resource deletes the stored object as it is stored and
   * shows the result in the request's version (a failed conversion answers 500 after the delete,
   * as kube's response encoding does).
   */
  private async deleteConverted(
    ctx: RequestContext,
    name: string,
    o: DeleteOptions,
  ): Promise<{ obj: ApiObject; deleted: boolean }> {
    const r = await this.deleteStored(ctx, name, o);
    return { obj: await convertOneFromStorage(this.rc, r.obj, ctx.signal), deleted: r.deleted };
  }
  private deleteStored(
    ctx: RequestContext,
    name: string,
    o: DeleteOptions,
  ): Promise<{ obj: ApiObject; deleted: boolean }> {
    const finalization = this.rc.def.strategy.controllerFinalization;
    if (finalization) return deleteWithFinalization(this.rc, ctx, name, o, finalization);
    return deleteObject(this.rc, ctx, name, o);
  }
  watch(ctx: RequestContext, o: WatchOptions): Promise<WatchStream> {
    // [conversion] The cache holds stored objects of a webhook-converted resource; a selected
    // watch selects on objects in this version, which the store's watch converts first.
    const selectsConverted = this.rc.codec.async !== undefined && !selectionPredicate(this.rc.def, o).everything;
    if (this.rc.cacher && !selectsConverted) return watchFromCache(this.rc, this.rc.cacher, ctx, o);
    return watchObjects(this.rc, ctx, o);
  }
  async deleteCollection(ctx: RequestContext, o: DeleteOptions, listOptions: ListOptions): Promise<ObjectList> {
    // Resources without the verb (namespaces) refuse it, as kube's routes do.
    if (!this.rc.def.verbs.includes('deletecollection')) throw apiErrors.methodNotAllowed('DELETE');
    const options = collectionDeleteOptions(
      o,
      this.rc.allowUnsafeMalformedObjectDeletion === true,
      this.rc.domain.metaGroup,
    );
    const deps = { list: this.list.bind(this), delete: this.deleteStored.bind(this) };
    return deleteCollection(deps, ctx, options, listOptions);
  }
}
