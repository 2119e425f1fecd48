import type { ApiDomain } from '../api-domain.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { VirtualCreate } from '../resource-definition.js';
import type { Schema } from '../schema/schema.js';
import { selfSubjectReviewSchema, tokenReviewSchema } from './review-schemas.js';

function reviewResource(
  domain: ApiDomain,
  names: { kind: string; resource: string; singular: string },
  schema: Schema,
  virtual: VirtualCreate,
): BuiltinResourceDefinition {
  return {
    group: domain.group('authentication'),
    version: 'v1',
    kind: names.kind,
    listKind: `${names.kind}List`,
    resource: names.resource,
    singular: names.singular,
    namespaced: false,
    shortNames: [],
    categories: [],
    verbs: ['create'],
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema,
    strategy: schemaStrategy({ schema, namespaced: false }),
    virtual,
  };
}

/** `authentication.<domain>/v1` `tokenreviews`: create only; `virtual` authenticates the token. */
export function tokenReviewResource(domain: ApiDomain, virtual: VirtualCreate): BuiltinResourceDefinition {
  return reviewResource(
    domain,
    { kind: 'TokenReview', resource: 'tokenreviews', singular: 'tokenreview' },
    tokenReviewSchema,
    virtual,
  );
}

/** `authentication.<domain>/v1` `selfsubjectreviews`: create only; `virtual` reports the requester. */
export function selfSubjectReviewResource(domain: ApiDomain, virtual: VirtualCreate): BuiltinResourceDefinition {
  return reviewResource(
    domain,
    { kind: 'SelfSubjectReview', resource: 'selfsubjectreviews', singular: 'selfsubjectreview' },
    selfSubjectReviewSchema,
    virtual,
  );
}
