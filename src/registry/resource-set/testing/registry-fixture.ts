import { randomUUID } from 'node:crypto';
import { BUILTIN_ADMISSION_PLUGINS, buildAdmission } from '../../../admission/index.js';
import { ORCH_DOMAIN } from '../../../apis/api-domain.js';
import { builtinResources } from '../../../apis/builtin.js';
import type { ApiObject } from '../../../apis/object.js';
import { internalRequestContext } from '../../../apis/request/request-context.js';
import type { UserInfo } from '../../../apis/request/user-info.js';
import type { ResourceDefinition } from '../../../apis/resource-definition.js';
import { keyScheme } from '../../../storage/keys.js';
import { MemoryStore } from '../../../storage/memory/memory-store.js';
import { type Clock, systemClock } from '../../../util/clock.js';
import type { RequestContext, ResourceStore } from '../../types.js';
import { resourceFactory } from '../resource-factory.js';
import { ResourceSet } from '../resource-set.js';

export interface RegistryFixture {
  readonly store: MemoryStore;
  readonly defs: readonly ResourceDefinition[];
  /** The served resources, wired as the server wires them (admission included). */
  readonly resources: ResourceSet;
  /** The registry of a resource by name (`configmaps`, `namespaces`, `leases`, ...). */
  registry(resource: string): ResourceStore;
  /** A request context in `namespace` ('' for cluster-scoped), as an administrator. */
  ctx(namespace?: string): RequestContext;
  /** Creates a namespace (Active, with the `orch` finalizer). */
  createNamespace(name: string): Promise<ApiObject>;
}

const ADMIN: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };

/**
 * The built-in registries over a fresh in-memory store, built by the resource factory as the
 * server builds them (NamespaceLifecycle admission, field tracking), without watch caches unless asked. For
 * tests of the registry and of the controllers without an HTTP server.
 */
export async function registryFixture(
  opts: {
    allowUnsafeMalformedObjectDeletion?: boolean;
    clock?: Clock;
    coordinatedLeaderElection?: boolean;
    /** Serve reads and watches from watch caches, as the server does (default false). */
    watchCache?: boolean;
    /** Stops the registries' background work (the watch caches) when it aborts. */
    signal?: AbortSignal;
  } = {},
): Promise<RegistryFixture> {
  const store = new MemoryStore();
  const defs = builtinResources({ coordinatedLeaderElection: opts.coordinatedLeaderElection });
  const signal = opts.signal ?? new AbortController().signal;
  const ctx = (namespace = ''): RequestContext =>
    internalRequestContext({ user: ADMIN, signal, verb: '', group: '', version: 'v1', resource: '', namespace });
  let resources: ResourceSet | undefined;
  const namespaceLookup = async (name: string, s: AbortSignal): Promise<ApiObject | undefined> => {
    try {
      return await resources!.lookup('', 'v1', 'namespaces')!.store.get({ ...ctx(), signal: s }, name, {});
    } catch (e) {
      if ((e as { code?: number }).code === 404) return undefined;
      throw e;
    }
  };
  const admission = buildAdmission(
    BUILTIN_ADMISSION_PLUGINS,
    {},
    {
      namespaceLookup,
      immortalNamespaces: ['default', 'orch-system', 'orch-public'],
    },
  );
  resources = new ResourceSet(
    resourceFactory({
      store,
      keys: keyScheme('/registry'),
      clock: opts.clock ?? systemClock,
      uid: randomUUID,
      admission,
      domain: ORCH_DOMAIN,
      watchCache: opts.watchCache ?? false,
      allowUnsafeMalformedObjectDeletion: opts.allowUnsafeMalformedObjectDeletion,
    }),
    signal,
  );
  for (const def of defs) await resources.add(def);
  const set = resources;
  const registry = (resource: string): ResourceStore => {
    const r = set.all().find((s) => s.def.resource === resource);
    if (!r) throw new Error(`no registry for ${resource}`);
    return r.store;
  };
  return {
    store,
    defs,
    resources: set,
    registry,
    ctx,
    createNamespace: (name) =>
      registry('namespaces').create(
        ctx(),
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        // As an HTTP client's create would: its owner is recorded in managedFields.
        { dryRun: false, fieldManager: 'test' },
      ),
  };
}
