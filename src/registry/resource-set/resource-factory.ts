import type { Admission } from '../../admission/index.js';
import type { ApiDomain } from '../../apis/api-domain.js';
import { type ResourceDefinition, storageResourceOf } from '../../apis/resource-definition.js';
import { fieldLabelsOf } from '../../apis/selectors/index.js';
import { Cacher } from '../../storage/cacher/index.js';
import { type KeyScheme, resourcePrefix } from '../../storage/keys.js';
import type { Store } from '../../storage/store.js';
import type { Clock } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { CachedObject, RecentBodies, RecentlyDecoded } from '../generic/cached-object.js';
import { ResourceFieldTracking } from '../generic/field-tracking.js';
import { GenericRegistry } from '../generic/generic-registry.js';
import type { RegistryContext } from '../generic/registry-context.js';
import { storedCodec } from '../generic/stored-object.js';
import { VirtualRegistry } from '../generic/virtual-registry.js';
import type { WriteHooks } from '../generic/write-hooks.js';
import type { ServedResource } from './served-resource.js';

/** What every resource's registry shares. */
export interface ResourceFactoryDeps {
  readonly store: Store;
  readonly keys: KeyScheme;
  readonly clock: Clock;
  readonly uid: () => string;
  readonly admission: Admission;
  /** The API domain profile (names of the meta group, annotations). */
  readonly domain: ApiDomain;
  readonly logger?: Logger;
  /** Serve reads and watches from a watch cache per resource (default true). */
  readonly watchCache?: boolean;
  /** Idle watchers that allow bookmarks get one this often. */
  readonly bookmarkIntervalMs?: number;
  /** Feature gate AllowUnsafeMalformedObjectDeletion. */
  readonly allowUnsafeMalformedObjectDeletion?: boolean;
  /** Work around the store writes of some resources (Service allocations); none for the rest. */
  readonly writeHooks?: (def: ResourceDefinition) => WriteHooks | undefined;
}

/** A served resource with its lifecycle: start its watch cache, stop it when removed. */
export interface BuiltResource {
  readonly served: ServedResource;
  /** Starts the watch cache; resolves once it holds the initial list. Aborting `signal` stops it. */
  start(signal: AbortSignal): Promise<void>;
  /** Ends every watcher of the resource with `error`. */
  terminateWatchers(error: unknown): void;
}

export type ResourceFactory = (def: ResourceDefinition) => BuiltResource;

/**
 * The one factory that turns a resource definition into its watch cache, field tracking and
 * generic registry. Built-in kinds and resources added at run time are built the same way.
 */
export function resourceFactory(deps: ResourceFactoryDeps): ResourceFactory {
  return (def) => {
    const fields = new ResourceFieldTracking(def, deps.clock);
    // The stored encoding copies the text of the fieldsV1 the field manager shares between creates.
    const codec = storedCodec(def, fields.fieldManager.createdFieldsJson);
    const cachedType = {
      codec,
      fieldSet: fieldLabelsOf(def).fieldSet,
      namespaced: def.namespaced,
      recent: new RecentlyDecoded(),
      bodies: new RecentBodies(),
    };
    const stored = storageResourceOf(def);
    const cacher =
      deps.watchCache === false || def.virtual
        ? undefined
        : new Cacher<CachedObject>({
            store: deps.store,
            prefix: resourcePrefix(deps.keys, stored.group, stored.resource),
            decode: CachedObject.decoder(cachedType),
            retain: (co) => co.retained(),
            logger: deps.logger ?? silentLogger,
            bookmarkIntervalMs: deps.bookmarkIntervalMs,
          });
    const rc: RegistryContext = {
      def,
      gr: { group: def.group, resource: def.resource },
      store: deps.store,
      codec,
      keys: deps.keys,
      clock: deps.clock,
      uid: deps.uid,
      cacher,
      cachedType,
      fields,
      admission: deps.admission,
      domain: deps.domain,
      allowUnsafeMalformedObjectDeletion: deps.allowUnsafeMalformedObjectDeletion,
      hooks: deps.writeHooks?.(def),
    };
    return {
      served: { def, store: def.virtual ? new VirtualRegistry(rc) : new GenericRegistry(rc), fields, cacher },
      start: (signal) => cacher?.start(signal) ?? Promise.resolve(),
      terminateWatchers: (error) => cacher?.terminateWatchers(error),
    };
  };
}
