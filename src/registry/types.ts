import type { ApiObject } from '../apis/object.js';
import type { RequestContext } from '../apis/request/request-context.js';
import type { Schema } from '../apis/schema/schema.js';
import type { JsonPart } from '../encoding/index.js';

export type { RequestContext } from '../apis/request/request-context.js';

export interface CreateOptions {
  readonly dryRun: boolean;
  /** Whose object this is, for `metadata.managedFields`; unset leaves them to the caller. */
  readonly fieldManager?: string;
  /**
   * The caller gives the input away (a request body decoded for this create, plain JSON that
   * nothing else holds): the create defaults and keeps it instead of a copy. Unset: the input
   * is only read.
   */
  readonly inputIsOwned?: boolean;
  /**
   * The schema whose defaults the input has had already (a body defaulted as it was decoded, its
   * quantities canonical too where the strategy's `defaultsQuantities` says so): the strategy
   * does not apply them again (`ResourceStrategy.defaults`).
   */
  readonly inputDefaultedBy?: Schema;
}

/** A created object, with its response JSON when that was made from the bytes written. */
export interface CreatedObject {
  readonly obj: ApiObject;
  /**
   * The compact JSON (with the trailing newline of a response body) a read of the new object
   * serves from the watch cache: the stored bytes with the resourceVersion written in. Absent
   * after a dry run, a conversion, or when the bytes need Go's escaping.
   */
  readonly json?: Uint8Array;
}

export interface GetOptions {
  /** `resourceVersion` query: unset = most recent, `0` = any, else not older than. */
  readonly resourceVersion?: string;
}

