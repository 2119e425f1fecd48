import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../apis/meta/object-meta-validation.js';
import type { ApiObject, OwnerReference } from '../../apis/object.js';
import type { ResourceClient } from '../../client/api/api-client.js';

/** Where an object lives: its resource's client (for live reads and writes) and name. */
export interface ObjectIdentity {
  readonly client: ResourceClient;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/** One object as the garbage collector sees it. */
export interface GraphNode {
  readonly identity: ObjectIdentity;
  readonly owners: readonly OwnerReference[];
  /** `deletionTimestamp` is set. */
  readonly beingDeleted: boolean;
  /** Being deleted with `foregroundDeletion`: its dependents go first. */
  readonly deletingDependents: boolean;
  /** Being deleted with `orphan`: its dependents lose their owner reference to it. */
  readonly orphaning: boolean;
}

export function isBeingDeleted(obj: ApiObject): boolean {
  return !!obj.metadata.deletionTimestamp;
}

export function hasFinalizer(obj: ApiObject, finalizer: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(finalizer);
}

export function isDeletingDependents(obj: ApiObject): boolean {
  return isBeingDeleted(obj) && hasFinalizer(obj, FINALIZER_DELETE_DEPENDENTS);
}

const NO_OWNERS: readonly OwnerReference[] = Object.freeze([]);

const BEING_DELETED = 1;
const DELETING_DEPENDENTS = 2;
const ORPHANING = 4;

/**
 * A node and its identity in one object, its states in one number: the graph holds one per
 * object of every resource (100,000 objects: about 5 MB less than two objects with three
 * booleans each).
 */
class Node implements GraphNode, ObjectIdentity {
  constructor(
    readonly client: ResourceClient,
    readonly namespace: string,
    readonly name: string,
    readonly uid: string,
    readonly owners: readonly OwnerReference[],
    private readonly flags: number,
  ) {}

  get identity(): ObjectIdentity {
    return this;
  }

  get beingDeleted(): boolean {
    return (this.flags & BEING_DELETED) !== 0;
  }

  get deletingDependents(): boolean {
    return (this.flags & DELETING_DEPENDENTS) !== 0;
  }

  get orphaning(): boolean {
    return (this.flags & ORPHANING) !== 0;
  }
}

/**
 * Makes graph nodes. Namespace names are kept once each (decoded objects carry their own copy
 * of the same few strings).
 */
export function graphNodes(): (client: ResourceClient, obj: ApiObject) => GraphNode {
  const namespaces = new Map<string, string>();
  const interned = (ns: string): string => {
    const known = namespaces.get(ns);
    if (known !== undefined) return known;
    namespaces.set(ns, ns);
    return ns;
  };
  return (client, obj) => {
    const m = obj.metadata;
    const deleting = isBeingDeleted(obj);
    const flags =
      (deleting ? BEING_DELETED : 0) |
      (isDeletingDependents(obj) ? DELETING_DEPENDENTS : 0) |
      (deleting && hasFinalizer(obj, FINALIZER_ORPHAN_DEPENDENTS) ? ORPHANING : 0);
    return new Node(
      client,
      interned(m.namespace ?? ''),
      m.name ?? '',
      m.uid ?? '',
      // One shared empty list for the many objects without owners (the graph holds every object).
      m.ownerReferences?.length ? [...m.ownerReferences] : NO_OWNERS,
      flags,
    );
  };
}

/**
 * The owner → dependents graph of the objects the informers see, keyed by uid. An owner need not
 * be in the graph for its dependents to be indexed under its uid: that is how dependents of an
 * owner that never existed (or was deleted while nobody watched) are found. So an object with no
 * owner references that is not being deleted is not kept at all (its uid may still index
 * dependents): nothing asks the graph about it, since owners are checked with live reads. Most
 * objects are such objects (100,000 ConfigMaps: about 20 MB less).
 */
export class DependencyGraph {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly dependents = new Map<string, Set<string>>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** Adds or replaces a node; returns the node it replaced. */
  upsert(node: GraphNode): GraphNode | undefined {
    const uid = node.identity.uid;
    const old = this.nodes.get(uid);
    if (old) this.unindex(old);
    if (node.owners.length === 0 && !node.beingDeleted) {
      if (old) this.nodes.delete(uid);
      return old;
    }
    this.nodes.set(uid, node);
    for (const ref of node.owners) {
      let set = this.dependents.get(ref.uid);
      if (!set) {
        set = new Set();
        this.dependents.set(ref.uid, set);
      }
      set.add(uid);
    }
    return old;
  }

  /** Removes a node (its dependents stay indexed under its uid); returns it. */
  remove(uid: string): GraphNode | undefined {
    const old = this.nodes.get(uid);
    if (!old) return undefined;
    this.unindex(old);
    this.nodes.delete(uid);
    return old;
  }

  /** The known dependents of `uid` (objects with an owner reference to it). */
  dependentsOf(uid: string): GraphNode[] {
    const out: GraphNode[] = [];
    for (const d of this.dependents.get(uid) ?? []) {
      const node = this.nodes.get(d);
      if (node) out.push(node);
    }
    return out;
  }

  /** Dependents whose reference to `uid` has `blockOwnerDeletion: true`. */
  blockingDependentsOf(uid: string): GraphNode[] {
    return this.dependentsOf(uid).filter((d) => d.owners.some((r) => r.uid === uid && r.blockOwnerDeletion === true));
  }

  private unindex(node: GraphNode): void {
    for (const ref of node.owners) {
      const set = this.dependents.get(ref.uid);
      if (!set) continue;
      set.delete(node.identity.uid);
      if (set.size === 0) this.dependents.delete(ref.uid);
    }
  }
}
