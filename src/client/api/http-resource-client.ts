import { setMaxListeners } from 'node:events';
import type { ApiObject } from '../../apis/object.js';
import { type Query, type RestClient, resourceUrlPath } from '../rest/rest-client.js';
import type {
  ApiResource,
  ClientDeleteOptions,
  ClientListOptions,
  ClientObjectList,
  ClientPatchType,
  ClientWatch,
  ClientWatchOptions,
  ResourceClient,
} from './api-client.js';
import { JsonWatch } from './json-watch.js';

/** The media type of each patch type. */
export const PATCH_CONTENT_TYPES: Readonly<Record<ClientPatchType, string>> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

/** Server-side apply's media type (the body is JSON, which is YAML). */
export const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';

function listQuery(o: ClientListOptions): Query {
  return {
    labelSelector: o.labelSelector || undefined,
    fieldSelector: o.fieldSelector || undefined,
    resourceVersion: o.resourceVersion || undefined,
    resourceVersionMatch: o.resourceVersionMatch || undefined,
    limit: o.limit,
    continue: o.continue || undefined,
  };
}

function deleteOptionsBody(o: ClientDeleteOptions): object {
  return {
    kind: 'DeleteOptions',
    apiVersion: 'v1',
    ...(o.preconditions ? { preconditions: o.preconditions } : {}),
    ...(o.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: o.gracePeriodSeconds } : {}),
    ...(o.propagationPolicy ? { propagationPolicy: o.propagationPolicy } : {}),
  };
}

/**
 * {@link ResourceClient} of one resource over HTTPS. Writes carry `fieldManager=<manager>`; list
 * items and watch objects get `apiVersion`/`kind` when the server left them out (as it does in
 * typed lists), so cached objects look the same in process and over HTTP.
 */
export class HttpResourceClient implements ResourceClient {
  private readonly apiVersion: string;

  constructor(
    readonly resource: ApiResource,
    private readonly rest: RestClient,
    private readonly fieldManager: string,
  ) {
    this.apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version;
  }

  private path(namespace: string, name?: string, subresource?: string): string {
    const r = this.resource;
    const base = resourceUrlPath({
      group: r.group,
      version: r.version,
      resource: r.resource,
      namespace: r.namespaced && namespace ? namespace : undefined,
      name: name || undefined,
    });
    return subresource ? `${base}/${encodeURIComponent(subresource)}` : base;
  }

  private readonly fill = (obj: ApiObject): ApiObject => {
    if (obj.apiVersion && obj.kind) return obj;
    return { ...obj, apiVersion: obj.apiVersion || this.apiVersion, kind: obj.kind || this.resource.kind };
  };

  get(namespace: string, name: string, signal: AbortSignal): Promise<ApiObject> {
    return this.rest.call<ApiObject>({ method: 'GET', path: this.path(namespace, name) }, signal);
  }

  async list(namespace: string, o: ClientListOptions, signal: AbortSignal): Promise<ClientObjectList> {
    const list = await this.rest.call<{
      items?: ApiObject[];
      metadata?: { resourceVersion?: string; continue?: string };
    }>({ method: 'GET', path: this.path(namespace), query: listQuery(o) }, signal);
    return {
      items: (list.items ?? []).map(this.fill),
      resourceVersion: list.metadata?.resourceVersion ?? '',
      ...(list.metadata?.continue ? { continue: list.metadata.continue } : {}),
    };
  }

  async watch(namespace: string, o: ClientWatchOptions, signal: AbortSignal): Promise<ClientWatch> {
    const own = new AbortController();
    setMaxListeners(0, own.signal);
    const onAbort = () => own.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) own.abort();
    const query: Query = {
      ...listQuery(o),
      watch: 1,
      allowWatchBookmarks: o.allowWatchBookmarks || undefined,
      timeoutSeconds: o.timeoutSeconds,
    };
    try {
      const res = await this.rest.stream({ method: 'GET', path: this.path(namespace), query }, own.signal);
      res.once('close', () => signal.removeEventListener('abort', onAbort));
      return new JsonWatch(res, () => own.abort(), own.signal, this.fill);
    } catch (e) {
      signal.removeEventListener('abort', onAbort);
      throw e;
    }
  }

  create(
    namespace: string,
    obj: ApiObject,
    signal: AbortSignal,
    o: { readonly subresource?: string; readonly name?: string } = {},
  ): Promise<ApiObject> {
    const path = o.subresource ? this.path(namespace, o.name, o.subresource) : this.path(namespace);
    return this.rest.call<ApiObject>(
      { method: 'POST', path, body: obj, query: { fieldManager: this.fieldManager } },
      signal,
    );
  }

  update(obj: ApiObject, signal: AbortSignal, o: { readonly subresource?: string } = {}): Promise<ApiObject> {
    const path = this.path(obj.metadata.namespace ?? '', obj.metadata.name ?? '', o.subresource);
    return this.rest.call<ApiObject>(
      { method: 'PUT', path, body: obj, query: { fieldManager: this.fieldManager } },
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
    return this.rest.call<ApiObject>(
      {
        method: 'PATCH',
        path: this.path(namespace, name, o.subresource),
        body: JSON.stringify(patch),
        contentType: PATCH_CONTENT_TYPES[type],
        query: { fieldManager: this.fieldManager },
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
    return this.rest.call<ApiObject>(
      {
        method: 'PATCH',
        path: this.path(namespace, name, o.subresource),
        body: JSON.stringify(config),
        contentType: APPLY_CONTENT_TYPE,
        query: { fieldManager: this.fieldManager, force: o.force || undefined },
      },
      signal,
    );
  }

  async delete(namespace: string, name: string, o: ClientDeleteOptions, signal: AbortSignal): Promise<void> {
    await this.rest.call<unknown>(
      { method: 'DELETE', path: this.path(namespace, name), body: deleteOptionsBody(o) },
      signal,
    );
  }

  async deleteCollection(
    namespace: string,
    o: ClientDeleteOptions & Pick<ClientListOptions, 'labelSelector' | 'fieldSelector'>,
    signal: AbortSignal,
  ): Promise<void> {
    await this.rest.call<unknown>(
      {
        method: 'DELETE',
        path: this.path(namespace),
        body: deleteOptionsBody(o),
        query: { labelSelector: o.labelSelector || undefined, fieldSelector: o.fieldSelector || undefined },
      },
      signal,
    );
  }
}
