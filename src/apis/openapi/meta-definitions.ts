import {
  API_CONVENTIONS,
  apiVersionField,
  kindField,
  listMetaField,
  listMetaSchema,
} from '../meta/object-meta-schema.js';
import { rawExtensionSchema } from '../meta/raw-extension-schema.js';
import {
  booleanField,
  fieldOf,
  int32Field,
  int64Field,
  namedType,
  pb,
  pbPointer,
  stringField,
} from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/**
 * Schemas of the meta/v1 types the API operations refer to (request bodies and responses):
 * Status, DeleteOptions, Patch, WatchEvent. They are only published, never validated against.
 */
const META = 'io.orch.apimachinery.pkg.apis.meta.v1';

const statusCauseSchema: Schema = namedType(
  `${META}.StatusCause`,
  'StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.',
  {
    type: 'object',
    properties: {
      reason: stringField(
        'A machine-readable description of the cause of the error. If this value is empty there is no information available.',
        pb(1),
      ),
      message: stringField(
        'A human-readable description of the cause of the error.  This field may be presented as-is to a reader.',
        pb(2),
      ),
      field: stringField(
        'The field of the resource that has caused this error, as named by its JSON serialization. May include dot and postfix notation for nested attributes. Arrays are zero-indexed.  Fields may appear more than once in an array of causes due to fields having multiple errors. Optional.\n\nExamples:\n  "name" - the field "name" on the current resource\n  "items[0].name" - the field "name" on the first array entry in "items"',
        pb(3),
      ),
    },
  },
);

const statusDetailsSchema: Schema = namedType(
  `${META}.StatusDetails`,
  'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response. The Reason field of a Status object defines what attributes will be set. Clients must ignore fields that do not match the defined type of each attribute, and should assume that any attribute may be empty, invalid, or under defined.',
  {
    type: 'object',
    properties: {
      name: stringField(
        'The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).',
        pb(1),
      ),
      group: stringField('The group attribute of the resource associated with the status StatusReason.', pb(2)),
      kind: stringField(
        `The kind attribute of the resource associated with the status StatusReason. On some operations may differ from the requested resource Kind. More info: ${API_CONVENTIONS}#types-kinds`,
        pb(3),
      ),
      uid: stringField(
        'UID of the resource. (when there is a single resource which can be described). More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids',
        pb(6),
      ),
      causes: {
        type: 'array',
        items: statusCauseSchema,
        description:
          'The Causes array includes more details associated with the StatusReason failure. Not all StatusReasons may provide detailed causes.',
        'x-orch-list-type': 'atomic',
        ...pb(4),
      },
      retryAfterSeconds: int32Field(
        'If specified, the time in seconds before the operation should be retried. Some errors may indicate the client must take an alternate action - for those errors this field may indicate how long to wait before taking the alternate action.',
        pb(5),
      ),
    },
  },
);

/** `Status`, the body of errors and of delete responses. */
export const statusSchema: Schema = namedType(
  `${META}.Status`,
  "Status is a return value for calls that don't return other objects.",
  {
    type: 'object',
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: listMetaField(),
      status: stringField(
        `Status of the operation. One of: "Success" or "Failure". More info: ${API_CONVENTIONS}#spec-and-status`,
        pb(2),
      ),
      message: stringField('A human-readable description of the status of this operation.', pb(3)),
      reason: stringField(
        'A machine-readable description of why this operation is in the "Failure" status. If this value is empty there is no information available. A Reason clarifies an HTTP status code but does not override it.',
        pb(4),
      ),
      details: fieldOf(
        statusDetailsSchema,
        'Extended data associated with the reason.  Each reason may define its own extended details. This field is optional and the data returned is not guaranteed to conform to any schema except that defined by the reason type.',
        pb(5),
      ),
      code: int32Field('Suggested HTTP return code for this status, 0 if not set.', pb(6)),
    },
  },
);

const preconditionsSchema: Schema = namedType(
  `${META}.Preconditions`,
  'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
  {
    type: 'object',
    properties: {
      uid: stringField('Specifies the target UID.', pbPointer(1)),
      resourceVersion: stringField('Specifies the target ResourceVersion', pbPointer(2)),
    },
  },
);

/** `DeleteOptions`, the optional body of delete and deletecollection. */
export const deleteOptionsSchema: Schema = namedType(
  `${META}.DeleteOptions`,
  'DeleteOptions may be provided when deleting an API object.',
  {
    type: 'object',
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      gracePeriodSeconds: int64Field(
        'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.',
        pbPointer(1),
      ),
      preconditions: fieldOf(
        preconditionsSchema,
        'Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.',
        pb(2),
      ),
      orphanDependents: booleanField(
        'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.',
        pbPointer(3),
      ),
      propagationPolicy: stringField(
        "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
        pbPointer(4),
      ),
      dryRun: {
        type: 'array',
        items: { type: 'string' },
        description:
          'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
        'x-orch-list-type': 'atomic',
        ...pb(5),
      },
      ignoreStoreReadErrorWithClusterBreakingPotential: booleanField(
        'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it',
        pbPointer(6),
      ),
    },
  },
);

/** `Patch`, the body of patch requests. */
export const patchSchema: Schema = namedType(
  `${META}.Patch`,
  'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
  { type: 'object' },
);

/** `WatchEvent`, one frame of a watch stream. */
export const watchEventSchema: Schema = namedType(
  `${META}.WatchEvent`,
  'Event represents a single event to a watched resource.',
  {
    type: 'object',
    required: ['type', 'object'],
    properties: {
      type: stringField('', pb(1)),
      object: fieldOf(
        rawExtensionSchema,
        'Object is:\n * If Type is Added or Modified: the new state of the object.\n * If Type is Deleted: the state of the object immediately before deletion.\n * If Type is Error: *Status is recommended; other types may make sense\n   depending on context.',
        pb(2),
      ),
    },
  },
);

export { listMetaSchema };
