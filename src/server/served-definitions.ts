import type { ApiDomain } from '../apis/api-domain.js';
import { builtinResources } from '../apis/builtin.js';
import { serviceAccountTokenSubresource } from '../apis/core/service-account.js';
import type { BuiltinResourceDefinition } from '../apis/meta/builtin-definition.js';
import { apiErrors } from '../apis/meta/status.js';
import type { TokenRequestCreator } from '../authn/service-account/token-request.js';
import type { Authorizer } from '../authz/authorizer.js';
import { authenticationReviewResources, type ReviewAuthentication } from './authentication-reviews.js';
import { authorizationReviewResources } from './authorization-reviews.js';

/** What the review APIs and TokenRequest answer with: the server's authentication and authorizer chain. */
export interface ReviewServices {
  readonly authentication: ReviewAuthentication;
  readonly authorizer: Authorizer;
  /** The `AuthorizeWithSelectors` gate: access reviews pass their selectors to the authorizer. */
  readonly authorizeWithSelectors: boolean;
  /** Issues service-account tokens (`serviceaccounts/<name>/token`); absent when tokens are off. */
  readonly tokenRequests?: TokenRequestCreator;
}

/**
 * Every resource the server can serve under an API domain: the compiled-in kinds (service
 * accounts with their `token` sub-resource) and the review APIs, whose answers come from
 * `services` (read per request, so the definitions can exist before the authenticators,
 * authorizers and token signer are built).
 */
export function servedDefinitions(domain: ApiDomain, services: () => ReviewServices): BuiltinResourceDefinition[] {
  const token = serviceAccountTokenSubresource(domain, (ctx, parent, body, options) => {
    const creator = services().tokenRequests;
    if (!creator) throw apiErrors.serviceUnavailable('service account tokens are not configured');
    return creator.create(ctx, parent, body, options);
  });
  const builtin = builtinResources({ domain }).map((d) =>
    d.group === '' && d.resource === 'serviceaccounts' ? { ...d, subresources: [...d.subresources, token] } : d,
  );
  return [
    ...builtin,
    ...authenticationReviewResources(domain, () => services().authentication),
    ...authorizationReviewResources(domain, services),
  ];
}
