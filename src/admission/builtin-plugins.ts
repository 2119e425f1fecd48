import type { PluginCatalogue } from './admission-options.js';
import { NAMESPACE_LIFECYCLE, type NamespaceLookup, namespaceLifecycle } from './plugins/namespace-lifecycle.js';

/** What the built-in plugins need from the server. */
export interface BuiltinPluginDeps {
  readonly namespaceLookup: NamespaceLookup;
  readonly immortalNamespaces: readonly string[];
  /** Resources created without an existing namespace (the access reviews). */
  readonly namespaceExemptResources?: readonly { readonly group: string; readonly resource: string }[];
}

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
  ],
};

export const BUILTIN_ADMISSION_PLUGIN_NAMES: readonly string[] = BUILTIN_ADMISSION_PLUGINS.ordered.map((p) => p.name);
