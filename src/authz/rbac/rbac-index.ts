import type { PolicyRule, RoleBinding, Subject } from '../../apis/rbac/rbac-types.js';
import { subjectKey } from './subjects.js';

/** A binding as the index keeps it: where it is, what it grants, to whom. */
export interface IndexedBinding {
  readonly name: string;
  /** Empty for ClusterRoleBindings. */
  readonly namespace: string;
  readonly roleKind: string;
  readonly roleName: string;
  readonly subjects: readonly Subject[];
  /** The index key of each subject (undefined for kinds that grant nothing), computed once. */
  readonly subjectKeys: readonly (string | undefined)[];
}

/** One binding of a user, with the subject through which it applies. */
export interface MatchedBinding {
  readonly binding: IndexedBinding;
  readonly subject: Subject;
}

const clusterKey = (name: string) => name;
const namespacedKey = (namespace: string, name: string) => `${namespace}/${name}`;

/**
 * Roles and bindings, indexed so that a decision reads only the bindings of the requesting user
 * and their groups (never a scan of every binding). Kept current by whoever watches the RBAC
 * resources: `put*` on add and update, `delete*` on delete. Synchronous and not thread-safe by
 * design: JavaScript runs one event at a time, and a decision reads a consistent snapshot.
 */
export class RbacIndex {
  private readonly clusterRoles = new Map<string, readonly PolicyRule[]>();
  private readonly roles = new Map<string, readonly PolicyRule[]>();
  private readonly clusterBindings = new Map<string, IndexedBinding>();
  private readonly roleBindings = new Map<string, IndexedBinding>();
  /** Subject key → names of cluster role bindings granting to it. */
  private readonly clusterBySubject = new Map<string, Set<string>>();
  /** Subject key → namespace → `namespace/name` of role bindings granting to it there. */
  private readonly namespacedBySubject = new Map<string, Map<string, Set<string>>>();

  putClusterRole(name: string, rules: readonly PolicyRule[] | undefined): void {
    this.clusterRoles.set(clusterKey(name), rules ?? []);
  }
  deleteClusterRole(name: string): void {
    this.clusterRoles.delete(clusterKey(name));
  }
  putRole(namespace: string, name: string, rules: readonly PolicyRule[] | undefined): void {
    this.roles.set(namespacedKey(namespace, name), rules ?? []);
  }
  deleteRole(namespace: string, name: string): void {
    this.roles.delete(namespacedKey(namespace, name));
  }

  /** Adds or replaces a ClusterRoleBinding (`namespace` empty) or a RoleBinding. */
  putBinding(b: RoleBinding): void {
    const namespace = b.metadata.namespace ?? '';
    const name = b.metadata.name ?? '';
    this.deleteBinding(namespace, name);
    const indexed: IndexedBinding = {
      name,
      namespace,
      roleKind: b.roleRef?.kind ?? '',
      roleName: b.roleRef?.name ?? '',
      subjects: [...(b.subjects ?? [])],
      subjectKeys: (b.subjects ?? []).map((s) => subjectKey(s, namespace)),
    };
    if (namespace === '') {
      this.clusterBindings.set(name, indexed);
      for (const key of this.keysOf(indexed)) addTo(this.clusterBySubject, key, name);
    } else {
      const k = namespacedKey(namespace, name);
      this.roleBindings.set(k, indexed);
      for (const key of this.keysOf(indexed)) {
        let byNs = this.namespacedBySubject.get(key);
        if (!byNs) {
          byNs = new Map();
          this.namespacedBySubject.set(key, byNs);
        }
        addTo(byNs, namespace, k);
      }
    }
  }

  deleteBinding(namespace: string, name: string): void {
    if (namespace === '') {
      const old = this.clusterBindings.get(name);
      if (!old) return;
      this.clusterBindings.delete(name);
      for (const key of this.keysOf(old)) removeFrom(this.clusterBySubject, key, name);
      return;
    }
    const k = namespacedKey(namespace, name);
    const old = this.roleBindings.get(k);
    if (!old) return;
    this.roleBindings.delete(k);
    for (const key of this.keysOf(old)) {
      const byNs = this.namespacedBySubject.get(key);
      if (!byNs) continue;
      removeFrom(byNs, namespace, k);
      if (byNs.size === 0) this.namespacedBySubject.delete(key);
    }
  }

  /**
   * The bindings that apply to a user with these subject keys: every ClusterRoleBinding, then
   * the RoleBindings of `namespace` (none when it is empty), each once with its first matching
   * subject.
   */
  bindingsFor(keys: readonly string[], namespace: string): MatchedBinding[] {
    const out: MatchedBinding[] = [];
    // A binding naming the user twice (say, by name and by group) is listed once.
    const seen: IndexedBinding[] = [];
    this.someBinding(keys, namespace, (binding) => {
      if (seen.includes(binding)) return false;
      seen.push(binding);
      out.push({ binding, subject: this.subjectFor(binding, keys) as Subject });
      return false;
    });
    return out;
  }

  /**
   * Calls `visit` with each binding that applies to a user with these subject keys (cluster-wide
   * first, then those of `namespace`) until it returns true; a binding naming the user twice may
   * be visited twice. Allocates nothing: the decision path of every request.
   */
  someBinding(keys: readonly string[], namespace: string, visit: (binding: IndexedBinding) => boolean): boolean {
    for (const key of keys) {
      const names = this.clusterBySubject.get(key);
      if (names) {
        for (const name of names) {
          const b = this.clusterBindings.get(name);
          if (b && visit(b)) return true;
        }
      }
    }
    if (!namespace) return false;
    for (const key of keys) {
      const names = this.namespacedBySubject.get(key)?.get(namespace);
      if (names) {
        for (const k of names) {
          const b = this.roleBindings.get(k);
          if (b && visit(b)) return true;
        }
      }
    }
    return false;
  }

  /** The first subject of `binding` among `keys` (which it was found by). */
  subjectFor(binding: IndexedBinding, keys: readonly string[]): Subject | undefined {
    for (let i = 0; i < binding.subjects.length; i++) {
      const k = binding.subjectKeys[i];
      if (k !== undefined && keys.includes(k)) return binding.subjects[i];
    }
    return undefined;
  }

  /** The rules of a binding's role; undefined when the role does not exist (yet). */
  rulesOf(binding: IndexedBinding): readonly PolicyRule[] | undefined {
    if (binding.roleKind === 'ClusterRole') return this.clusterRoles.get(clusterKey(binding.roleName));
    // A RoleBinding's Role lives in the binding's namespace; a ClusterRoleBinding cannot name a Role.
    if (binding.roleKind === 'Role' && binding.namespace) {
      return this.roles.get(namespacedKey(binding.namespace, binding.roleName));
    }
    return undefined;
  }

  private keysOf(b: IndexedBinding): string[] {
    const keys = new Set<string>();
    for (const k of b.subjectKeys) if (k !== undefined) keys.add(k);
    return [...keys];
  }
}

function addTo<K>(map: Map<K, Set<string>>, key: K, value: string): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(value);
}

function removeFrom<K>(map: Map<K, Set<string>>, key: K, value: string): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
