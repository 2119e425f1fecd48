import type { ResourceDefinition } from '../../apis/resource-definition.js';
import type { Cacher } from '../../storage/cacher/index.js';
import type { CachedObject } from '../generic/cached-object.js';
import type { ResourceFieldTracking } from '../generic/field-tracking.js';
import type { ResourceStore } from '../types.js';

/** One served resource: its definition and the registry every writer and reader goes through. */
export interface ServedResource {
  readonly def: ResourceDefinition;
  /** The generic registry: field manager, admission, strategy, watch cache, store. */
  readonly store: ResourceStore;
  /** The resource's field manager and reset fields (server-side apply computes ownership itself). */
  readonly fields: ResourceFieldTracking;
  /** The resource's watch cache, when it has one. */
  readonly cacher?: Cacher<CachedObject>;
}
