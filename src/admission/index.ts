export type { AdmissionAttributes, Operation } from './admission-attributes.js';
export { AdmissionChain, admitEverything } from './admission-chain.js';
export {
  AdmissionConfigError,
  type AdmissionSelection,
  buildAdmission,
  type PluginCatalogue,
  validateAdmissionSelection,
} from './admission-options.js';
export type { Admission, AdmissionPlugin } from './admission-plugin.js';
export {
  BUILTIN_ADMISSION_PLUGIN_NAMES,
  BUILTIN_ADMISSION_PLUGINS,
  type BuiltinPluginDeps,
} from './builtin-plugins.js';
export {
  DEFAULT_STORAGE_CLASS,
  defaultStorageClass,
  defaultStorageClassPlugin,
  type StorageClassLister,
} from './plugins/default-storage-class.js';
export { DEFAULT_TOLERATION_SECONDS, defaultTolerationSeconds } from './plugins/default-toleration-seconds.js';
export { NAMESPACE_LIFECYCLE, type NamespaceLookup, namespaceLifecycle } from './plugins/namespace-lifecycle.js';
export {
  NODE_RESTRICTION,
  type NodeRestrictionObjects,
  type NodeRestrictionOptions,
  nodeRestriction,
} from './plugins/node-restriction.js';
export { PRIORITY, type PriorityClassLister, priorityPlugin } from './plugins/priority.js';
export { TAINT_NODES_BY_CONDITION, taintNodesByCondition } from './plugins/taint-nodes-by-condition.js';
