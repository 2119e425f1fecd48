import type { Schema } from '../apis/schema/schema.js';
import type { CelDeclarations, CelVariable, CelVariableType } from './cel-environment.js';
import { AUTHORIZER_TYPE } from './library/authz.js';
import { DYN_JSON_SCHEMA } from './schema-types.js';

/**
 * The variables of each use of CEL, declared once, with kube-apiserver's names and types. Pass
 * them to `CelEnvironmentSet#extend`.
 */

/** Options of {@link crdValidationDeclarations}. */
export interface CrdValidationOptions {
  /** The root of the resource: `apiVersion`, `kind`, `metadata.name` and `metadata.generateName` are always accessible. */
  readonly isResourceRoot?: boolean;
  /**
   * The rule's `optionalOldSelf`: `oldSelf` is `optional<T>`, `optional.none()` when there is no
   * old value (on create, or when the field is new), so the rule also runs then.
   */
  readonly optionalOldSelf?: boolean;
}

/**
 * Custom resource validation rules (`x-orch-validations`) on the schema node `schema`: `self`, and
 * `oldSelf` for transition rules, both of the node's type (`oldSelf` optional with
 * `optionalOldSelf`).
 */
export function crdValidationDeclarations(schema: Schema, options: CrdValidationOptions = {}): CelDeclarations {
  const type: CelVariableType = {
    kind: 'schema',
    schema,
    typeName: 'selfType',
    isResourceRoot: options.isResourceRoot,
  };
  return {
    name: options.optionalOldSelf ? 'crd-validation-optional-old-self' : 'crd-validation',
    variables: [
      { name: 'self', type },
      { name: 'oldSelf', type: options.optionalOldSelf ? { ...type, optional: true } : type },
    ],
  };
}

const str: Schema = { type: 'string' };
const strings: Schema = { type: 'array', items: str };
/** A type kube declares natively for CEL: its fields keep their names (no escaping of `namespace`). */
const object = (name: string, properties: Record<string, Schema>): Schema => ({
  type: 'object',
  'x-orch-type-name': name,
  'x-orch-cel-field-names': 'raw',
  properties,
});

const USER_INFO = object('kubernetes.UserInfo', {
  username: str,
  uid: str,
  groups: strings,
  extra: { type: 'object', additionalProperties: strings },
});

/** Claim validation rules and claim mappings of JWT authenticators: `claims`, the token's claims. */
export const AUTHENTICATION_CLAIMS_DECLARATIONS: CelDeclarations = {
  name: 'authentication-claims',
  variables: [{ name: 'claims', type: { kind: 'json', celType: 'map<string, dyn>' } }],
};

/** User validation rules of JWT authenticators: `user`, the mapped user (username, uid, groups, extra). */
export const AUTHENTICATION_USER_DECLARATIONS: CelDeclarations = {
  name: 'authentication-user',
  variables: [{ name: 'user', type: { kind: 'schema', schema: USER_INFO, typeName: 'kubernetes.UserInfo' } }],
};

const selectorRequirements = (name: string): Schema => ({
  type: 'array',
  items: object(name, { key: str, operator: str, values: strings }),
});

const SUBJECT_ACCESS_REVIEW_SPEC = object('kubernetes.SubjectAccessReviewSpec', {
  resourceAttributes: object('kubernetes.ResourceAttributes', {
    namespace: str,
    verb: str,
    group: str,
    version: str,
    resource: str,
    subresource: str,
    name: str,
    fieldSelector: object('kubernetes.FieldSelectorAttributes', {
      rawSelector: str,
      requirements: selectorRequirements('kubernetes.FieldSelectorRequirement'),
    }),
    labelSelector: object('kubernetes.LabelSelectorAttributes', {
      rawSelector: str,
      requirements: selectorRequirements('kubernetes.LabelSelectorRequirement'),
    }),
  }),
  nonResourceAttributes: object('kubernetes.NonResourceAttributes', { path: str, verb: str }),
  user: str,
  groups: strings,
  extra: { type: 'object', additionalProperties: strings },
  uid: str,
});

