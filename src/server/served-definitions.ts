import { schemaRulesChecks } from '../apiextensions/schema-rules.js';
import type { ApiDomain } from '../apis/api-domain.js';
import { customResourceDefinitionResource } from '../apis/apiextensions/crd-resource.js';
import { builtinResources } from '../apis/builtin.js';
import { bindingsResource, podServerSubresources } from '../apis/core/pod-resources.js';
import { serviceAccountTokenSubresource } from '../apis/core/service-account.js';
import type { BuiltinResourceDefinition } from '../apis/meta/builtin-definition.js';
import { apiErrors } from '../apis/meta/status.js';
import type { SubresourceDefinition } from '../apis/resource-definition.js';
import type { TokenRequestCreator } from '../authn/service-account/token-request.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import { nodeProxyConnect, podConnect } from '../registry/resources/pods/node-agent.js';
import { legacyBindingCreate, podBindingCreate } from '../registry/resources/pods/pod-binding.js';
import { podEvictionCreate } from '../registry/resources/pods/pod-eviction.js';
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
  /** The served resources, which pod bindings, evictions and the node-agent sub-resources reach. */
  readonly resources?: ResourceSet;
}

/**
 * Every resource the server can serve under an API domain: the compiled-in kinds (service
 * accounts with their `token` sub-resource) and the review APIs, whose answers come from
 * `services` (read per request, so the definitions can exist before the authenticators,
 * authorizers and token signer are built).
 */
export function servedDefinitions(
  domain: ApiDomain,
  services: () => ReviewServices,
  options: { readonly coordinatedLeaderElection?: boolean } = {},
): BuiltinResourceDefinition[] {
  const token = serviceAccountTokenSubresource(domain, (ctx, parent, body, options) => {
    const creator = services().tokenRequests;
    if (!creator) throw apiErrors.serviceUnavailable('service account tokens are not configured');
    return creator.create(ctx, parent, body, options);
  });
  const resources = () => services().resources;
  const podSubresources = podServerSubresources({
    binding: podBindingCreate({ resources }),
    eviction: podEvictionCreate({ resources, domain }),
    connect: (subresource) => podConnect(resources, subresource),
    nodeProxy: nodeProxyConnect(),
  });
  const extra: Record<string, readonly SubresourceDefinition[]> = {
    serviceaccounts: [token],
    pods: podSubresources.pods,
    nodes: podSubresources.nodes,
  };
  const builtin = builtinResources({ domain, coordinatedLeaderElection: options.coordinatedLeaderElection }).map((d) =>
    d.group === '' && extra[d.resource] ? { ...d, subresources: [...d.subresources, ...extra[d.resource]] } : d,
  );
  return [
    ...builtin,
    bindingsResource(legacyBindingCreate({ resources })),
    ...authenticationReviewResources(domain, () => services().authentication),
    ...authorizationReviewResources(domain, services),
    customResourceDefinitionResource(domain, { rules: schemaRulesChecks() }),
  ];
}
