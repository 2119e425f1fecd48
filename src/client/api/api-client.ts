import type { ApiObject } from '../../apis/object.js';

/**
 * The client side of the API as controllers and tools use it: one {@link ApiClient} per identity,
 * one {@link ResourceClient} per served resource. Two implementations: in process over the
 * registries (`src/controllers/in-process-api-client.ts`, every request authorized as the
 * identity) and over HTTPS (`src/client/api/http-api-client.ts`). Controllers written against
 * these interfaces run unchanged in orch-apiserver and in orch-controller-manager.
 *
 * Every API failure is thrown as the `StatusError` the server answered with (404 NotFound,
 * 409 Conflict / AlreadyExists, 403 Forbidden, 422 Invalid, 410 Expired, ...). Transport failures
 * and aborted requests are other errors.
 */

/** A served resource as discovery describes it. The core group is `''`. */
export interface ApiResource {
  readonly group: string;
  readonly version: string;
  /** Lowercase plural, e.g. `deployments`. */
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  /** Sub-resource names (`status`, `scale`, ...). */
  readonly subresources: readonly string[];
}

export interface ClientListOptions {
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  readonly limit?: number;
  readonly continue?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

export interface ClientWatchOptions extends ClientListOptions {
  readonly allowWatchBookmarks?: boolean;
  /** Server-side timeout; the stream ends after it. */
  readonly timeoutSeconds?: number;
}

/**
 * An object a server in the same process shares instead of handing out a decoded copy: decoded
 * on demand (`object`), kept as its stored bytes meanwhile. Holding it costs next to nothing.
 */
export interface SharedObject {
  readonly object: ApiObject;
  /** `<namespace>/<name>` (`/<name>` for a cluster-scoped object), when known without decoding. */
  readonly namespacedName?: string;
  /** The object's `metadata.resourceVersion` as a number, when known without decoding. */
  readonly modRevision?: bigint;
  /**
   * False when the object's JSON does not contain `text`, told from its encoded form without
   * decoding it: then no key is spelled `text` (given with its quotes, `"nodeName"`); true when
   * it may be.
   */
  mentions?(text: string): boolean;
}

export interface ClientObjectList {
  readonly items: ApiObject[];
  /** In process, from the watch cache: the same items as shared objects. */
  readonly encodedItems?: readonly SharedObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
}

export type ClientWatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event; ERROR events carry a `Status` object (410 Expired after compaction). */
export interface ClientWatchEvent {
  readonly type: ClientWatchEventType;
  readonly object: ApiObject;
  /** In process, from the watch cache: the event's object as a shared object. */
  readonly encoded?: SharedObject;
}

/** A running watch: iterate for events until it ends; `stop()` (or the signal) ends it. */
export interface ClientWatch extends AsyncIterable<ClientWatchEvent> {
  stop(): void;
}

export interface ClientDeleteOptions {
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
}

export type ClientPatchType = 'merge' | 'json' | 'strategic';

/** Requests on one served resource, made as the {@link ApiClient}'s identity. */
export interface ResourceClient {
  readonly resource: ApiResource;
  /** `namespace` is ignored for cluster-scoped resources. */
  get(namespace: string, name: string, signal: AbortSignal): Promise<ApiObject>;
  /** `namespace` `''`: every namespace. */
  list(namespace: string, o: ClientListOptions, signal: AbortSignal): Promise<ClientObjectList>;
  watch(namespace: string, o: ClientWatchOptions, signal: AbortSignal): Promise<ClientWatch>;
  /** POST; `subresource` for create-type sub-resources (`eviction`, `token`, `binding`). */
  create(
    namespace: string,
    obj: ApiObject,
    signal: AbortSignal,
    o?: { readonly subresource?: string; readonly name?: string },
  ): Promise<ApiObject>;
  /**
   * PUT of `obj` (namespace and name from its metadata). `metadata.resourceVersion`, when set, is
   * the precondition: a write based on an older version fails with 409 Conflict.
   */
  update(obj: ApiObject, signal: AbortSignal, o?: { readonly subresource?: string }): Promise<ApiObject>;
  /** PATCH with a JSON, merge or strategic merge patch. */
  patch(
    namespace: string,
    name: string,
    type: ClientPatchType,
    patch: unknown,
    signal: AbortSignal,
    o?: { readonly subresource?: string },
  ): Promise<ApiObject>;
  /** Server-side apply of `config` as the client's field manager (creates the object when missing, as over HTTP). */
  apply(
    namespace: string,
    name: string,
    config: ApiObject,
    signal: AbortSignal,
    o: { readonly force: boolean; readonly subresource?: string },
  ): Promise<ApiObject>;
  /** DELETE; resolves once deleted or marked for deletion. */
  delete(namespace: string, name: string, o: ClientDeleteOptions, signal: AbortSignal): Promise<void>;
  deleteCollection(
    namespace: string,
    o: ClientDeleteOptions & Pick<ClientListOptions, 'labelSelector' | 'fieldSelector'>,
    signal: AbortSignal,
  ): Promise<void>;
}

export type ApiResourceChange = { readonly type: 'added' | 'removed'; readonly resource: ApiResource };

/** The API as one identity sees it. */
export interface ApiClient {
  /** The field manager this client's writes are recorded under. */
  readonly fieldManager: string;
  /** The client of a served group/version/resource; undefined when it is not served (now). */
  resource(group: string, version: string, resource: string): ResourceClient | undefined;
  /** The client of a group/resource in its preferred served version. */
  preferred(group: string, resource: string): ResourceClient | undefined;
  /** The client of a kind (group and kind, any served version; the preferred one when several). */
  forKind(group: string, kind: string): ResourceClient | undefined;
  /** Every served resource in every served version (no sub-resources). */
  resources(): readonly ApiResource[];
  /**
   * Hears of resources added and removed while running (custom resources). In process it follows
   * the resource set; over HTTP it polls discovery. Returns the unsubscribe function.
   */
  subscribe(listener: (change: ApiResourceChange) => void): () => void;
  /**
   * Re-reads what is served now before resolving (over HTTP: discovery, telling subscribers of
   * changes); absent or a no-op where the client is always current (in process). Controllers
   * that must see every resource at a moment (the namespace controller) call it first.
   */
  refresh?(signal: AbortSignal): Promise<void>;
}
