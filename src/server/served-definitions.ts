import type { ApiDomain } from '../apis/api-domain.js';
import { builtinResources } from '../apis/builtin.js';
import type { BuiltinResourceDefinition } from '../apis/meta/builtin-definition.js';
import type { Authorizer } from '../authz/authorizer.js';
import { authenticationReviewResources, type ReviewAuthentication } from './authentication-reviews.js';
import { authorizationReviewResources } from './authorization-reviews.js';

/** What the review APIs answer with: the server's authentication and authorizer chain. */
export interface ReviewServices {
  readonly authentication: ReviewAuthentication;
  readonly authorizer: Authorizer;
}

/**
 * Every resource the server can serve under an API domain: the compiled-in kinds and the review
 * APIs, whose answers come from `services` (read per request, so the definitions can exist
 * before the authenticators and authorizers are built).
 */
export function servedDefinitions(domain: ApiDomain, services: () => ReviewServices): BuiltinResourceDefinition[] {
  return [
    ...builtinResources({ domain }),
    ...authenticationReviewResources(domain, () => services().authentication),
    ...authorizationReviewResources(domain, () => services().authorizer),
  ];
}
