import { objectMetaField } from '../meta/object-meta-schema.js';
import { apiVersionField, kindField } from '../meta/type-meta-fields.js';
import { atomicStringListField, booleanField, fieldOf, namedType, pb, stringField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/** OpenAPI definition prefix of the authorization group's v1 kinds. */
const AUTHORIZATION_V1 = 'io.orch.api.authorization.v1';

const requirement = (name: string): Schema =>
  namedType(`${AUTHORIZATION_V1}.${name}`, 'One requirement of a selector.', {
    type: 'object',
    required: ['key', 'operator'],
    properties: {
      key: stringField('The key the requirement applies to.', pb(1)),
      operator: stringField('How the key relates to the values.', pb(2)),
      values: atomicStringListField('The values of the requirement.', pb(3)),
    },
  });

const selectorAttributes = (name: string, requirementName: string, what: string): Schema =>
  namedType(`${AUTHORIZATION_V1}.${name}`, `The ${what} selector of the request being reviewed.`, {
    type: 'object',
    properties: {
      rawSelector: stringField(`The ${what} selector as a query parameter carries it.`, pb(1)),
      requirements: {
        type: 'array',
        items: requirement(requirementName),
        description: `The parsed ${what} selector requirements.`,
        'x-orch-list-type': 'atomic',
        ...pb(2),
      },
    },
  });

const resourceAttributesSchema: Schema = namedType(
  `${AUTHORIZATION_V1}.ResourceAttributes`,
  'The attributes of a resource request to review.',
  {
    type: 'object',
    properties: {
      namespace: stringField('Namespace of the action; empty for cluster-scoped resources or all namespaces.', pb(1)),
      verb: stringField(
        'API verb: get, list, watch, create, update, patch, delete, deletecollection, or a special verb.',
        pb(2),
      ),
      group: stringField('API group of the resource; empty for the core group.', pb(3)),
      version: stringField('API version of the resource.', pb(4)),
      resource: stringField('The resource.', pb(5)),
      subresource: stringField('The sub-resource.', pb(6)),
      name: stringField('Name of the object; empty for all objects.', pb(7)),
      fieldSelector: fieldOf(
        selectorAttributes('FieldSelectorAttributes', 'FieldSelectorRequirement', 'field'),
        'Field selector of a list, watch or deletecollection.',
        pb(8),
      ),
      labelSelector: fieldOf(
        selectorAttributes('LabelSelectorAttributes', 'LabelSelectorRequirement', 'label'),
        'Label selector of a list, watch or deletecollection.',
        pb(9),
      ),
    },
  },
);

const nonResourceAttributesSchema: Schema = namedType(
  `${AUTHORIZATION_V1}.NonResourceAttributes`,
  'The attributes of a request for a path that is not a resource.',
  {
    type: 'object',
    properties: {
      path: stringField('The URL path.', pb(1)),
      verb: stringField('The lower-case HTTP method.', pb(2)),
    },
  },
);

const accessAttributes = {
  resourceAttributes: fieldOf(resourceAttributesSchema, 'Set for a resource request.', pb(1)),
  nonResourceAttributes: fieldOf(nonResourceAttributesSchema, 'Set for a non-resource request.', pb(2)),
};

const subjectAccessReviewSpecSchema: Schema = namedType(
  `${AUTHORIZATION_V1}.SubjectAccessReviewSpec`,
  'A request to review and the user to review it for; exactly one of the attribute fields is set.',
  {
    type: 'object',
    properties: {
      ...accessAttributes,
      user: stringField('The user to test for.', pb(3)),
      groups: atomicStringListField('The groups to test for.', pb(4)),
      extra: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
        description: 'Extra attributes of the user.',
        ...pb(5),
      },
      uid: stringField('The UID of the user.', pb(6)),
    },
  },
);

const selfSubjectAccessReviewSpecSchema: Schema = namedType(
  `${AUTHORIZATION_V1}.SelfSubjectAccessReviewSpec`,
  'A request to review for the requester; exactly one of the attribute fields is set.',
  { type: 'object', properties: accessAttributes },
);

