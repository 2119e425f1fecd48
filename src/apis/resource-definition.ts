import type { FieldError } from './meta/field-error.js';
import type { ApiObject } from './object.js';
import type { RequestContext, WarningSink } from './request/request-context.js';
import type { UserInfo } from './request/user-info.js';
import type { Schema } from './schema/schema.js';
import type { FieldLabelSupport } from './selectors/field-labels.js';
import type { TableColumns } from './table/table-types.js';

/**
 * Everything the server knows about one served resource (one kind in one group version).
 * Built-in types and, later, custom resources are both described this way: the registry,
 * discovery, OpenAPI, validation and (later) apply, patch and encodings all read from it.
 */
export interface ResourceDefinition {
  /** API group; empty string for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** `<Kind>List`. */
  readonly listKind: string;
  /** Plural resource name used in URLs, e.g. `configmaps`. */
  readonly resource: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  /** Verbs served, e.g. create delete deletecollection get list patch update watch. */
  readonly verbs: readonly string[];
  /** Sub-resources served (e.g. `status`), each with its verbs. */
  readonly subresources: readonly SubresourceDefinition[];
  /** PUT of a missing object creates it (201) instead of answering 404. */
  readonly allowCreateOnUpdate: boolean;
  /**
   * The kind has `spec`: `metadata.generation` starts at 1 and increments whenever anything
   * outside `metadata` and `status` changes.
   */
  readonly hasGeneration: boolean;
  /** The structural schema of the kind (the whole object, including apiVersion/kind/metadata). */
  readonly schema: Schema;
  /** The kind's strategy: defaulting, normalization and validation beyond the schema. */
  readonly strategy: ResourceStrategy;
  /**
   * Field labels field selectors may use on this kind and each object's values for them. Absent:
   * kube's default, `metadata.name` and `metadata.namespace` (see `fieldLabelsOf`).
   */
  readonly fieldLabels?: FieldLabelSupport;
  /**
   * What the OpenAPI documents publish for the kind where it is not just `schema` (custom
   * resources, as kube's CRD OpenAPI builder publishes them). Absent: `schema` in both documents.
   */
  readonly openApi?: PublishedOpenApi;
  /** The kind's Table columns. Absent: kube's default `Name` and `Created At` (see `buildTable`). */
  readonly tableColumns?: TableColumns;
  /**
   * Fields a write through the main resource may not change (kube's reset fields), as dotted
   * paths, e.g. `['status']` when a `status` sub-resource owns it. Absent: none.
   */
  readonly resetFields?: readonly string[];
  /**
   * The objects of this cluster-scoped kind are namespaces: a path's `namespaces/<n>` segment
   * names the object itself, so requests for it carry a namespace (kube's request info sets it,
   * and authorizers see it) although the kind is cluster-scoped.
   */
  readonly namespaceIsName?: boolean;
  /**
   * Media types beyond JSON, YAML and CBOR this kind is served in. Absent: Protobuf too, as for
   * every built-in kind; custom resources refuse Protobuf (406).
   */
  readonly protobuf?: boolean;
  /**
   * Whether PATCH accepts strategic merge patches. Absent: yes, as for every built-in kind;
   * custom resources refuse them (415).
   */
  readonly strategicMergePatch?: boolean;
  /**
   * A `Warning` every request of this resource gets (a deprecated custom resource version).
   * Absent: none.
   */
  readonly deprecationWarning?: string;
  /** For a deprecated version: the release that stops serving it (`1.35`), when announced. */
  readonly removedRelease?: string;
  /**
   * The kind's zero value as kube's typed decoding produces it (a Namespace has non-pointer
   * `spec` and `status`, so its zero object carries both); server-side apply diffs against it.
   * Absent: `{apiVersion, kind, metadata: {}}`.
   */
  readonly zeroObject?: () => ApiObject;
  /**
   * Present when this definition is one of several versions of a resource that share one stored
   * object (autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscaler): objects are stored in the
   * storage version and converted to and from this definition's version at the storage boundary.
   * Absent: objects are stored in this definition's own version. An
   * {@link AsyncStorageVersionConversion} converts through I/O (a conversion webhook).
   */
  readonly storageVersion?: StorageVersionConversion | AsyncStorageVersionConversion;
  /**
   * Present when this definition is a view of another group's resource: its objects are stored
   * under that resource's keys (events.<domain>/v1 `events` are core `events`), so both read,
   * write and watch the same objects; `storageVersion` converts between them. What stands for
   * the stored objects rather than the URL (storage keys, the watch cache's prefix, the kind a
   * 422 names) uses {@link storageResourceOf}; errors naming the resource, discovery and clients
   * see the definition's own group. Absent: the definition's own group and resource.
   */
  readonly storageResource?: StorageResource;
  /**
   * Present for resources that store nothing and answer a POST with a computed object (TokenReview,
   * SelfSubjectReview, the access reviews); their verbs are `create` only.
   */
  readonly virtual?: VirtualCreate;
}

