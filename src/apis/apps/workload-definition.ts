/**
 * The common shape of the workload kinds' resource definitions: namespaced, the standard verbs,
 * create only by POST, their `status` (and `scale`) sub-resources, non-pointer `spec` and
 * `status` in the zero object, and a validation schema without the published `required` lists
 * (kube checks built-in kinds with Go validation, which reports more than a missing field).
 */
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import type { FieldError } from '../meta/field-error.js';
import { validateObjectMetaUpdate } from '../meta/object-meta-validation.js';
import { subresourceStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import type { ResourceStrategy, SubresourceDefinition } from '../resource-definition.js';
import { applyDefaults } from '../schema/defaults.js';
import { cloneJson } from '../schema/json-value.js';
import type { Schema } from '../schema/schema.js';

/**
 * The published schema without `required` lists, for validation (Go validation reports those
 * fields). Shared, as immutable as its source: each schema node is converted once, however many
 * workload kinds and definitions hold it (the pod template spec of every workload).
 */
export function validationSchema(schema: Schema): Schema {
  const known = withoutRequired.get(schema);
  if (known) return known;
  const { required: _required, properties, items, additionalProperties, ...rest } = schema;
  const out: Schema = { ...rest };
  // Set before converting below: a schema that reaches itself is converted once.
  withoutRequired.set(schema, out);
  if (properties)
    out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, validationSchema(v)]));
  if (items) out.items = validationSchema(items);
  if (additionalProperties !== undefined) {
    out.additionalProperties =
      typeof additionalProperties === 'object' ? validationSchema(additionalProperties) : additionalProperties;
  }
  return out;
}

/** Conversions made by {@link validationSchema}, per schema node. */
const withoutRequired = new WeakMap<Schema, Schema>();

/** The description of a workload list's `metadata` field. */
export const LIST_METADATA_DESCRIPTION = "The list's metadata: its resource version and continue token.";

/** What a workload definition names and describes. */
export interface WorkloadNames {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
  readonly shortNames: readonly string[];
  /** `['all']` for the kinds `kubectl get all` shows. */
  readonly categories: readonly string[];
  readonly listDescription: string;
  readonly listItemsDescription: string;
  readonly listMetadataDescription: string;
  /**
   * The spec of the kind's zero object (kube's Go zero value as JSON: struct fields are `{}`,
   * pointers without omitempty `null`); `{}` when absent. A create's writer owns the fields inside
   * what the zero object holds, not those containers themselves.
   */
  readonly zeroSpec?: () => Record<string, unknown>;
}

/** A zero `PodTemplateSpec`: its metadata's time and its containers list have no omitempty. */
export function zeroPodTemplate(): Record<string, unknown> {
  return { metadata: { creationTimestamp: null }, spec: { containers: null } };
}

/** A namespaced workload definition with kube's common settings. */
export function workloadDefinition(
  names: WorkloadNames,
  parts: Pick<BuiltinResourceDefinition, 'schema' | 'strategy' | 'subresources' | 'hasGeneration'> &
    Partial<BuiltinResourceDefinition>,
): BuiltinResourceDefinition {
  const { group, version, kind } = names;
  const apiVersion = group ? `${group}/${version}` : version;
  return {
    group,
    version,
    kind,
    listKind: `${kind}List`,
    resource: names.resource,
    singular: kind.toLowerCase(),
    namespaced: true,
    shortNames: names.shortNames,
    categories: names.categories,
    verbs: STANDARD_VERBS,
    allowCreateOnUpdate: false,
    resetFields: ['status'],
    zeroObject: () => ({ apiVersion, kind, metadata: {}, spec: names.zeroSpec?.() ?? {}, status: {} }),
    listDescription: names.listDescription,
    listItemsDescription: names.listItemsDescription,
    listMetadataDescription: names.listMetadataDescription,
    ...parts,
  };
}

export interface StatusRules<T extends ApiObject> {
  readonly schema: Schema;
  /** Fields besides `spec` a status write keeps from the live object (a Deployment's labels, a DaemonSet's template generation). */
  keep?(obj: T, old: T): void;
  /** The kind's status rules (metadata update rules are added). */
  validate(obj: T, old: T): FieldError[];
}

/** The `status` sub-resource: a write changes status (and metadata), never the spec. */
export function statusSubresource<T extends ApiObject>(
  rules: StatusRules<T>,
  resetFields: readonly string[] = ['spec'],
): SubresourceDefinition {
  const strategy: ResourceStrategy = subresourceStrategy<T>({
    schema: rules.schema,
    prepareForUpdate(obj, old) {
      const o = obj as ApiObject;
      if (old.spec === undefined) delete o.spec;
      else o.spec = cloneJson(old.spec);
      rules.keep?.(obj, old);
    },
    validateUpdate: (obj, old) => [
      ...validateObjectMetaUpdate(obj.metadata, old.metadata),
      ...rules.validate(obj, old),
    ],
  });
  return { name: 'status', verbs: ['get', 'patch', 'update'], strategy, resetFields };
}

/** A new object's status is kube's zero status (the schema's defaults of an empty status). */
export function resetStatus(obj: ApiObject, schema: Schema): void {
  obj.status = {};
  applyDefaults(schema, obj);
}

/** The live object's status, as an update through the main resource keeps it. */
export function keepStatus(obj: ApiObject, old: ApiObject): void {
  if (old.status === undefined) delete obj.status;
  else obj.status = cloneJson(old.status);
}