const subjectAccessReviewStatusSchema: Schema = namedType(
  `${AUTHORIZATION_V1}.SubjectAccessReviewStatus`,
  'The decision.',
  {
    type: 'object',
    required: ['allowed'],
    properties: {
      allowed: booleanField('True when the action is allowed.', pb(1)),
      denied: booleanField('True when an authorizer denied the action outright.', pb(4)),
      reason: stringField('Why the action is allowed or denied.', pb(2)),
      evaluationError: stringField('An error an authorizer met; the decision may still be valid.', pb(3)),
    },
  },
);

function reviewSchema(kind: string, description: string, spec: Schema, status: Schema): Schema {
  return namedType(`${AUTHORIZATION_V1}.${kind}`, description, {
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(),
      spec: fieldOf(spec, 'What to review.', pb(2)),
      status: fieldOf(status, 'Filled in by the server.', pb(3)),
    },
  });
}

/** SubjectAccessReview: may this user do this, anywhere? */
export const subjectAccessReviewSchema = reviewSchema(
  'SubjectAccessReview',
  'Checks whether a user or group can perform an action.',
  subjectAccessReviewSpecSchema,
  subjectAccessReviewStatusSchema,
);

/** LocalSubjectAccessReview: the same, within the review's namespace. */
export const localSubjectAccessReviewSchema = reviewSchema(
  'LocalSubjectAccessReview',
  'Checks whether a user or group can perform an action in a namespace.',
  subjectAccessReviewSpecSchema,
  subjectAccessReviewStatusSchema,
);

/** SelfSubjectAccessReview: may I do this? */
export const selfSubjectAccessReviewSchema = reviewSchema(
  'SelfSubjectAccessReview',
  'Checks whether the requester can perform an action.',
  selfSubjectAccessReviewSpecSchema,
  subjectAccessReviewStatusSchema,
);

const resourceRuleSchema: Schema = namedType(`${AUTHORIZATION_V1}.ResourceRule`, 'Actions allowed on resources.', {
  type: 'object',
  required: ['verbs'],
  properties: {
    verbs: atomicStringListField('Verbs allowed; `*` means all.', pb(1)),
    apiGroups: atomicStringListField('API groups; `*` means all.', pb(2)),
    resources: atomicStringListField('Resources; `*` means all, `*/sub` a sub-resource of all.', pb(3)),
    resourceNames: atomicStringListField('Names the rule is limited to; empty means all.', pb(4)),
  },
});

const nonResourceRuleSchema: Schema = namedType(`${AUTHORIZATION_V1}.NonResourceRule`, 'Actions allowed on paths.', {
  type: 'object',
  required: ['verbs'],
  properties: {
    verbs: atomicStringListField('Verbs allowed; `*` means all.', pb(1)),
    nonResourceURLs: atomicStringListField('Paths; a trailing `*` matches any suffix.', pb(2)),
  },
});

const subjectRulesReviewStatusSchema: Schema = namedType(
  `${AUTHORIZATION_V1}.SubjectRulesReviewStatus`,
  'The actions the requester may perform in a namespace.',
  {
    type: 'object',
    required: ['resourceRules', 'nonResourceRules', 'incomplete'],
    properties: {
      resourceRules: {
        type: 'array',
        items: resourceRuleSchema,
        description: 'Rules over resources.',
        'x-orch-list-type': 'atomic',
        ...pb(1),
      },
      nonResourceRules: {
        type: 'array',
        items: nonResourceRuleSchema,
        description: 'Rules over non-resource paths.',
        'x-orch-list-type': 'atomic',
        ...pb(2),
      },
      incomplete: booleanField('True when an authorizer could not list its rules.', pb(3)),
      evaluationError: stringField('An error met while listing the rules.', pb(4)),
    },
  },
);

/** SelfSubjectRulesReview: what may I do in this namespace? */
export const selfSubjectRulesReviewSchema = reviewSchema(
  'SelfSubjectRulesReview',
  'Lists the actions the requester can perform in a namespace.',
  namedType(`${AUTHORIZATION_V1}.SelfSubjectRulesReviewSpec`, 'The namespace to list the rules of.', {
    type: 'object',
    properties: { namespace: stringField('The namespace.', pb(1)) },
  }),
  subjectRulesReviewStatusSchema,
);