/** See {@link ResourceDefinition.openApi}. */
export interface PublishedOpenApi {
  /** The kind's schema in OpenAPI v2 (Swagger 2.0), where it differs from the v3 one. */
  readonly v2Schema?: Schema;
  /**
   * `x-kubernetes-selectable-fields` of the kind's and its list's definitions, in both documents:
   * the field paths without their leading dot (`spec.color`); an empty list is published too.
   */
  readonly selectableFields?: readonly string[];
}

/**
 * The conversion of one served version to the version its objects are stored in. Every
 * definition of the resource (same group and resource, same storage keys) stores the same
 * version, so each version reads what any other wrote. Both functions are pure (they return
 * new objects and keep `metadata`, `resourceVersion` included) and total: what the served
 * version cannot hold travels in annotations, so a round trip through the served version loses
 * nothing of the stored object.
 */
export interface StorageVersionConversion {
  /** `apiVersion` of the stored objects, e.g. `autoscaling/v2`. */
  readonly apiVersion: string;
  /**
   * Stored objects of other versions than `apiVersion` are converted too (custom resources keep
   * objects written in every version they ever stored in). Absent: they are read as they are.
   */
  readonly readsEveryVersion?: boolean;
  /**
   * A stored object (in `apiVersion`, or any version with `readsEveryVersion`) as this
   * definition's version shows it. `stored` was just decoded and is not shared: it may be
   * changed and returned.
   */
  fromStorage(stored: ApiObject): ApiObject;
  /** An object of this definition's version as it is stored. */
  toStorage(obj: ApiObject): ApiObject;
}

/**
 * A conversion to and from the storage version that needs I/O (a custom resource's conversion
 * webhook). Stored objects are decoded as they are stored (any version) and converted in
 * batches by the registry: one call per get, list page, watch batch or write. Both functions
 * return one object per input, in order, in the target version, and never change their input;
 * they reject with a `StatusError` (kube's 500 texts) when an object cannot be converted.
 */
export interface AsyncStorageVersionConversion {
  /** `apiVersion` the objects are stored in. */
  readonly apiVersion: string;
  readonly async: true;
  /** Stored objects (of any version) as this definition's version shows them. */
  fromStorage(stored: readonly ApiObject[], signal: AbortSignal): Promise<ApiObject[]>;
  /** Objects of this definition's version as they are stored. */
  toStorage(objects: readonly ApiObject[], signal: AbortSignal): Promise<ApiObject[]>;
}

/** The group and resource whose storage keys a definition's objects live under. */
export interface StorageResource {
  /** API group; empty string for the core group. */
  readonly group: string;
  readonly resource: string;
}

/** Where a definition's objects are stored: its `storageResource`, else its own group and resource. */
export function storageResourceOf(
  def: Pick<ResourceDefinition, 'group' | 'resource' | 'storageResource'>,
): StorageResource {
  return def.storageResource ?? { group: def.group, resource: def.resource };
}

