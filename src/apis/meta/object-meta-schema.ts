import { fieldOf, int64Field, namedType, pb, pbPointer, stringField, stringMapField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/**
 * Schemas of the shared `meta/v1` types every kind embeds: ObjectMeta and what it holds, ListMeta,
 * Time and MicroTime, and the TypeMeta fields. Descriptions and markers follow kube v1.32; the
 * protobuf numbers are those of `k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto`.
 */
const META = 'io.orch.apimachinery.pkg.apis.meta.v1';
const API_CONVENTIONS = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md';

/** `Time`: RFC 3339 timestamp in UTC, whole seconds. */
export const timeSchema: Schema = namedType(
  `${META}.Time`,
  'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.',
  { type: 'string', format: 'date-time', 'x-orch-time-precision': 'second', 'x-orch-protobuf-message': 'Time' },
);

/** `MicroTime`: RFC 3339 timestamp in UTC with microseconds. */
export const microTimeSchema: Schema = namedType(
  `${META}.MicroTime`,
  'MicroTime is version of Time with microsecond level precision.',
  {
    type: 'string',
    format: 'date-time',
    'x-orch-time-precision': 'microsecond',
    'x-orch-protobuf-message': 'MicroTime',
  },
);

/** `FieldsV1`: an opaque JSON trie of field paths (kept as is). */
export const fieldsV1Schema: Schema = namedType(
  `${META}.FieldsV1`,
  "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.\n\nEach key is either a '.' representing the field itself, and will always map to an empty set, or a string representing a sub-field or item. The string will follow one of these four formats: 'f:<name>', where <name> is the name of a field in a struct, or key in a map 'v:<value>', where <value> is the exact json formatted value of a list item 'i:<index>', where <index> is position of a item in a list 'k:<keys>', where <keys> is a map of  a list item's key fields to their unique values If a key maps to an empty Fields value, the field that key represents is part of the set.\n\nThe exact format is defined in sigs.k8s.io/structured-merge-diff",
  { type: 'object', 'x-orch-preserve-unknown-fields': true, 'x-orch-protobuf-message': 'FieldsV1' },
);

/** `OwnerReference` (atomic struct). */
export const ownerReferenceSchema: Schema = namedType(
  `${META}.OwnerReference`,
  'OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.',
  {
    type: 'object',
    required: ['apiVersion', 'kind', 'name', 'uid'],
    'x-orch-map-type': 'atomic',
    properties: {
      apiVersion: stringField('API version of the referent.', pb(5)),
      kind: stringField(`Kind of the referent. More info: ${API_CONVENTIONS}#types-kinds`, pb(1)),
      name: stringField(
        'Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
        pb(3),
      ),
      uid: stringField(
        'UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids',
        pb(4),
      ),
      controller: {
        type: 'boolean',
        description: 'If true, this reference points to the managing controller.',
        ...pbPointer(6),
      },
      blockOwnerDeletion: {
        type: 'boolean',
        description:
          'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed. See https://kubernetes.io/docs/concepts/architecture/garbage-collection/#foreground-deletion for how the garbage collector interacts with this field and enforces the foreground deletion. Defaults to false. To set this field, a user needs "delete" permission of the owner, otherwise 422 (Unprocessable Entity) will be returned.',
        ...pbPointer(7),
      },
    },
  },
);

/** `ManagedFieldsEntry`. */
export const managedFieldsEntrySchema: Schema = namedType(
  `${META}.ManagedFieldsEntry`,
  'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
  {
    type: 'object',
    properties: {
      manager: stringField('Manager is an identifier of the workflow managing these fields.', pb(1)),
      operation: stringField(
        "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'.",
        pb(2),
      ),
      apiVersion: stringField(
        'APIVersion defines the version of this resource that this field set applies to. The format is "group/version" just like the top-level APIVersion field. It is necessary to track the version of a field set because it cannot be automatically converted.',
        pb(3),
      ),
      time: fieldOf(
        timeSchema,
        'Time is the timestamp of when the ManagedFields entry was added. The timestamp will also be updated if a field is added, the manager changes any of the owned fields value or removes a field. The timestamp does not update when a field is removed from the entry because another manager took it over.',
        pb(4),
      ),
      fieldsType: stringField(
        'FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"',
        pb(6),
      ),
      fieldsV1: fieldOf(
        fieldsV1Schema,
        'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.',
        pb(7),
      ),
      subresource: stringField(
        'Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource. The value of this field is used to distinguish between managers, even if they share the same name. For example, a status update will be distinct from a regular update using the same manager name. Note that the APIVersion field is not related to the Subresource field and it always corresponds to the version of the main resource.',
        pb(8),
      ),
    },
  },
);

const SELF_LINK = 'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.';

/** `ObjectMeta`. */
export const objectMetaSchema: Schema = namedType(
  `${META}.ObjectMeta`,
  'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
  {
    type: 'object',
    properties: {
      name: stringField(
        'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
        pb(1),
      ),
      generateName: stringField(
        `GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided. If this field is used, the name returned to the client will be different than the name passed. This value will also be combined with a unique suffix. The provided value has the same validation rules as the Name field, and may be truncated by the length of the suffix required to make the value unique on the server.\n\nIf this field is specified and the generated name exists, the server will return a 409.\n\nApplied only if Name is not specified. More info: ${API_CONVENTIONS}#idempotency`,
        pb(2),
      ),
      namespace: stringField(
        'Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace, but "default" is the canonical representation. Not all objects are required to be scoped to a namespace - the value of this field for those objects will be empty.\n\nMust be a DNS_LABEL. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces',
        pb(3),
      ),
      selfLink: stringField(SELF_LINK, pb(4)),
      uid: stringField(
        'UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations.\n\nPopulated by the system. Read-only. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids',
        pb(5),
      ),
      resourceVersion: stringField(
        `An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. May be used for optimistic concurrency, change detection, and the watch operation on a resource or set of resources. Clients must treat these values as opaque and passed unmodified back to the server. They may only be valid for a particular resource or set of resources.\n\nPopulated by the system. Read-only. Value must be treated as opaque by clients and . More info: ${API_CONVENTIONS}#concurrency-control-and-consistency`,
        pb(6),
      ),
      generation: int64Field(
        'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.',
        pb(7),
      ),
      creationTimestamp: fieldOf(
        timeSchema,
        `CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: ${API_CONVENTIONS}#metadata`,
        pb(8),
      ),
      deletionTimestamp: fieldOf(
        timeSchema,
        `DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user, and is not directly settable by a client. The resource is expected to be deleted (no longer visible from resource lists, and not reachable by name) after the time in this field, once the finalizers list is empty. As long as the finalizers list contains items, deletion is blocked. Once the deletionTimestamp is set, this value may not be unset or be set further into the future, although it may be shortened or the resource may be deleted prior to this time. For example, a user may request that a pod is deleted in 30 seconds. The Kubelet will react by sending a graceful termination signal to the containers in the pod. After that 30 seconds, the Kubelet will send a hard termination signal (SIGKILL) to the container and after cleanup, remove the pod from the API. In the presence of network partitions, this object may still exist after this timestamp, until an administrator or automated process can determine the resource is fully terminated. If not set, graceful deletion of the object has not been requested.\n\nPopulated by the system when a graceful deletion is requested. Read-only. More info: ${API_CONVENTIONS}#metadata`,
        pb(9),
      ),
      deletionGracePeriodSeconds: int64Field(
        'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only.',
        pbPointer(10),
      ),
      labels: stringMapField(
        'Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels',
        pb(11),
      ),
      annotations: stringMapField(
        'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations',
        pb(12),
      ),
      ownerReferences: {
        type: 'array',
        items: ownerReferenceSchema,
        description:
          'List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected. If this object is managed by a controller, then an entry in this list will point to this controller, with the controller field set to true. There cannot be more than one managing controller.',
        'x-orch-list-type': 'map',
        'x-orch-list-map-keys': ['uid'],
        // kube validates owner references one by one; entries sharing a UID are not an error.
        'x-orch-list-duplicates': 'allowed',
        'x-orch-patch-strategy': 'merge',
        'x-orch-patch-merge-key': 'uid',
        ...pb(13),
      },
      finalizers: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list. If the deletionTimestamp of the object is non-nil, entries in this list can only be removed. Finalizers may be processed and removed in any order.  Order is NOT enforced because it introduces significant risk of stuck finalizers. finalizers is a shared field, any actor with permission can reorder it. If the finalizer list is processed in order, then this can lead to a situation in which the component responsible for the first finalizer in the list is waiting for a signal (field value, external system, or other) produced by a component responsible for a finalizer later in the list, resulting in a deadlock. Without enforced ordering finalizers are free to order amongst themselves and are not vulnerable to ordering changes in the list.',
        'x-orch-list-type': 'set',
        'x-orch-patch-strategy': 'merge',
        ...pb(14),
      },
      managedFields: {
        type: 'array',
        items: managedFieldsEntrySchema,
        description:
          "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow. This is mostly for internal housekeeping, and users typically shouldn't need to set or understand this field. A workflow can be the user's name, a controller's name, or the name of a specific apply path like \"ci-cd\". The set of fields is always in the version that the workflow used when modifying the object.",
        'x-orch-list-type': 'atomic',
        ...pb(17),
      },
    },
  },
);

