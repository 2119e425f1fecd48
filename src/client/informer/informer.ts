import type { ApiObject } from '../../apis/object.js';
import type { ApiResource, SharedObject } from '../api/api-client.js';

/** Callbacks for changes an informer observes; they run synchronously and must not throw. */
export interface InformerHandlers {
  onAdd?(obj: ApiObject): void;
  /**
   * True when `onAdd` would do nothing with this shared object (told without decoding it, see
   * `SharedObject.mentions`): the add is not delivered to this handler, and an object no handler
   * wants is not decoded.
   */
  ignoresAdd?(shared: SharedObject): boolean;
  onUpdate?(oldObj: ApiObject, newObj: ApiObject): void;
  onDelete?(obj: ApiObject): void;
}

/**
 * A local cache of one resource kept current by list+watch, with change callbacks (client-go's
 * shared informer). Objects handed out are shared: never modify them (clone first).
 */
export interface Informer {
  readonly resource: ApiResource;
  /** Adds handlers; objects already cached reach a late handler as adds first. */
  addHandlers(h: InformerHandlers): void;
  /** True once the first list has been delivered. */
  hasSynced(): boolean;
  /** Resolves after the first list has been delivered. */
  synced(): Promise<void>;
  /** The cached objects (all namespaces, or one). */
  list(namespace?: string): ApiObject[];
  get(namespace: string, name: string): ApiObject | undefined;
}

/** The informers controllers share: one per served group/resource that can be listed and watched. */
export interface SharedInformers {
  /** The informer of a group/resource (any version); undefined when not served. */
  lookup(group: string, resource: string): Informer | undefined;
  /** Every informer now. */
  all(): readonly Informer[];
  /** Calls `listener` for every informer added later (resources served later). */
  onAdded(listener: (informer: Informer) => void): void;
  /**
   * Resolves once every informer has listed, or after `timeoutMs`, or when `signal` aborts;
   * true when all listed.
   */
  waitForSync(timeoutMs: number, signal: AbortSignal): Promise<boolean>;
}