/** The options a computed create sees. */
export interface ComputedCreateOptions {
  /** `dryRun=All`: compute, change nothing. */
  readonly dryRun: boolean;
}

/**
 * The create of a resource that stores nothing. The body has been decoded and checked against
 * the schema and has passed admission; the result is the response object (201 Created).
 * Failures are `StatusError`s.
 */
export interface VirtualCreate {
  create(ctx: RequestContext, body: ApiObject, options: ComputedCreateOptions): Promise<ApiObject>;
}

/** The request and response kind of a sub-resource of another kind. */
export interface SubresourceKindRef {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The kind's schema (validation, encodings, OpenAPI). */
  readonly schema: Schema;
  /** The Table columns of the kind's objects. Absent: kube's default `Name` and `Created At`. */
  readonly tableColumns?: TableColumns;
}

/**
 * A sub-resource that answers a POST with a computed object of another kind
 * (`serviceaccounts/<name>/token` → TokenRequest): nothing is stored under the sub-resource;
 * the parent is named by the path. The body has been decoded against the kind's schema and has
 * passed admission (operation CREATE, the parent's resource, this sub-resource). Failures are
 * `StatusError`s; the result is the response object (201 Created).
 */
export interface SubresourceCreate extends SubresourceKindRef {
  create(
    ctx: RequestContext,
    parent: { readonly namespace: string; readonly name: string },
    body: ApiObject,
    options: ComputedCreateOptions,
  ): Promise<ApiObject>;
}

/**
 * A sub-resource whose requests read and write another kind backed by fields of the parent,
 * the shape of `scale` (`autoscaling/v1` `Scale` from a workload's `spec.replicas`).
 */
export interface SubresourceKind extends SubresourceKindRef {
  /** The sub-resource object of a parent object. Pure. */
  toSubresource(parent: ApiObject): ApiObject;
  /**
   * The parent with the sub-resource object's changes applied (mutates and returns a copy of
   * `parent`); field errors of the sub-resource object are returned instead (422).
   */
  toParent(parent: ApiObject, sub: ApiObject): ApiObject | FieldError[];
}

/**
 * The `apiVersion` of a group version's objects: `<group>/<version>`, or the bare version for the
 * core group (`v1`). Also the `groupVersion` of discovery documents.
 */