export interface ListOptions {
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  readonly limit?: number;
  readonly continue?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

/**
 * An object a response writer can copy instead of encoding (an object of the watch cache, kept
 * as its stored bytes).
 */
export interface EncodedObject {
  /** The object decoded (shared with other readers: never mutate it). */
  readonly object: ApiObject;
  /** The object's compact JSON as a response carries it (Go's escaping), then `suffix` (ASCII). */
  json(suffix?: string): Uint8Array;
  /** The same JSON as a part a writer copies straight into a larger buffer (a list body). */
  jsonPart(): JsonPart;
  /** The byte length of {@link EncodedObject.jsonPart}, worked out without making it. */
  jsonSize(): number;
  /** Writes the bytes of {@link EncodedObject.jsonPart} into `out` at `at`; returns the offset after them. */
  writeJson(out: Buffer, at: number): number;
  /**
   * Another serialized form of the object (`name` names it, e.g. the Protobuf item message),
   * made by `encode` the first time it is asked for and kept with the object from then on.
   */
  form(name: string, encode: (obj: ApiObject) => Uint8Array): Uint8Array;
}

export interface ObjectList {
  readonly items: ApiObject[];
  /** The same items as encoded objects, when the list was read from the watch cache. */
  readonly encodedItems?: readonly EncodedObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

export interface UpdateOptions {
  readonly dryRun: boolean;
  /**
   * Set for writes through a sub-resource (`status`, `finalize`): the sub-resource's strategy
   * replaces the main one, limiting the change to what the sub-resource owns.
   */
  readonly subresource?: string;
  /**
   * Create the object when it does not exist even if the resource does not allow
   * create-on-update (server-side apply creates what it applies). Main resource only.
   */
  readonly createIfMissing?: boolean;
  /**
   * Whose change this is, for `metadata.managedFields` (the write is recorded as an `Update` by
   * this manager). Unset: the object's managed fields are left to the caller (server-side apply
   * computes them itself).
   */
  readonly fieldManager?: string;
}

export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  readonly dryRun: boolean;
  readonly preconditions?: Preconditions;
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: PropagationPolicy;
  /** Legacy form of `propagationPolicy: Orphan` (true) / `Background` (false). */
  readonly orphanDependents?: boolean;
  /** Unsafe deletion of an object that cannot be read (gate AllowUnsafeMalformedObjectDeletion). */
  readonly ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event; ERROR events carry a `Status` object. */
export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: ApiObject;
  /** The object as an encoded object, when the event came from the watch cache. */
  readonly encoded?: EncodedObject;
  /**
   * Set on events shared by every watcher of a change (the watch cache's): the event's bytes in
   * the frame encoding `name` (a media type), made by `encode` the first time it is asked for and
   * kept with the event, so each change is encoded once per media type, however many watch it.
   * `encode` must be pure: the same event and name always yield the same bytes.
   */
  frame?(name: string, encode: (ev: WatchEvent) => Buffer): Buffer;
}

export interface WatchOptions extends ListOptions {
  readonly allowWatchBookmarks?: boolean;
  readonly sendInitialEvents?: boolean;
  /** Server-side timeout; the stream ends after it. */
  readonly timeoutSeconds?: number;
}

/** A running watch: iterate for events; `stop()` (or the request's signal) ends it. */
export interface WatchStream extends AsyncIterable<WatchEvent> {
  stop(): void;
  /**
   * The next events, as many as are ready (undefined once the watch has ended): one wake-up per
   * batch instead of one per event, for consumers that fan out to many watches. A consumer uses
   * either this or the iterator, not both.
   */
  nextBatch(): Promise<readonly WatchEvent[] | undefined>;
  /**
   * Set when the events can be taken without a promise per wake-up (the watch cache); a consumer
   * uses either this or the promise-based forms, not both.
   */
  readonly sync?: SyncWatchSource;
}

/** Synchronous consumption of a watch: poll when told that something is ready. */
export interface SyncWatchSource {
  /**
   * The events ready now, `undefined` once the watch has ended, or `null` when nothing is ready
   * (the listener is woken when something is). Throws where `nextBatch` would reject.
   */
  poll(): readonly WatchEvent[] | undefined | null;
  /**
   * Registers the consumer (undefined removes it). Both functions are called synchronously,
   * typically while the watch cache dispatches a change to every watcher: they must be quick and
   * must not throw. `wake`: events or the end are ready to poll. `offer`, when set: one event, in
   * order, while nothing is waiting to be polled; true takes it, false leaves it to poll.
   */
  onReady(listener: SyncWatchListener | undefined): void;
}

/** The consumer's side of a {@link SyncWatchSource}. */
export interface SyncWatchListener {
  wake(): void;
  offer?(event: WatchEvent): boolean;
}

/**
 * The new state of an object as a function of the live one. The registry calls `compute`
 * inside its optimistic-concurrency retry loop, against the freshest stored object, so
 * patches, apply and unconditional updates re-run on conflict.
 */
export interface UpdatedObject {
  /**
   * Computes the desired object from the live one (undefined when absent). Throw a StatusError
   * to fail the request.
   */
  compute(live: ApiObject | undefined): Promise<ApiObject> | ApiObject;
  /**
   * When true, a conflict on the stored revision is reported to the client (409) instead of
   * retried: the client named the resourceVersion it based its change on.
   */
  readonly retryOnConflict: boolean;
}

/** The generic registry of one resource, as the handlers use it. */
export interface ResourceStore {
  create(ctx: RequestContext, obj: ApiObject, o: CreateOptions): Promise<ApiObject>;
  /** The same create as `create`, with the response JSON made from the bytes written. */
  createWithJson?(ctx: RequestContext, obj: ApiObject, o: CreateOptions): Promise<CreatedObject>;
  /**
   * The schema whose defaults `create` applies to the object before anything else reads it (the
   * strategy's `defaultsSchema`), when it does: a body may then be decoded with them applied
   * (`CreateOptions.inputDefaultedBy`). Undefined: a create applies no schema defaults.
   */
  readonly createDefaultsSchema?: Schema;
  /** Whether the same step writes every quantity in canonical form (the strategy's `defaultsQuantities`). */
  readonly createDefaultsQuantities?: boolean;
  get(ctx: RequestContext, name: string, o: GetOptions): Promise<ApiObject>;
  /**
   * The same read as `get`, as an encoded object when the watch cache serves it from its bytes
   * (a resourceVersion is set); undefined when `get` must answer. Answered without a promise
   * when the cache has the answer at hand (resourceVersion=0, cache ready); may then throw.
   * `ctx` may keep its signal on its prototype (the handlers' read context): read it, never
   * copy the context by spreading.
   */
  getEncoded?(
    ctx: RequestContext,
    name: string,
    o: GetOptions,
  ): EncodedObject | undefined | Promise<EncodedObject | undefined>;
  list(ctx: RequestContext, o: ListOptions): Promise<ObjectList>;
  update(
    ctx: RequestContext,
    name: string,
    next: UpdatedObject,
    o: UpdateOptions,
  ): Promise<{ obj: ApiObject; created: boolean }>;
  delete(ctx: RequestContext, name: string, o: DeleteOptions): Promise<{ obj: ApiObject; deleted: boolean }>;
  /** Starts a watch: events after the resourceVersion (or the current state first, per options). */
  watch(ctx: RequestContext, o: WatchOptions): Promise<WatchStream>;
  /** Deletes every object the list options select (each with `o`); returns what was deleted. */
  deleteCollection(ctx: RequestContext, o: DeleteOptions, listOptions: ListOptions): Promise<ObjectList>;
  /**
   * POST to a sub-resource that computes its answer (`serviceaccounts/x/token`): admission with
   * operation CREATE, then the sub-resource's `create`. 404 when the definition has no such
   * sub-resource.
   */
  createSubresource(
    ctx: RequestContext,
    name: string,
    subresource: string,
    body: ApiObject,
    o: CreateOptions,
  ): Promise<ApiObject>;
}
