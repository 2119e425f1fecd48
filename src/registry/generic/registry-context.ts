import type { Admission } from '../../admission/index.js';
import type { ApiDomain } from '../../apis/api-domain.js';
import type { GroupResource } from '../../apis/meta/status.js';
import { type ResourceDefinition, storageResourceOf } from '../../apis/resource-definition.js';
import type { Cacher } from '../../storage/cacher/index.js';
import { type KeyScheme, namespacePrefix, resourcePrefix } from '../../storage/keys.js';
import type { Store } from '../../storage/store.js';
import type { Clock } from '../../util/clock.js';
import type { CachedObject, CachedObjectType } from './cached-object.js';
import type { ResourceFieldTracking } from './field-tracking.js';
import type { StoredCodec } from './stored-object.js';
import type { WriteHooks } from './write-hooks.js';

/** Everything one generic registry needs, built once per resource at start-up. */
export interface RegistryContext {
  readonly def: ResourceDefinition;
  readonly gr: GroupResource;
  readonly store: Store;
  /** How objects of this definition's version are written to and read from the store. */
  readonly codec: StoredCodec;
  readonly keys: KeyScheme;
  readonly clock: Clock;
  readonly uid: () => string;
  /** Names of the meta group, annotations and such (`orch.io` or `k8s.io` profile). */
  readonly domain: ApiDomain;
  /** Field ownership: writes that name a field manager are recorded in `metadata.managedFields`. */
  readonly fields: ResourceFieldTracking;
  /** Mutating and validating admission, run on every create, update and delete. */
  readonly admission: Admission;
  /** The resource's watch cache: lists, watches and versioned gets are served from it. */
  readonly cacher?: Cacher<CachedObject>;
  /** How stored values of this resource become cached objects (in the cache and in store lists). */
  readonly cachedType: CachedObjectType;
  // --- deletion lifecycle (src/registry/generic/delete*.ts) ---
  /**
   * Feature gate AllowUnsafeMalformedObjectDeletion (default false): honour
   * `ignoreStoreReadErrorWithClusterBreakingPotential` and report corrupt objects in kube's
   * `StorageError: corrupt object` form.
   */
  readonly allowUnsafeMalformedObjectDeletion?: boolean;
  /** Work around the store writes for state kept outside the objects (Service allocations). */
  readonly hooks?: WriteHooks;
}

/** The storage key of an object (under the definition's storage resource, see `storageResourceOf`). */
export function keyFor(rc: RegistryContext, namespace: string, name: string): string {
  // Every cached GET builds a key: no intermediate objects.
  const stored = rc.def.storageResource;
  const prefix = resourcePrefix(
    rc.keys,
    stored ? stored.group : rc.def.group,
    stored ? stored.resource : rc.def.resource,
  );
  return rc.def.namespaced && namespace ? `${prefix}${namespace}/${name}` : `${prefix}${name}`;
}

/** Prefix of a collection: one namespace, or all namespaces when `namespace` is empty. */
export function collectionPrefix(rc: RegistryContext, namespace: string): string {
  const { group, resource } = storageResourceOf(rc.def);
  return rc.def.namespaced && namespace
    ? namespacePrefix(rc.keys, group, resource, namespace)
    : resourcePrefix(rc.keys, group, resource);
}

/**
 * The kind a create's or update's 422 names: kube names its internal type, which for a view of
 * another group's resource is the storing group's kind (kube's internal Event is core's, so
 * writes through events/v1 answer `Event "x" is invalid`).
 */
export function validatedKind(rc: RegistryContext): { group: string; kind: string } {
  return { group: storageResourceOf(rc.def).group, kind: rc.def.kind };
}

/**
 * The storage key of the object last asked for, kept with its namespace and name: a client
 * polling one object (whose names come from the request-info cache, the same strings each time)
 * finds its key without building it again, already hashed for the watch cache's map. One per
 * registry: a key is only valid for its registry context.
 */
export class LastKey {
  private namespace = '';
  private name = '';
  private key = '';

  /** `keyFor(rc, namespace, name)`, kept from the previous call when both are the same. */
  of(rc: RegistryContext, namespace: string, name: string): string {
    if (this.key !== '' && name === this.name && namespace === this.namespace) return this.key;
    const key = keyFor(rc, namespace, name);
    this.namespace = namespace;
    this.name = name;
    this.key = key;
    return key;
  }
}
