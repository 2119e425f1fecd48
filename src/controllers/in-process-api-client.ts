import { apiErrors } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import type { Authorizer } from '../authz/index.js';
import type {
  ApiClient,
  ApiResource,
  ApiResourceChange,
  ClientDeleteOptions,
  ClientListOptions,
  ClientObjectList,
  ClientPatchType,
  ClientWatch,
  ClientWatchOptions,
  ResourceClient,
} from '../client/api/api-client.js';
import { JsonPatchError, StrategicMergePatchError } from '../patch/errors.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { patchErrorToStatusError } from '../patch/patch-status.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge.js';
import type { ResourceSet, ServedResource } from '../registry/resource-set/index.js';
import { ControllerClient, type ControllerIdentity } from './controller-client.js';

/** The client's view of a served resource. */
export function apiResourceOf(served: ServedResource): ApiResource {
  const d = served.def;
  return {
    group: d.group,
    version: d.version,
    resource: d.resource,
    kind: d.kind,
    namespaced: d.namespaced,
    verbs: d.verbs,
    subresources: d.subresources.map((s) => s.name),
  };
}

function patched(served: ServedResource, live: ApiObject, type: ClientPatchType, patch: unknown): ApiObject {
  try {
    switch (type) {
      case 'json':
        return applyJsonPatch(live, patch) as ApiObject;
      case 'merge':
        return applyMergePatch(live, patch) as ApiObject;
      default:
        return applyStrategicMergePatch(live, patch, served.def.schema) as ApiObject;
    }
  } catch (e) {
    if (e instanceof JsonPatchError || e instanceof StrategicMergePatchError) throw patchErrorToStatusError(e);
    throw e;
  }
}

/** {@link ResourceClient} over one served resource's registry, as one controller identity. */
class InProcessResourceClient implements ResourceClient {
  readonly resource: ApiResource;

  constructor(
    private readonly served: ServedResource,
    private readonly client: ControllerClient,
  ) {
    this.resource = apiResourceOf(served);
  }

  get(namespace: string, name: string, signal: AbortSignal): Promise<ApiObject> {
    return this.client.get(this.served, { namespace, name }, signal);
  }

  list(namespace: string, o: ClientListOptions, signal: AbortSignal): Promise<ClientObjectList> {
    return this.client.list(this.served, namespace, o, signal);
  }

  async watch(namespace: string, o: ClientWatchOptions, signal: AbortSignal): Promise<ClientWatch> {
    return this.client.watch(this.served, namespace, o, signal);
  }

  async create(
    namespace: string,
    obj: ApiObject,
    signal: AbortSignal,
    o: { readonly subresource?: string; readonly name?: string } = {},
  ): Promise<ApiObject> {
    if (o.subresource) {
      const t = { namespace, name: o.name ?? '', subresource: o.subresource };
      return this.client.createSubresource(this.served, t, obj, signal);
    }
    return this.client.create(this.served, namespace, obj, signal);
  }

  update(obj: ApiObject, signal: AbortSignal, o: { readonly subresource?: string } = {}): Promise<ApiObject> {
    const namespace = obj.metadata.namespace ?? '';
    const name = obj.metadata.name ?? '';
    return this.client.update(
      this.served,
      { namespace, name, subresource: o.subresource },
      { retryOnConflict: false, compute: () => structuredClone(obj) },
      signal,
    );
  }

  patch(
    namespace: string,
    name: string,
    type: ClientPatchType,
    patch: unknown,
    signal: AbortSignal,
    o: { readonly subresource?: string } = {},
  ): Promise<ApiObject> {
    const served = this.served;
    const gr = this.resource;
    return this.client.update(
      served,
      { namespace, name, subresource: o.subresource },
      {
        retryOnConflict: true,
        compute(live) {
          if (!live) throw apiErrors.notFound(gr, name);
          return patched(served, live, type, patch);
        },
      },
      signal,
    );
  }

  apply(
    namespace: string,
    name: string,
    config: ApiObject,
    signal: AbortSignal,
    o: { readonly force: boolean; readonly subresource?: string },
  ): Promise<ApiObject> {
    return this.client.apply(this.served, { namespace, name, subresource: o.subresource }, config, {
      force: o.force,
      signal,
      expect: () => {},
      createIfMissing: true,
    });
  }

  async delete(namespace: string, name: string, o: ClientDeleteOptions, signal: AbortSignal): Promise<void> {
    await this.client.delete(this.served, { namespace, name }, o, signal);
  }

  async deleteCollection(
    namespace: string,
    o: ClientDeleteOptions & Pick<ClientListOptions, 'labelSelector' | 'fieldSelector'>,
    signal: AbortSignal,
  ): Promise<void> {
    const { labelSelector, fieldSelector, ...options } = o;
    await this.client.deleteCollection(this.served, namespace, options, signal, { labelSelector, fieldSelector });
  }
}

/**
 * The {@link ResourceClient} of one served resource through `client` (its identity and
 * authorizer): for the server's own informers over a single resource.
 */
export function inProcessResourceClient(served: ServedResource, client: ControllerClient): ResourceClient {
  return new InProcessResourceClient(served, client);
}

/**
 * {@link ApiClient} over the server's resource set, as one identity: every request passes the
 * server's authorizer as that identity (a refusal is the HTTP filter's 403) and goes through the
 * resource's registry (field manager, admission, strategy), exactly as an HTTP request would.
 */
export class InProcessApiClient implements ApiClient {
  readonly fieldManager: string;
  private readonly client: ControllerClient;
  private readonly clients = new WeakMap<ServedResource, InProcessResourceClient>();

  constructor(
    private readonly resourceSet: ResourceSet,
    identity: ControllerIdentity,
    authorizer: Authorizer,
  ) {
    this.client = new ControllerClient(identity, authorizer);
    this.fieldManager = identity.manager;
  }

  private of(served: ServedResource | undefined): ResourceClient | undefined {
    if (!served) return undefined;
    let c = this.clients.get(served);
    if (!c) {
      c = new InProcessResourceClient(served, this.client);
      this.clients.set(served, c);
    }
    return c;
  }

  resource(group: string, version: string, resource: string): ResourceClient | undefined {
    return this.of(this.resourceSet.lookup(group, version, resource));
  }

  preferred(group: string, resource: string): ResourceClient | undefined {
    for (const version of this.resourceSet.versionsOf(group)) {
      const served = this.resourceSet.lookup(group, version, resource);
      if (served) return this.of(served);
    }
    return undefined;
  }

  forKind(group: string, kind: string): ResourceClient | undefined {
    for (const version of this.resourceSet.versionsOf(group)) {
      const served = this.resourceSet.inGroupVersion(group, version).find((r) => r.def.kind === kind);
      if (served) return this.of(served);
    }
    return undefined;
  }

  resources(): readonly ApiResource[] {
    return this.resourceSet.all().map(apiResourceOf);
  }

  subscribe(listener: (change: ApiResourceChange) => void): () => void {
    return this.resourceSet.subscribe((change) =>
      listener({ type: change.type, resource: apiResourceOf(change.resource) }),
    );
  }
}