export function apiVersionOf(gv: { readonly group: string; readonly version: string }): string {
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

export interface SubresourceDefinition {
  readonly name: string;
  readonly verbs: readonly string[];
  /**
   * Present for sub-resources that accept writes of the parent kind (`status`, `finalize`):
   * their updates go through this strategy instead of the main one, which limits the change
   * to what the sub-resource owns.
   */
  readonly strategy?: ResourceStrategy;
  /** Fields a write through this sub-resource may not change (kube's reset fields). */
  readonly resetFields?: readonly string[];
  /** Present when the sub-resource reads and writes another kind (`scale`). */
  readonly kind?: SubresourceKind;
  /** Present when the sub-resource answers POST with a computed object of another kind (`token`). */
  readonly create?: SubresourceCreate;
  /** Present for connect sub-resources (`services/<name>/proxy`), whose every request it answers. */
  readonly connect?: SubresourceConnect;
}

/**
 * A sub-resource through which kube connects the client to something behind the object
 * (`services/<name>/proxy`, `pods/<name>/exec`): every method its verbs allow is answered by
 * `connect`, once the parent object was found (404 otherwise). The parent's name in the path
 * may carry a scheme and a port (`https:web:8443`).
 */
export interface SubresourceConnect {
  /** The options kind discovery names for the sub-resource (`ServiceProxyOptions`). */
  readonly kind: string;
  /**
   * Answers a request for the existing object `parent`; `path` is what follows the
   * sub-resource in the URL, `query` the request's query (`container=` of `pods/<name>/log`).
   * Orch connects to nothing yet: implementations throw the `StatusError` that says so.
   */
  connect(ctx: RequestContext, parent: ApiObject, path: string, query: URLSearchParams): Promise<never>;
}

/**
 * Per-kind behaviour, kept out of the generic registry. All functions are pure and
 * synchronous; they may mutate the object handed to them where the contract says so.
 */
export interface ResourceStrategy {
  /**
   * kube's decode-time defaulting of a written object (the schema's defaults, then the kind's own
   * `SetDefaults`), applied before the field manager records what the writer set, so the writer
   * owns the defaults it received, as in kube. Mutates `obj`; idempotent. Absent: defaults are
   * applied only by `prepareForCreate`/`prepareForUpdate`. `schemaDefaulted`: a schema whose
   * defaults `obj` has had already (decoded with them); the strategy skips its schema's defaults
   * when they are that schema's.
   */
  defaults?(obj: ApiObject, schemaDefaulted?: Schema): void;
  /**
   * The schema whose defaults `defaults` applies first (`applyDefaults`), when it does: a body
   * decoded with that schema's defaults applied (see `walkTypedBody`) needs them no more.
   */
  readonly defaultsSchema?: Schema;
  /**
   * `defaults` writes every quantity in canonical form right after the schema's defaults (and
   * skips both for a body decoded with them): such a body is decoded with its quantities
   * canonical as well.
   */
  readonly defaultsQuantities?: boolean;
  /**
   * Normalize a new object before validation (e.g. fold Secret `stringData` into `data`,
   * default `status`, reset fields users may not set on create). Mutates `obj`. `context` names
   * who creates it (a CertificateSigningRequest records its requester).
   */
  prepareForCreate(obj: ApiObject, context?: StrategyContext): void;
  /**
   * Normalize an update before validation (e.g. keep `status` from `old` on the main resource).
   * Mutates `obj`.
   */
  prepareForUpdate(obj: ApiObject, old: ApiObject): void;
  /** All field errors of a new object (metadata, schema types and the kind's own rules). */
  validateCreate(obj: ApiObject): FieldError[];
  /**
   * All field errors of an update, including immutability against `old`. `context`, when given,
   * takes what the validation reports besides errors (a custom resource's ratcheted rule
   * failures are warnings).
   */
  validateUpdate(obj: ApiObject, old: ApiObject, context?: ValidationContext): FieldError[];
  /**
   * Whether an update (after `prepareForUpdate`) changes what `metadata.generation` counts, for
   * kinds with generation. Absent: a change anywhere outside `metadata` and `status` (kube's spec
   * comparison); a Deployment also counts its annotations, which it copies to its ReplicaSets.
   */
  readonly generationChanged?: (obj: ApiObject, old: ApiObject) => boolean;
  /**
   * Refuses the delete of one object by name before anything else (kube's `REST.Delete` of
   * PriorityClass refuses the system classes): the reason of the 403, or undefined to go on.
   * Collection deletes do not ask (kube's `DeleteCollection` bypasses it too).
   */
  refuseDelete?(name: string): string | undefined;
  /**
   * Refuses every create (not an update that creates) before anything else: the message of the
   * 405, or undefined to go on (kube refuses creates of a custom resource whose definition is
   * being deleted). Read per request.
   */
  refuseCreate?(): string | undefined;
  /**
   * Kinds a controller must finalize before they are removed (a namespace's `spec.finalizers`):
   * the first delete marks the object (`deletionTimestamp`, then `markTerminating`) and keeps it;
   * it is removed once `pending` is false. Absent: deleted as any object.
   */
  readonly controllerFinalization?: ControllerFinalization;
}

/** What a strategy's validation reports besides field errors. */
export interface ValidationContext {
  /** The request's `Warning` headers. */
  readonly warnings: WarningSink;
}

/** Who a strategy step acts for. */
export interface StrategyContext {
  readonly user: UserInfo;
}

export interface ControllerFinalization {
  /** True while the kind's own finalization is incomplete. */
  pending(obj: ApiObject): boolean;
  /** Marks an object whose deletion starts (a namespace's `status.phase: Terminating`). Mutates. */
  markTerminating(obj: ApiObject): void;
}