/** `ListMeta`. */
export const listMetaSchema: Schema = namedType(
  `${META}.ListMeta`,
  'ListMeta describes metadata that synthetic resources must have, including lists and various status objects. A resource may have only one of {ObjectMeta, ListMeta}.',
  {
    type: 'object',
    properties: {
      selfLink: stringField(SELF_LINK, pb(1)),
      resourceVersion: stringField(
        `String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed. Value must be treated as opaque by clients and passed unmodified back to the server. Populated by the system. Read-only. More info: ${API_CONVENTIONS}#concurrency-control-and-consistency`,
        pb(2),
      ),
      continue: stringField(
        'continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available. The value is opaque and may be used to issue another request to the endpoint that served this list to retrieve the next set of available objects. Continuing a consistent list may not be possible if the server configuration has changed or more than a few minutes have passed. The resourceVersion field returned when using this continue value will be identical to the value in the first response, unless you have received this token from an error message.',
        pb(3),
      ),
      remainingItemCount: int64Field(
        'remainingItemCount is the number of subsequent items in the list which are not included in this list response. If the list request contained label or field selectors, then the number of remaining items is unknown and the field will be left unset and omitted during serialization. If the list is complete (either because it is not chunking or because this is the last chunk), then there are no more remaining items and this field will be left unset and omitted during serialization. Servers older than v1.15 do not set this field. The intended use of the remainingItemCount is *estimating* the size of a collection. Clients should not rely on the remainingItemCount to be set or to be exact.',
        pbPointer(4),
      ),
    },
  },
);

/** The `apiVersion` field of every object. */
export const apiVersionField: Schema = stringField(
  `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${API_CONVENTIONS}#resources`,
);

/** The `kind` field of every object. */
export const kindField: Schema = stringField(
  `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${API_CONVENTIONS}#types-kinds`,
);

/** `metadata` as most kinds describe it. */
export function objectMetaField(
  description = `Standard object's metadata. More info: ${API_CONVENTIONS}#metadata`,
): Schema {
  return fieldOf(objectMetaSchema, description, pb(1));
}

/** `metadata` of a list kind. */
export function listMetaField(
  description = `Standard list metadata. More info: ${API_CONVENTIONS}#types-kinds`,
): Schema {
  return fieldOf(listMetaSchema, description, pb(1));
}

export { API_CONVENTIONS };
