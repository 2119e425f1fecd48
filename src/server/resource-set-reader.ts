import type { ApiObject } from '../apis/object.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import type { ObjectReader } from '../authn/object-reader.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';

/**
 * Reads objects for authenticators from the watch caches of the served resources (as
 * kube-apiserver's authenticators read informer caches): `resourceVersion=0`, so a read never waits
 * on the store; with `consistent`, reads are current (a TokenRequest must see a service account
 * created just before it). `resources` is bound late because the authenticators are built before the set.
 */
export function resourceSetReader(
  resources: () => ResourceSet | undefined,
  options: { readonly consistent?: boolean } = {},
): ObjectReader {
  const getOptions = options.consistent ? {} : { resourceVersion: '0' };
  return {
    async get(ref, namespace, name, signal): Promise<ApiObject | undefined> {
      const served = resources()?.lookup(ref.group, ref.version, ref.resource);
      if (!served) return undefined;
      const ctx = internalRequestContext({
        user: API_SERVER_USER,
        signal,
        verb: 'get',
        group: ref.group,
        version: ref.version,
        resource: ref.resource,
        namespace: namespace || undefined,
        name,
      });
      try {
        return (await served.store.get(ctx, name, getOptions)) as ApiObject;
      } catch (e) {
        if ((e as { code?: number }).code === 404) return undefined;
        throw e;
      }
    },
  };
}
