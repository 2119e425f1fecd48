import type { ApiDomain } from '../../apis/api-domain.js';
import { defaultClusterRoleFacts } from '../../apis/rbac/default-policy.generated.js';
import type { PolicyRule } from '../../apis/rbac/rbac-types.js';

/** The default ClusterRole holding the rules every node gets. */
export const SYSTEM_NODE_ROLE = 'system:node';

/**
 * kube's `NodeRules()`: what the Node authorizer grants every node for the resources it does not
 * subdivide by the graph; the same rules as the default `system:node` ClusterRole (which has no
 * default binding). Group names come from `domain`.
 */
export function nodeRules(domain: ApiDomain): readonly PolicyRule[] {
  const role = defaultClusterRoleFacts(domain).find((r) => r.name === SYSTEM_NODE_ROLE);
  if (!role?.rules) throw new Error(`the default policy has no ${SYSTEM_NODE_ROLE} rules`);
  return role.rules;
}
