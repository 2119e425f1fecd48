export { NODE_USER_PREFIX, NODES_GROUP, nodeIdentity } from '../../apis/request/node-identity.js';
export { type GraphHandlers, type GraphPopulatorOptions, graphPopulator } from './graph-populator.js';
export { NodeAuthorizer, type NodeAuthorizerOptions } from './node-authorizer.js';
export { type GraphKind, NodeGraph, type NodeGraphReader } from './node-graph.js';
export { nodeRules, SYSTEM_NODE_ROLE } from './node-rules.js';
export {
  type NamespacedName,
  type PersistentVolumeReferences,
  type PodReferences,
  persistentVolumeReferences,
  podReferences,
} from './object-references.js';