/** Match conditions of webhook authorizers: `request`, the SubjectAccessReview spec. */
export const AUTHORIZATION_MATCH_DECLARATIONS: CelDeclarations = {
  name: 'authorization-match',
  variables: [
    {
      name: 'request',
      type: { kind: 'schema', schema: SUBJECT_ACCESS_REVIEW_SPEC, typeName: 'kubernetes.SubjectAccessReviewSpec' },
    },
  ],
};

const groupVersionKind = object('kubernetes.GroupVersionKind', { group: str, version: str, kind: str });
const groupVersionResource = object('kubernetes.GroupVersionResource', { group: str, version: str, resource: str });

const ADMISSION_REQUEST = object('kubernetes.AdmissionRequest', {
  kind: groupVersionKind,
  resource: groupVersionResource,
  subResource: str,
  requestKind: groupVersionKind,
  requestResource: groupVersionResource,
  requestSubResource: str,
  name: str,
  namespace: str,
  operation: str,
  userInfo: USER_INFO,
  dryRun: { type: 'boolean' },
  // The operation's options (CreateOptions, UpdateOptions, ...), dynamic.
  options: DYN_JSON_SCHEMA,
});

const timestamp: Schema = { type: 'string', format: 'date-time' };

/** kube's declared Namespace type (managed fields, owner references and the like left out, as in kube). */
const NAMESPACE = object('kubernetes.Namespace', {
  metadata: object('kubernetes.NamespaceMetadata', {
    name: str,
    generateName: str,
    namespace: str,
    labels: { type: 'object', additionalProperties: str },
    annotations: { type: 'object', additionalProperties: str },
    UID: str,
    creationTimestamp: timestamp,
    deletionGracePeriodSeconds: { type: 'integer' },
    deletionTimestamp: timestamp,
    generation: { type: 'integer' },
    resourceVersion: str,
    finalizers: strings,
  }),
  spec: object('kubernetes.NamespaceSpec', { finalizers: strings }),
  status: object('kubernetes.NamespaceStatus', {
    conditions: {
      type: 'array',
      items: object('kubernetes.NamespaceCondition', {
        status: str,
        type: str,
        lastTransitionTime: timestamp,
        message: str,
        reason: str,
      }),
    },
    phase: str,
  }),
});

/** Which optional variables an admission expression has (kube's `OptionalVariableDeclarations`). */
export interface AdmissionDeclarationOptions {
  /** The policy has a parameter resource: `params`. */
  readonly hasParams?: boolean;
  /**
   * The expression may ask the authorizer: `authorizer` and `authorizer.requestResource`
   * (needs the authorizer library; bind with `authorizerValue`).
   */
  readonly hasAuthorizer?: boolean;
}

/**
 * Admission policies and webhook match conditions: `request` (kube's AdmissionRequest type, its
 * `options` dynamic), `namespaceObject` (kube's Namespace type, `null` for cluster-scoped
 * resources), dynamic `object` and `oldObject` (the resource, `null` when absent: on create and
 * delete respectively), with `hasParams` dynamic `params` (the parameter resource), with
 * `hasAuthorizer` the `authorizer`. For policy `variables` see composition.ts.
 */
export function admissionDeclarations(options: AdmissionDeclarationOptions = {}): CelDeclarations {
  const variables: CelVariable[] = [
    { name: 'object', type: { kind: 'json' } },
    { name: 'oldObject', type: { kind: 'json' } },
    { name: 'namespaceObject', type: { kind: 'schema', schema: NAMESPACE, typeName: 'kubernetes.Namespace' } },
    { name: 'request', type: { kind: 'schema', schema: ADMISSION_REQUEST, typeName: 'kubernetes.AdmissionRequest' } },
  ];
  if (options.hasParams) variables.push({ name: 'params', type: { kind: 'json' } });
  if (options.hasAuthorizer) variables.push({ name: 'authorizer', type: { kind: 'native', celType: AUTHORIZER_TYPE } });
  const suffix = `${options.hasParams ? '-params' : ''}${options.hasAuthorizer ? '-authorizer' : ''}`;
  return { name: `admission${suffix}`, variables };
}

/** {@link admissionDeclarations} with `params`. */
export const ADMISSION_DECLARATIONS: CelDeclarations = admissionDeclarations({ hasParams: true });
