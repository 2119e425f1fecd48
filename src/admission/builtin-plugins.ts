import { type ApiDomain, ORCH_DOMAIN } from '../apis/api-domain.js';
import type { PluginCatalogue } from './admission-options.js';
import {
  DEFAULT_STORAGE_CLASS,
  defaultStorageClassPlugin,
  type StorageClassLister,
} from './plugins/default-storage-class.js';
import { DEFAULT_TOLERATION_SECONDS, defaultTolerationSeconds } from './plugins/default-toleration-seconds.js';
import { NAMESPACE_LIFECYCLE, type NamespaceLookup, namespaceLifecycle } from './plugins/namespace-lifecycle.js';
import { NODE_RESTRICTION, type NodeRestrictionObjects, nodeRestriction } from './plugins/node-restriction.js';
import { PRIORITY, type PriorityClassLister, priorityPlugin } from './plugins/priority.js';
import { TAINT_NODES_BY_CONDITION, taintNodesByCondition } from './plugins/taint-nodes-by-condition.js';

/** What the built-in plugins need from the server. */
export interface BuiltinPluginDeps {
  /** A current read of namespaces. */
  readonly namespaceLookup: NamespaceLookup;
  /** A read of namespaces from the watch cache, tried first (see namespaceLifecycle). */
  readonly cachedNamespaceLookup?: NamespaceLookup;
  readonly immortalNamespaces: readonly string[];
  /** Resources created without an existing namespace (the access reviews). */
  readonly namespaceExemptResources?: readonly { readonly group: string; readonly resource: string }[];
  /** The PriorityClasses the `Priority` plugin reads; without it there are none. */
  readonly priorityClasses?: PriorityClassLister;
  /** The StorageClasses the `DefaultStorageClass` plugin reads; without it the plugin admits everything. */
  readonly storageClasses?: StorageClassLister;
  /** Names of the node taint keys; default `orch.io`. */
  readonly domain?: ApiDomain;
  /** The pods and nodes `NodeRestriction` reads; without them every pod and node is missing. */
  readonly nodeRestrictionObjects?: NodeRestrictionObjects;
}

const NO_PRIORITY_CLASSES: PriorityClassLister = { group: '', list: async () => [] };
const NO_NODE_OBJECTS: NodeRestrictionObjects = { pod: async () => undefined, node: async () => undefined };

const nodeTaint = (d: BuiltinPluginDeps, name: string) => (d.domain ?? ORCH_DOMAIN).key('node', name);

/** Orch's admission plugins, in the order they run (kube's recommended order). */
export const BUILTIN_ADMISSION_PLUGINS: PluginCatalogue<BuiltinPluginDeps> = {
  ordered: [
    {
      name: NAMESPACE_LIFECYCLE,
      defaultOn: true,
      factory: (d) =>
        namespaceLifecycle({
          lookup: d.namespaceLookup,
          cachedLookup: d.cachedNamespaceLookup,
          immortal: d.immortalNamespaces,
          exempt: d.namespaceExemptResources,
        }),
    },
    {
      name: NODE_RESTRICTION,
      defaultOn: false,
      factory: (d) =>
        nodeRestriction({ domain: d.domain ?? ORCH_DOMAIN, objects: d.nodeRestrictionObjects ?? NO_NODE_OBJECTS }),
    },
    {
      name: TAINT_NODES_BY_CONDITION,
      defaultOn: true,
      factory: (d) => taintNodesByCondition(nodeTaint(d, 'not-ready')),
    },
    { name: PRIORITY, defaultOn: true, factory: (d) => priorityPlugin(d.priorityClasses ?? NO_PRIORITY_CLASSES) },
    {
      name: DEFAULT_TOLERATION_SECONDS,
      defaultOn: true,
      factory: (d) =>
        defaultTolerationSeconds({ notReady: nodeTaint(d, 'not-ready'), unreachable: nodeTaint(d, 'unreachable') }),
    },
    {
      name: DEFAULT_STORAGE_CLASS,
      defaultOn: true,
      factory: (d) =>
        defaultStorageClassPlugin(
          d.storageClasses ?? { defaultAnnotations: [], claimClassAnnotation: '', list: async () => [] },
        ),
    },
  ],
};

export const BUILTIN_ADMISSION_PLUGIN_NAMES: readonly string[] = BUILTIN_ADMISSION_PLUGINS.ordered.map((p) => p.name);
