import type { ApiObject } from '../object.js';

/**
 * The JSON shapes of `apiextensions.<domain>/v1` CustomResourceDefinition (kube's
 * `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1` types). Values come from decoded
 * requests, so code reading them checks types where it matters.
 */

/** `JSONSchemaProps`: an OpenAPI v3 schema with kube's `x-kubernetes-*` extensions. */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema, or (not allowed in CRDs) an array of schemas. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  /** A schema, or whether other properties are allowed. */
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRuleJson[];
}

export interface ValidationRuleJson {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface CustomResourceDefinitionNames {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceColumnDefinition {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface SelectableField {
  jsonPath?: string;
}

export interface CustomResourceSubresourceScale {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: CustomResourceSubresourceScale;
}

export interface CustomResourceDefinitionVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle?: string;
}

export interface CustomResourceConversion {
  strategy?: string;
  webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions?: string[] };
}

export interface CustomResourceDefinitionSpec {
  group?: string;
  names?: CustomResourceDefinitionNames;
  scope?: string;
  versions?: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

export interface CustomResourceDefinitionCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends ApiObject {
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}

/** Condition types a CRD's status carries. */
export const CRD_CONDITIONS = {
  established: 'Established',
  namesAccepted: 'NamesAccepted',
  nonStructuralSchema: 'NonStructuralSchema',
  terminating: 'Terminating',
  apiApprovalPolicyConformant: 'KubernetesAPIApprovalPolicyConformant',
} as const;

/** The condition of `type`, if the CRD has one. */
export function crdCondition(
  crd: { status?: CustomResourceDefinitionStatus },
  type: string,
): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

/** Whether the CRD's condition `type` is `True`. */
export function isCrdConditionTrue(crd: { status?: CustomResourceDefinitionStatus }, type: string): boolean {
  return crdCondition(crd, type)?.status === 'True';
}

/**
 * Sets a condition as kube's `SetCRDCondition` does: a new one is appended; an existing one keeps
 * its `lastTransitionTime` unless its status changes. Mutates `crd.status`.
 */
export function setCrdCondition(
  crd: { status?: CustomResourceDefinitionStatus },
  condition: CustomResourceDefinitionCondition,
  now: string,
): void {
  crd.status ??= {};
  const status = crd.status;
  status.conditions ??= [];
  const conditions = status.conditions;
  const existing = conditions.find((c) => c.type === condition.type);
  if (!existing) {
    conditions.push({ ...condition, lastTransitionTime: condition.lastTransitionTime ?? now });
    return;
  }
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = condition.lastTransitionTime ?? now;
  }
  existing.reason = condition.reason;
  existing.message = condition.message;
}

/** The storage version's name, or undefined when no version is marked as storage. */
export function storageVersionOf(spec: CustomResourceDefinitionSpec): string | undefined {
  return spec.versions?.find((v) => v.storage === true)?.name;
}
