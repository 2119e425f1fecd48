import { GenericRegistry } from '../generic/generic-registry.js';
import type { RegistryContext } from '../generic/registry-context.js';
import { NamespaceRegistry } from './namespaces/namespace-registry.js';

export { IMMORTAL_NAMESPACES } from './namespaces/namespace-delete.js';
export { NamespaceRegistry } from './namespaces/namespace-registry.js';

/**
 * The registry of one resource: the generic one, or a resource's own where kube has special
 * behaviour (core/v1 namespaces). Use this instead of `new GenericRegistry(rc)`.
 */
export function createRegistry(rc: RegistryContext): GenericRegistry {
  if (rc.def.group === '' && rc.def.resource === 'namespaces') return new NamespaceRegistry(rc);
  return new GenericRegistry(rc);
}
