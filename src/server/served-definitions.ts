import type { ApiDomain } from '../apis/api-domain.js';
import { builtinResources } from '../apis/builtin.js';
import { serviceAccountTokenSubresource } from '../apis/core/service-account.js';
import type { BuiltinResourceDefinition } from '../apis/meta/builtin-definition.js';
import { apiErrors } from '../apis/meta/status.js';
import type { TokenRequestCreator } from '../authn/service-account/token-request.js';
import { authenticationReviewResources, type ReviewAuthentication } from './authentication-reviews.js';

/**
 * Every resource the server can serve under an API domain: the compiled-in kinds (service
 * accounts with their `token` sub-resource) and the review APIs, whose answers come from the
 * server's authentication (read per request, as is the TokenRequest creator).
 */
export function servedDefinitions(
  domain: ApiDomain,
  authentication: () => ReviewAuthentication,
  tokenRequests: () => TokenRequestCreator | undefined = () => undefined,
): BuiltinResourceDefinition[] {
  const token = serviceAccountTokenSubresource(domain, (ctx, parent, body, options) => {
    const creator = tokenRequests();
    if (!creator) throw apiErrors.serviceUnavailable('service account tokens are not configured');
    return creator.create(ctx, parent, body, options);
  });
  const builtin = builtinResources({ domain }).map((d) =>
    d.group === '' && d.resource === 'serviceaccounts' ? { ...d, subresources: [...d.subresources, token] } : d,
  );
  return [...builtin, ...authenticationReviewResources(domain, authentication)];
}
