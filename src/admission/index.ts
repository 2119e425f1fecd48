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
export { NAMESPACE_LIFECYCLE, type NamespaceLookup, namespaceLifecycle } from './plugins/namespace-lifecycle.js';
export { PRIORITY, type PriorityClassLister, priorityPlugin } from './plugins/priority.js';
