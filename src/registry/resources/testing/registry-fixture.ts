import { randomUUID } from 'node:crypto';
import { builtinResources } from '../../../apis/builtin.js';
import type { ApiObject } from '../../../apis/object.js';
import type { ResourceDefinition } from '../../../apis/resource-definition.js';
import { keyScheme } from '../../../storage/keys.js';
import { MemoryStore } from '../../../storage/memory/memory-store.js';
import { type Clock, systemClock } from '../../../util/clock.js';
import type { GenericRegistry } from '../../generic/generic-registry.js';
import type { RegistryContext } from '../../generic/registry-context.js';
import type { RequestContext } from '../../types.js';
import { createRegistry } from '../index.js';

export interface RegistryFixture {
  readonly store: MemoryStore;
  readonly defs: readonly ResourceDefinition[];
  /** The registry of a resource by name (`configmaps`, `namespaces`, `leases`, ...). */
  registry(resource: string): GenericRegistry;
  /** A request context in `namespace` ('' for cluster-scoped). */
  ctx(namespace?: string): RequestContext;
  /** Creates a namespace (Active, with the `orch` finalizer). */
  createNamespace(name: string): Promise<ApiObject>;
}

/**
 * The built-in registries over a fresh in-memory store, wired as the server wires them (namespace
 * lookups for creates, the namespace registry's lifecycle). For tests of the registry and of
 * the controllers without an HTTP server.
 */
export function registryFixture(
  opts: { allowUnsafeMalformedObjectDeletion?: boolean; clock?: Clock } = {},
): RegistryFixture {
  const store = new MemoryStore();
  const keys = keyScheme('/registry');
  const defs = builtinResources();
  const byResource = new Map<string, GenericRegistry>();
  const signal = new AbortController().signal;
  const namespaceLookup = async (name: string, s: AbortSignal): Promise<ApiObject | undefined> => {
    try {
      return await byResource.get('namespaces')!.get({ namespace: '', signal: s }, name, {});
    } catch (e) {
      if ((e as { code?: number }).code === 404) return undefined;
      throw e;
    }
  };
  for (const def of defs) {
    const rc: RegistryContext = {
      def,
      gr: { group: def.group, resource: def.resource },
      store,
      keys,
      clock: opts.clock ?? systemClock,
      uid: randomUUID,
      namespaceLookup: def.namespaced ? namespaceLookup : undefined,
      allowUnsafeMalformedObjectDeletion: opts.allowUnsafeMalformedObjectDeletion,
    };
    byResource.set(def.resource, createRegistry(rc));
  }
  const ctx = (namespace = ''): RequestContext => ({ namespace, signal });
  return {
    store,
    defs,
    registry(resource) {
      const r = byResource.get(resource);
      if (!r) throw new Error(`no registry for ${resource}`);
      return r;
    },
    ctx,
    createNamespace: (name) =>
      byResource
        .get('namespaces')!
        .create(ctx(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { dryRun: false }),
  };
}
