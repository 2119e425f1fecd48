import type { PluginCatalogue } from './admission-options.js';
import { NAMESPACE_LIFECYCLE, type NamespaceLookup, namespaceLifecycle } from './plugins/namespace-lifecycle.js';
import { PRIORITY, type PriorityClassLister, priorityPlugin } from './plugins/priority.js';

/** What the built-in plugins need from the server. */
export interface BuiltinPluginDeps {
  readonly namespaceLookup: NamespaceLookup;
  readonly immortalNamespaces: readonly string[];
  /** Resources created without an existing namespace (the access reviews). */
  readonly namespaceExemptResources?: readonly { readonly group: string; readonly resource: string }[];
  /** The PriorityClasses the `Priority` plugin reads; without it the plugin admits everything. */
  readonly priorityClasses?: PriorityClassLister;
}

const NO_PRIORITY_CLASSES: PriorityClassLister = { group: '', list: async () => [] };

/** Orch's admission plugins, in the order they run. */
export const BUILTIN_ADMISSION_PLUGINS: PluginCatalogue<BuiltinPluginDeps> = {
  ordered: [
    {
      name: NAMESPACE_LIFECYCLE,
      defaultOn: true,
      factory: (d) =>
        namespaceLifecycle({
          lookup: d.namespaceLookup,
          immortal: d.immortalNamespaces,
          exempt: d.namespaceExemptResources,
        }),
    },
    { name: PRIORITY, defaultOn: true, factory: (d) => priorityPlugin(d.priorityClasses ?? NO_PRIORITY_CLASSES) },
  ],
};

export const BUILTIN_ADMISSION_PLUGIN_NAMES: readonly string[] = BUILTIN_ADMISSION_PLUGINS.ordered.map((p) => p.name);
