import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { apiVersionOf } from '../../apis/resource-definition.js';
import type { RequestContext } from '../types.js';
import type { RegistryContext } from './registry-context.js';

/**
 * The body must be of the endpoint's kind, and its namespace must agree with the path (an
 * empty namespace in the body takes the path's).
 */
export function checkObjectIdentity(rc: RegistryContext, ctx: RequestContext, obj: ApiObject): void {
  const expected = apiVersionOf(rc.def);
  if (obj.apiVersion !== undefined && obj.apiVersion !== '' && obj.apiVersion !== expected) {
    throw apiErrors.badRequest(
      `the API version in the data (${obj.apiVersion}) does not match the expected API version (${expected})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== rc.def.kind) {
    throw apiErrors.badRequest(`the kind in the data (${obj.kind}) does not match the expected kind (${rc.def.kind})`);
  }
  if (typeof obj.metadata !== 'object' || obj.metadata === null || Array.isArray(obj.metadata)) {
    obj.metadata = {};
  }
  const meta = obj.metadata;
  if (rc.def.namespaced) {
    if (!meta.namespace) meta.namespace = ctx.namespace;
    else if (ctx.namespace && meta.namespace !== ctx.namespace) {
      throw apiErrors.badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
  } else if (meta.namespace) {
    // kube silently clears the namespace of cluster-scoped objects.
    delete meta.namespace;
  }
}

/** The name in the body must agree with the name in the path (PUT, apply). */
export function checkNameMatchesPath(obj: ApiObject, name: string): void {
  if (obj.metadata.name && obj.metadata.name !== name) {
    throw apiErrors.badRequest(
      `the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`,
    );
  }
  obj.metadata.name = name;
}
