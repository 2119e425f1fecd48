import type { ApiDomain } from '../apis/api-domain.js';
import { builtinResources } from '../apis/builtin.js';
import type { BuiltinResourceDefinition } from '../apis/meta/builtin-definition.js';
import { authenticationReviewResources, type ReviewAuthentication } from './authentication-reviews.js';

/**
 * Every resource the server can serve under an API domain: the compiled-in kinds and the review
 * APIs, whose answers come from the server's authentication (read per request).
 */
export function servedDefinitions(
  domain: ApiDomain,
  authentication: () => ReviewAuthentication,
): BuiltinResourceDefinition[] {
  return [...builtinResources({ domain }), ...authenticationReviewResources(domain, authentication)];
}
