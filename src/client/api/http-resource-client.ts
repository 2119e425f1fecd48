import { setMaxListeners } from 'node:events';
import type { ApiObject } from '../../apis/object.js';
import { type Query, type RestClient, type RestRequest, resourceUrlPath } from '../rest/rest-client.js';
import type { ContentTypes } from '../wire/content-types.js';
import type { WatchEventDecoder } from '../wire/watch-decoders.js';
import type { WireCodecs } from '../wire/wire-codecs.js';
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
import { StreamWatch } from './stream-watch.js';

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

/** The wire formats of one resource's requests, and the codecs that write and read them. */
export interface ResourceWire {
  readonly codecs: WireCodecs;
  readonly types: ContentTypes;
}

/**
 * {@link ResourceClient} of one resource over HTTPS. Writes carry `fieldManager=<manager>`; list
 * items and watch objects get `apiVersion`/`kind` when the server left them out (as it does in
 * typed lists), so cached objects look the same in process and over HTTP. Object bodies are
 * written in the resource's content type (`wire`; JSON for a kind without Protobuf form), every
 * request asks for its `Accept` list, and responses are read by their `Content-Type`. Patches
 * and apply configurations are always sent as JSON with their patch media type, as kube requires.
 */
export class HttpResourceClient implements ResourceClient {
  private readonly apiVersion: string;

  constructor(
    readonly resource: ApiResource,
    private readonly rest: RestClient,
    private readonly fieldManager: string,
    private readonly wire: ResourceWire,
  ) {
    this.apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version;
  }

  /** `r` with the resource's `Accept`. */
  private req(r: RestRequest): RestRequest {
    return { ...r, accept: this.wire.types.accept };
  }

  /**
   * An object body in the resource's content type. Protobuf needs the body's kind to be built
   * in (a sub-resource's kind may not be): otherwise, and for JSON, it is sent as JSON.
   */
  private body(obj: ApiObject, subresource: string | undefined): Pick<RestRequest, 'body' | 'contentType'> {
    const { bodyFormat, contentType } = this.wire.types;
    const typed = subresource ? obj : this.fill(obj);
    if (
      bodyFormat === 'json' ||
      (bodyFormat === 'protobuf' && !this.wire.codecs.hasProtobuf(typed.apiVersion, typed.kind))
    ) {
      return { body: obj };
    }
    return { body: this.wire.codecs.encode(bodyFormat, typed), contentType };
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
    return this.rest.call<ApiObject>(this.req({ method: 'GET', path: this.path(namespace, name) }), signal);
  }

  async list(namespace: string, o: ClientListOptions, signal: AbortSignal): Promise<ClientObjectList> {
    const list = await this.rest.call<{
      items?: ApiObject[];
      metadata?: { resourceVersion?: string; continue?: string };
    }>(this.req({ method: 'GET', path: this.path(namespace), query: listQuery(o) }), signal);
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
      const res = await this.rest.stream(this.req({ method: 'GET', path: this.path(namespace), query }), own.signal);
      res.once('close', () => signal.removeEventListener('abort', onAbort));
      let decoder: WatchEventDecoder;
      try {
        decoder = this.wire.codecs.watchDecoder(res.headers['content-type']);
      } catch (e) {
        own.abort();
        res.destroy();
        throw e;
      }
      return new StreamWatch(res, decoder, () => own.abort(), own.signal, this.fill);
    } catch (e) {
      signal.removeEventListener('abort', onAbort);
      throw e;
    }
  }

  async create(
    namespace: string,
    obj: ApiObject,
    signal: AbortSignal,
    o: { readonly subresource?: string; readonly name?: string } = {},
  ): Promise<ApiObject> {
    const path = o.subresource ? this.path(namespace, o.name, o.subresource) : this.path(namespace);
    return this.rest.call<ApiObject>(
      this.req({ method: 'POST', path, ...this.body(obj, o.subresource), query: { fieldManager: this.fieldManager } }),
      signal,
    );
  }

  async update(obj: ApiObject, signal: AbortSignal, o: { readonly subresource?: string } = {}): Promise<ApiObject> {
    const path = this.path(obj.metadata.namespace ?? '', obj.metadata.name ?? '', o.subresource);
    return this.rest.call<ApiObject>(
      this.req({ method: 'PUT', path, ...this.body(obj, o.subresource), query: { fieldManager: this.fieldManager } }),
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
      this.req({
        method: 'PATCH',
        path: this.path(namespace, name, o.subresource),
        body: JSON.stringify(patch),
        contentType: PATCH_CONTENT_TYPES[type],
        query: { fieldManager: this.fieldManager },
      }),
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
      this.req({
        method: 'PATCH',
        path: this.path(namespace, name, o.subresource),
        body: JSON.stringify(config),
        contentType: APPLY_CONTENT_TYPE,
        query: { fieldManager: this.fieldManager, force: o.force || undefined },
      }),
      signal,
    );
  }

  async delete(namespace: string, name: string, o: ClientDeleteOptions, signal: AbortSignal): Promise<void> {
    // DeleteOptions stay JSON: the server reads them as JSON or YAML only.
    await this.rest.call<unknown>(
      this.req({ method: 'DELETE', path: this.path(namespace, name), body: deleteOptionsBody(o) }),
      signal,
    );
  }

  async deleteCollection(
    namespace: string,
    o: ClientDeleteOptions & Pick<ClientListOptions, 'labelSelector' | 'fieldSelector'>,
    signal: AbortSignal,
  ): Promise<void> {
    await this.rest.call<unknown>(
      this.req({
        method: 'DELETE',
        path: this.path(namespace),
        body: deleteOptionsBody(o),
        query: { labelSelector: o.labelSelector || undefined, fieldSelector: o.fieldSelector || undefined },
      }),
      signal,
    );
  }
}
