import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { CreateOptions, ObjectList, RequestContext, ResourceStore, UpdateOptions, WatchStream } from '../types.js';
import { createVirtualObject } from './computed-create.js';
import type { RegistryContext } from './registry-context.js';

function methodNotAllowed(verb: string): StatusError {
  return new StatusError(
    405,
    'MethodNotAllowed',
    `the server does not allow this method on the requested resource (${verb})`,
  );
}

/**
 * The registry of a resource that stores nothing (`ResourceDefinition.virtual`): create runs
 * admission and computes the answer; every other verb is 405, as kube-apiserver answers verbs a
 * resource does not route.
 */
export class VirtualRegistry implements ResourceStore {
  constructor(readonly rc: RegistryContext) {}

  create(ctx: RequestContext, obj: ApiObject, o: CreateOptions): Promise<ApiObject> {
    return createVirtualObject(this.rc, ctx, obj, o);
  }
  async get(): Promise<ApiObject> {
    throw methodNotAllowed('get');
  }
  async list(): Promise<ObjectList> {
    throw methodNotAllowed('list');
  }
  async update(_ctx: RequestContext, _name: string, _next: unknown, _o: UpdateOptions): Promise<never> {
    throw methodNotAllowed('update');
  }
  async delete(): Promise<never> {
    throw methodNotAllowed('delete');
  }
  async watch(): Promise<WatchStream> {
    throw methodNotAllowed('watch');
  }
  async deleteCollection(): Promise<ObjectList> {
    throw methodNotAllowed('deletecollection');
  }
  async createSubresource(): Promise<ApiObject> {
    throw methodNotAllowed('create');
  }
}
