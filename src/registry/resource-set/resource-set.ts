import { setMaxListeners } from 'node:events';
import { apiErrors } from '../../apis/meta/status.js';
import type { ResourceDefinition } from '../../apis/resource-definition.js';
import type { BuiltResource, ResourceFactory } from './resource-factory.js';
import type { ServedResource } from './served-resource.js';

export interface ResourceSetChange {
  readonly type: 'added' | 'removed';
  readonly resource: ServedResource;
}

export type ResourceSetListener = (change: ResourceSetChange) => void;

interface Entry {
  readonly built: BuiltResource;
  readonly stop: AbortController;
}

/**
 * The resources the server serves, indexed by group, version and resource name. Resources are
 * added and removed while serving; discovery, OpenAPI and informers subscribe to the changes.
 * Readers see the set as it is at the moment they look: a removed resource answers 404 from
 * then on.
 */
export class ResourceSet {
  private readonly byPath = new Map<string, Entry>();
  private ordered: ServedResource[] = [];
  private readonly listeners = new Set<ResourceSetListener>();
  private changes = 0;
  /** The last resource `lookup` found: a run of requests to one resource builds no map key. */
  private last: { group: string; version: string; resource: string; served: ServedResource } | undefined;

  constructor(
    private readonly factory: ResourceFactory,
    /** Stops every resource's watch cache when it aborts. */
    private readonly lifetime: AbortSignal,
  ) {
    // One listener per served resource, by design: not a leak for Node to warn about.
    setMaxListeners(0, lifetime);
  }

  /**
   * Builds a definition's registry through the factory, starts its watch cache (resolves once
   * it holds the initial list), then serves it and tells the subscribers.
   * @throws Error when the group, version and resource are served already.
   */
  async add(def: ResourceDefinition): Promise<ServedResource> {
    const key = pathKey(def.group, def.version, def.resource);
    if (this.byPath.has(key)) throw new Error(`resource ${key} is served already`);
    const built = this.factory(def);
    const stop = new AbortController();
    const onLifetimeEnd = () => stop.abort();
    this.lifetime.addEventListener('abort', onLifetimeEnd, { once: true });
    stop.signal.addEventListener('abort', () => this.lifetime.removeEventListener('abort', onLifetimeEnd), {
      once: true,
    });
    if (!this.lifetime.aborted) await built.start(stop.signal);
    if (this.byPath.has(key)) {
      stop.abort();
      throw new Error(`resource ${key} is served already`);
    }
    this.byPath.set(key, { built, stop });
    this.last = undefined;
    this.ordered = [...this.ordered, built.served];
    this.changed({ type: 'added', resource: built.served });
    return built.served;
  }

  /**
   * Stops serving a resource: it answers 404 from now on, its watchers end with an ERROR event
   * (410 Gone) and its watch cache stops. Stored objects stay in the store. False when it was
   * not served.
   */
  remove(group: string, version: string, resource: string): boolean {
    const key = pathKey(group, version, resource);
    const entry = this.byPath.get(key);
    if (!entry) return false;
    this.byPath.delete(key);
    this.last = undefined;
    this.ordered = this.ordered.filter((r) => r !== entry.built.served);
    const gr = group ? `${resource}.${group}` : resource;
    entry.built.terminateWatchers(apiErrors.gone(`the resource ${gr}/${version} is no longer served`));
    entry.stop.abort();
    this.changed({ type: 'removed', resource: entry.built.served });
    return true;
  }

  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    const last = this.last;
    if (last !== undefined && last.resource === resource && last.version === version && last.group === group)
      return last.served;
    const served = this.byPath.get(pathKey(group, version, resource))?.built.served;
    if (served !== undefined) this.last = { group, version, resource, served };
    return served;
  }

  /** Every served resource, in the order added. The array is not changed later (a new one replaces it). */
  all(): readonly ServedResource[] {
    return this.ordered;
  }

  /** Group names in serving order; the core group is the empty string. */
  groups(): string[] {
    return [...new Set(this.ordered.map((r) => r.def.group))];
  }

  versionsOf(group: string): string[] {
    return [...new Set(this.ordered.filter((r) => r.def.group === group).map((r) => r.def.version))];
  }

  inGroupVersion(group: string, version: string): ServedResource[] {
    return this.ordered.filter((r) => r.def.group === group && r.def.version === version);
  }

  /** Counts the changes so far: documents derived from the set are current while it is unchanged. */
  get generation(): number {
    return this.changes;
  }

  /** Calls `listener` after every change, until the returned function is called. */
  subscribe(listener: ResourceSetListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(change: ResourceSetChange): void {
    this.changes++;
    for (const l of [...this.listeners]) l(change);
  }
}

function pathKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}
