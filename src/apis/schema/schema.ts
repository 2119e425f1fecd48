/**
 * A structural schema (OpenAPI v3 subset) with Orch's extensions. One per kind; every
 * schema-driven feature reads it.
 */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  format?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  /**
   * A default that is published (as `default`) but never applied: the Go zero value of an
   * `omitempty` field that kube's types declare as a default (core/v1
   * `LocalObjectReference.name`, `""`), which kube never writes into an object.
   */
  'x-orch-published-default'?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  pattern?: string;
  /** `maximum` excludes the bound itself. */
  exclusiveMaximum?: boolean;
  /** `minimum` excludes the bound itself. */
  exclusiveMinimum?: boolean;
  /** Numbers must be a whole multiple of this (positive) factor. */
  multipleOf?: number;
  /** No two items of the array are equal. */
  uniqueItems?: boolean;
  title?: string;
  /** Value validation only: the value must satisfy every one of these (they add no structure). */
  allOf?: Schema[];
  /** Value validation only: the value must satisfy at least one of these. */
  anyOf?: Schema[];
  /** Value validation only: the value must satisfy exactly one of these. */
  oneOf?: Schema[];
  /** Value validation only: the value must not satisfy this. */
  not?: Schema;
  /** An example value, published as it is. */
  example?: unknown;
  externalDocs?: { description?: string; url?: string };
  'x-orch-list-type'?: 'atomic' | 'set' | 'map';
  'x-orch-list-map-keys'?: string[];
  /**
   * `allowed`: items of this `set`/`map` list may repeat their keys without a validation error,
   * where kube's native validation does not look for duplicates (owner references, which the
   * write handlers deduplicate only when entries are identical). Merges still key the list.
   */
  'x-orch-list-duplicates'?: 'allowed';
  'x-orch-map-type'?: 'atomic' | 'granular';
  'x-orch-preserve-unknown-fields'?: boolean;
  'x-orch-int-or-string'?: boolean;
  'x-orch-embedded-resource'?: boolean;
  /** Strategic-merge patch strategy, e.g. `merge` or `merge,retainKeys`. */
  'x-orch-patch-strategy'?: string;
  'x-orch-patch-merge-key'?: string;
  /** Protobuf field number of this property in its parent message. */
  'x-orch-protobuf-field'?: number;
  /**
   * The apimachinery message a (string or object) type travels as in protobuf, instead of the
   * message its JSON shape suggests: `Time`/`MicroTime` `{int64 seconds = 1; int32 nanos = 2}`,
   * `IntOrString` `{int64 type = 1; int32 intVal = 2; string strVal = 3}`, `Quantity`
   * `{string string = 1}`, `RawExtension` `{bytes raw = 1}` and `FieldsV1` `{bytes Raw = 1}`
   * (both holding JSON).
   */
  'x-orch-protobuf-message'?: 'Time' | 'MicroTime' | 'IntOrString' | 'Quantity' | 'RawExtension' | 'FieldsV1';
  /**
   * On a field holding a named type: the type's own values of the keys this field overrides
   * (`null` where the type has none), e.g. `{ 'x-orch-map-type': 'atomic' }` on core/v1
   * `PersistentVolumeSpec.claimRef`, a `granular` field of an atomic struct. Published beside the
   * `$ref`; the type's definition keeps its own values.
   */
  'x-orch-field-overrides'?: Record<string, unknown>;
  /**
   * Structs Go embeds with `json:",inline"` whose fields JSON flattens into this object while
   * protobuf keeps them in one message field: that field's number here, and the properties that
   * travel inside it (their `x-orch-protobuf-field` numbers are those of the embedded message).
   * E.g. core/v1 `Volume`: `[{ field: 2, properties: ['hostPath', 'emptyDir', ...] }]`.
   */
  'x-orch-protobuf-inline'?: { field: number; properties: string[] }[];
  /**
   * `explicit` when the Go field is a pointer: a zero value (`false`, `0`, `""`) is a set value and
   * travels in protobuf. Without it a zero scalar means "unset", as Go's `omitempty` treats it.
   */
  'x-orch-protobuf-presence'?: 'explicit';
  /**
   * Name under which this (object or named scalar) type is published in the OpenAPI documents,
   * e.g. `io.orch.api.core.v1.ConfigMap`. Schemas with a type name become `$ref`s there.
   */
  'x-orch-type-name'?: string;
  /**
   * Description of the named type itself (OpenAPI definition description); `description` on the
   * same schema describes the field that holds it.
   */
  'x-orch-type-description'?: string;
  /**
   * A timestamp string (`format: date-time`) and the precision it is stored with: `second` for
   * `Time` (RFC 3339, UTC), `microsecond` for `MicroTime` (`2006-01-02T15:04:05.000000Z07:00`).
   */
  'x-orch-time-precision'?: 'second' | 'microsecond';
  /**
   * How CEL names this object's properties: escaped (default, as kube exposes schema properties:
   * `namespace` is `__namespace__`), or `raw` for the types kube declares natively for CEL
   * (SubjectAccessReview spec, admission request, namespace object), whose fields keep their
   * names (`request.resourceAttributes.namespace`).
   */
  'x-orch-cel-field-names'?: 'raw';
  /**
   * CEL validation rules of a custom resource's schema node (kube's `x-kubernetes-validations`),
   * checked by src/apiextensions/validation-rules.
   */
  'x-orch-validations'?: SchemaValidationRule[];
}

/**
 * One CEL validation rule (kube's `ValidationRule`): `rule` must hold for the node's value
 * (`self`; `oldSelf` the old value on update). An absent member is Go's nil.
 */
export interface SchemaValidationRule {
  rule: string;
  message?: string;
  /** A CEL expression evaluating to the message when the rule fails. */
  messageExpression?: string;
  /** `FieldValueInvalid` (default), `FieldValueForbidden`, `FieldValueRequired` or `FieldValueDuplicate`. */
  reason?: string;
  /** JSON path below the node to report the error at, e.g. `.spec.replicas` or `['a.b']`. */
  fieldPath?: string;
  /** Evaluate on create and for new values too, with `oldSelf` an optional. */
  optionalOldSelf?: boolean;
}
