import type { Schema } from '../apis/schema/schema.js';
import type { CelDeclarations, CelVariableType } from './cel-environment.js';

/**
 * The variables of each use of CEL, declared once, with kube-apiserver's names and types. Pass
 * them to `CelEnvironmentSet#extend`.
 */

/**
 * Custom resource validation rules (`x-orch-validations`) on the schema node `schema`: `self`, and
 * `oldSelf` for transition rules, both of the node's type. `isResourceRoot` for the root of the
 * resource (then `apiVersion`, `kind`, `metadata.name` and `metadata.generateName` are always
 * accessible).
 */
export function crdValidationDeclarations(schema: Schema, options: { isResourceRoot?: boolean } = {}): CelDeclarations {
  const type: CelVariableType = {
    kind: 'schema',
    schema,
    typeName: 'selfType',
    isResourceRoot: options.isResourceRoot,
  };
  return {
    name: 'crd-validation',
    variables: [
      { name: 'self', type },
      { name: 'oldSelf', type },
    ],
  };
}

const str: Schema = { type: 'string' };
const strings: Schema = { type: 'array', items: str };
const object = (name: string, properties: Record<string, Schema>): Schema => ({
  type: 'object',
  'x-orch-type-name': name,
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
});

/**
 * Admission policies and webhook match conditions: `request` (typed as kube's AdmissionRequest),
 * and, dynamic, `object` and `oldObject` (the resource, `null` when absent: on create and delete
 * respectively), `params` (the policy's parameter resource) and `namespaceObject`.
 */
export const ADMISSION_DECLARATIONS: CelDeclarations = {
  name: 'admission',
  variables: [
    { name: 'object', type: { kind: 'json' } },
    { name: 'oldObject', type: { kind: 'json' } },
    { name: 'request', type: { kind: 'schema', schema: ADMISSION_REQUEST, typeName: 'kubernetes.AdmissionRequest' } },
    { name: 'params', type: { kind: 'json' } },
    { name: 'namespaceObject', type: { kind: 'json' } },
  ],
};
