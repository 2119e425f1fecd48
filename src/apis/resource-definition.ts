import type { FieldError } from './meta/field-error.js';
import type { ApiObject } from './object.js';
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
  /** The kind's Table columns. Absent: kube's default `Name` and `Created At` (see `buildTable`). */
  readonly tableColumns?: TableColumns;
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
}

/**
 * Per-kind behaviour, kept out of the generic registry. All functions are pure and
 * synchronous; they may mutate the object handed to them where the contract says so.
 */
export interface ResourceStrategy {
  /**
   * Normalize a new object before validation (e.g. fold Secret `stringData` into `data`,
   * default `status`, reset fields users may not set on create). Mutates `obj`.
   */
  prepareForCreate(obj: ApiObject): void;
  /**
   * Normalize an update before validation (e.g. keep `status` from `old` on the main resource).
   * Mutates `obj`.
   */
  prepareForUpdate(obj: ApiObject, old: ApiObject): void;
  /** All field errors of a new object (metadata, schema types and the kind's own rules). */
  validateCreate(obj: ApiObject): FieldError[];
  /** All field errors of an update, including immutability against `old`. */
  validateUpdate(obj: ApiObject, old: ApiObject): FieldError[];
}
