import { StatusError } from '../meta/status.js';
import type { SubresourceDefinition } from '../resource-definition.js';

/**
 * `services/<name>/proxy[/<path>]` (kube's ServiceProxyOptions connecter): kube forwards the
 * request to one of the service's endpoints. Orch runs no workloads and forwards nothing, so
 * every request to an existing Service is answered 503 Service Unavailable (the code kube
 * answers when a service has nothing to forward to), saying that no proxy is served; a missing
 * Service is 404.
 */
export function serviceProxySubresource(): SubresourceDefinition {
  return {
    name: 'proxy',
    verbs: ['create', 'delete', 'get', 'patch', 'update'],
    connect: {
      kind: 'ServiceProxyOptions',
      async connect(_ctx, parent) {
        const ref = `${parent.metadata.namespace ?? ''}/${parent.metadata.name ?? ''}`;
        throw new StatusError(
          503,
          'ServiceUnavailable',
          `services/proxy is not served: this API server does not proxy requests to services (service "${ref}")`,
        );
      },
    },
  };
}
