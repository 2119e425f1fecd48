import type { ApiDomain } from '../apis/api-domain.js';
import { StatusError } from '../apis/meta/status.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import type { UserInfo } from '../apis/request/user-info.js';
import type { ResourceSet } from '../registry/resource-set/index.js';

/** Namespaces that exist on every server: `default` and the domain's system, public and node-lease ones. */
export function systemNamespaces(domain: ApiDomain): readonly string[] {
  return ['default', domain.systemNamespace, domain.publicNamespace, domain.nodeLeaseNamespace];
}

/** The API server's own identity for the objects it writes (kube's loopback `system:apiserver`). */
export const API_SERVER_USER: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };

/**
 * Creates the system namespaces that are missing, through the namespaces registry as the API
 * server itself (admission and field manager included); existing ones are left as they are.
 */
export async function ensureSystemNamespaces(
  resources: ResourceSet,
  domain: ApiDomain,
  signal: AbortSignal,
): Promise<void> {
  const namespaces = resources.lookup('', 'v1', 'namespaces');
  if (!namespaces) return;
  for (const name of systemNamespaces(domain)) {
    const ctx = internalRequestContext({
      user: API_SERVER_USER,
      signal,
      verb: 'create',
      group: '',
      version: 'v1',
      resource: 'namespaces',
    });
    try {
      await namespaces.store.create(
        ctx,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        { dryRun: false, fieldManager: domain.apiServerManager },
      );
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    }
  }
}

/** Namespaces that can never be deleted (kube: default, kube-system, kube-public). */
export function immortalNamespaces(domain: ApiDomain): readonly string[] {
  return ['default', domain.systemNamespace, domain.publicNamespace];
}
