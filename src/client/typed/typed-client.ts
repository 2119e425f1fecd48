import type { ApiDomain } from '../../apis/api-domain.js';
import type { Status } from '../../apis/meta/status.js';
import type { ApiObject, ObjectMeta } from '../../apis/object.js';
import type {
  ApiClient,
  ApiResource,
  ClientDeleteOptions,
  ClientListOptions,
  ClientPatchType,
  ClientWatch,
  ClientWatchOptions,
  ResourceClient,
} from '../api/api-client.js';
import { groupOf, type ResourceType } from './resource-type.js';

/** Every field optional, at every depth (arrays keep their element type). */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** A JSON merge patch of `T`: any field at any depth, `null` to remove it. */
export type MergePatch<T> = T extends readonly unknown[]
  ? T | null
  : T extends object
    ? { [K in keyof T]?: MergePatch<T[K]> | null }
    : T | null;

/**
 * `T` without the keys `K`. Unlike `Omit`, it keeps the known fields of a type with an index
 * signature (every API object has one), so they stay type-checked.
 */
export type WithoutKeys<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };

/** An object to create or update: `apiVersion` and `kind` may be left out (the client sets them). */
export type ObjectInput<T extends ApiObject> = WithoutKeys<T, 'apiVersion' | 'kind'> & {
  apiVersion?: string;
  kind?: string;
};

/**
 * A server-side apply configuration: the fields this manager owns, at any depth; a name is
 * required, `apiVersion` and `kind` may be left out, and the namespace is taken from the call.
 */
export type ApplyConfiguration<T extends ApiObject> = DeepPartial<
  WithoutKeys<T, 'apiVersion' | 'kind' | 'metadata'>
> & {
  apiVersion?: string;
  kind?: string;
  metadata: DeepPartial<ObjectMeta> & { name: string };
};

export interface TypedList<T extends ApiObject> {
  readonly items: T[];
  readonly resourceVersion: string;
  readonly continue?: string;
}

/** A watch event: an object of the resource, or an ERROR's `Status` (410 Expired after compaction). */
export type TypedWatchEvent<T extends ApiObject> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; readonly object: T }
  | { readonly type: 'ERROR'; readonly object: Status };

/** A running typed watch: iterate for events; `stop()` (or the signal) ends it. */
export interface TypedWatch<T extends ApiObject> extends AsyncIterable<TypedWatchEvent<T>> {
  stop(): void;
}

/** The resource of a typed client is not served (now). */
export class ResourceNotServedError extends Error {
  constructor(readonly type: ResourceType<ApiObject>) {
    super(`the server does not serve ${type.resource} in version ${type.version}`);
    this.name = 'ResourceNotServedError';
  }
}

/** A signal that never aborts, for calls made without one. */
const NEVER = new AbortController().signal;

/**
 * Typed requests of one resource, over any {@link ResourceClient} (HTTP or in process), with
 * the same semantics: failures throw the server's `StatusError`; `namespace` is ignored for
 * cluster-scoped resources. Objects sent without `apiVersion`/`kind` get the resource's.
 */
export class TypedResourceClient<T extends ApiObject> {
  readonly resource: ApiResource;
  private readonly apiVersion: string;

  constructor(
    private readonly client: ResourceClient,
    readonly type: ResourceType<T>,
  ) {
    this.resource = client.resource;
    const r = client.resource;
    this.apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
  }

  /** `obj` with the resource's `apiVersion` and `kind` where it names none. */
  private typed(obj: object): ApiObject {
    const o = obj as { apiVersion?: string; kind?: string };
    return { ...obj, apiVersion: o.apiVersion || this.apiVersion, kind: o.kind || this.resource.kind } as ApiObject;
  }

  get(namespace: string, name: string, signal: AbortSignal = NEVER): Promise<T> {
    return this.client.get(namespace, name, signal) as Promise<T>;
  }

  async list(namespace: string, options: ClientListOptions = {}, signal: AbortSignal = NEVER): Promise<TypedList<T>> {
    const list = await this.client.list(namespace, options, signal);
    return {
      items: list.items as T[],
      resourceVersion: list.resourceVersion,
      ...(list.continue ? { continue: list.continue } : {}),
    };
  }

  create(namespace: string, obj: ObjectInput<T>, signal: AbortSignal = NEVER): Promise<T> {
    return this.client.create(namespace, this.typed(obj), signal) as Promise<T>;
  }

  /** PUT; `metadata.resourceVersion`, when set, must be current (else 409 Conflict). */
  update(obj: ObjectInput<T>, signal: AbortSignal = NEVER): Promise<T> {
    return this.client.update(this.typed(obj), signal) as Promise<T>;
  }

  /** PUT of the `status` sub-resource (only `status` changes). */
  updateStatus(obj: ObjectInput<T>, signal: AbortSignal = NEVER): Promise<T> {
    return this.client.update(this.typed(obj), signal, { subresource: 'status' }) as Promise<T>;
  }

  /** PATCH with a merge or strategic merge patch (`MergePatch<T>`) or a JSON patch (`unknown[]`). */
  patch(
    namespace: string,
    name: string,
    type: ClientPatchType,
    patch: MergePatch<T> | readonly unknown[],
    signal: AbortSignal = NEVER,
  ): Promise<T> {
    return this.client.patch(namespace, name, type, patch, signal) as Promise<T>;
  }

  /**
   * Server-side apply of `config` as the client's field manager; creates the object when
   * missing. Conflicts with other managers fail with 409 unless `force`.
   */
  apply(
    namespace: string,
    config: ApplyConfiguration<T>,
    options: { readonly force?: boolean } = {},
    signal: AbortSignal = NEVER,
  ): Promise<T> {
    const body = this.typed(config);
    return this.client.apply(namespace, config.metadata.name, body, signal, {
      force: options.force ?? false,
    }) as Promise<T>;
  }

  delete(namespace: string, name: string, options: ClientDeleteOptions = {}, signal: AbortSignal = NEVER) {
    return this.client.delete(namespace, name, options, signal);
  }

  /** Watches from `options.resourceVersion` (default: now, with the current objects as ADDED). */
  async watch(
    namespace: string,
    options: ClientWatchOptions = {},
    signal: AbortSignal = NEVER,
  ): Promise<TypedWatch<T>> {
    const w: ClientWatch = await this.client.watch(namespace, options, signal);
    return {
      stop: () => w.stop(),
      [Symbol.asyncIterator]: () => w[Symbol.asyncIterator]() as AsyncIterator<TypedWatchEvent<T>>,
    };
  }
}

/**
 * The typed client of `type` on `api` under `domain`. Throws {@link ResourceNotServedError}
 * when the server does not serve it (as `api` last read discovery).
 */
export function typedClient<T extends ApiObject>(
  api: ApiClient,
  type: ResourceType<T>,
  domain: ApiDomain,
): TypedResourceClient<T> {
  const client = api.resource(groupOf(type, domain), type.version, type.resource);
  if (!client) throw new ResourceNotServedError(type);
  if (client.resource.kind !== type.kind) {
    throw new Error(`${type.resource} serves ${client.resource.kind} objects, not ${type.kind}`);
  }
  return new TypedResourceClient(client, type);
}
