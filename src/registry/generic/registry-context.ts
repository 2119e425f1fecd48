import type { GroupResource } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { ResourceDefinition } from '../../apis/resource-definition.js';
import type { Cacher } from '../../storage/cacher/index.js';
import { type KeyScheme, namespacePrefix, objectKey, resourcePrefix } from '../../storage/keys.js';
import type { Store } from '../../storage/store.js';
import type { Clock } from '../../util/clock.js';

/** Looks up a namespace object (undefined when it does not exist). */
export type NamespaceLookup = (name: string, signal: AbortSignal) => Promise<ApiObject | undefined>;

/** Everything one generic registry needs, built once per resource at start-up. */
export interface RegistryContext {
  readonly def: ResourceDefinition;
  readonly gr: GroupResource;
  readonly store: Store;
  readonly keys: KeyScheme;
  readonly clock: Clock;
  readonly uid: () => string;
  /** Unset for cluster-scoped resources and for the namespaces resource itself. */
  readonly namespaceLookup?: NamespaceLookup;
  /** The resource's watch cache: lists, watches and versioned gets are served from it. */
  readonly cacher?: Cacher<ApiObject>;
  // --- deletion lifecycle (src/registry/generic/delete*.ts) ---
  /**
   * Feature gate AllowUnsafeMalformedObjectDeletion (default false): honour
   * `ignoreStoreReadErrorWithClusterBreakingPotential` and report corrupt objects in kube's
   * `StorageError: corrupt object` form.
   */
  readonly allowUnsafeMalformedObjectDeletion?: boolean;
  /**
   * Kind-specific finalization that must be complete before an object whose deletion started is
   * removed, beyond `metadata.finalizers` (a namespace's `spec.finalizers`). True = keep it.
   */
  readonly pendingFinalization?: (obj: ApiObject) => boolean;
}

export function keyFor(rc: RegistryContext, namespace: string, name: string): string {
  return objectKey(rc.keys, {
    group: rc.def.group,
    resource: rc.def.resource,
    namespace: rc.def.namespaced ? namespace : undefined,
    name,
  });
}

/** Prefix of a collection: one namespace, or all namespaces when `namespace` is empty. */
export function collectionPrefix(rc: RegistryContext, namespace: string): string {
  return rc.def.namespaced && namespace
    ? namespacePrefix(rc.keys, rc.def.group, rc.def.resource, namespace)
    : resourcePrefix(rc.keys, rc.def.group, rc.def.resource);
}
