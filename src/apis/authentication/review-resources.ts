import type { ApiDomain } from '../api-domain.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { virtualResource } from '../meta/virtual-definition.js';
import type { VirtualCreate } from '../resource-definition.js';
import { selfSubjectReviewSchema, tokenReviewSchema } from './authentication-v1-schemas.js';

/** `authentication.<domain>/v1` `tokenreviews`: create only; `virtual` authenticates the token. */
export function tokenReviewResource(domain: ApiDomain, virtual: VirtualCreate): BuiltinResourceDefinition {
  return virtualResource(
    {
      group: domain.group('authentication'),
      version: 'v1',
      kind: 'TokenReview',
      resource: 'tokenreviews',
      singular: 'tokenreview',
      namespaced: false,
      schema: tokenReviewSchema,
    },
    virtual,
  );
}

/** `authentication.<domain>/v1` `selfsubjectreviews`: create only; `virtual` reports the requester. */
export function selfSubjectReviewResource(domain: ApiDomain, virtual: VirtualCreate): BuiltinResourceDefinition {
  return virtualResource(
    {
      group: domain.group('authentication'),
      version: 'v1',
      kind: 'SelfSubjectReview',
      resource: 'selfsubjectreviews',
      singular: 'selfsubjectreview',
      namespaced: false,
      schema: selfSubjectReviewSchema,
    },
    virtual,
  );
}
