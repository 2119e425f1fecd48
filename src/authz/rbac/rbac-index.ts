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

const namespacedKey = (namespace: string, name: string) => `${namespace}/${name}`;

/**
 * Roles and bindings, indexed so that a decision reads only the bindings of the requesting user
 * and their groups (never a scan of every binding). Kept current by whoever watches the RBAC
 * resources: `put*` on add and update, `delete*` on delete. Synchronous and not thread-safe by
 * design: JavaScript runs one event at a time, and a decision reads a consistent snapshot.
 */
export class RbacIndex {
  private readonly clusterRoles = new Map<string, readonly PolicyRule[]>();
  /** Namespace → Role name → rules: no key string is built to find a RoleBinding's Role. */
  private readonly roles = new Map<string, Map<string, readonly PolicyRule[]>>();
  private readonly clusterBindings = new Map<string, IndexedBinding>();
  private readonly roleBindings = new Map<string, IndexedBinding>();
  /**
   * Subject key → the cluster role bindings granting to it. Arrays, not sets: the decision path
   * walks them with an index and so allocates no iterator.
   */
  private readonly clusterBySubject = new Map<string, IndexedBinding[]>();
  /** Subject key → namespace → the role bindings granting to it there. */
  private readonly namespacedBySubject = new Map<string, Map<string, IndexedBinding[]>>();

  putClusterRole(name: string, rules: readonly PolicyRule[] | undefined): void {
    this.clusterRoles.set(name, rules ?? []);
  }
  deleteClusterRole(name: string): void {
    this.clusterRoles.delete(name);
  }
  putRole(namespace: string, name: string, rules: readonly PolicyRule[] | undefined): void {
    let byName = this.roles.get(namespace);
    if (!byName) {
      byName = new Map();
      this.roles.set(namespace, byName);
    }
    byName.set(name, rules ?? []);
  }
  deleteRole(namespace: string, name: string): void {
    const byName = this.roles.get(namespace);
    if (!byName) return;
    byName.delete(name);
    if (byName.size === 0) this.roles.delete(namespace);
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
      for (const key of this.keysOf(indexed)) addTo(this.clusterBySubject, key, indexed);
    } else {
      this.roleBindings.set(namespacedKey(namespace, name), indexed);
      for (const key of this.keysOf(indexed)) {
        let byNs = this.namespacedBySubject.get(key);
        if (!byNs) {
          byNs = new Map();
          this.namespacedBySubject.set(key, byNs);
        }
        addTo(byNs, namespace, indexed);
      }
    }
  }

  deleteBinding(namespace: string, name: string): void {
    if (namespace === '') {
      const old = this.clusterBindings.get(name);
      if (!old) return;
      this.clusterBindings.delete(name);
      for (const key of this.keysOf(old)) removeFrom(this.clusterBySubject, key, old);
      return;
    }
    const k = namespacedKey(namespace, name);
    const old = this.roleBindings.get(k);
    if (!old) return;
    this.roleBindings.delete(k);
    for (const key of this.keysOf(old)) {
      const byNs = this.namespacedBySubject.get(key);
      if (!byNs) continue;
      removeFrom(byNs, namespace, old);
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
    this.findBinding(keys, namespace, collect, { index: this, keys, seen, out });
    return out;
  }

  /**
   * The first binding that applies to a user with these subject keys (cluster-wide first, then
   * those of `namespace`) for which `test(binding, arg)` is true; a binding naming the user
   * twice may be tested twice. Allocates nothing, provided `test` is created once and its
   * state passed as `arg`: this is the decision path of every request.
   */
  findBinding<T>(
    keys: readonly string[],
    namespace: string,
    test: (binding: IndexedBinding, arg: T) => boolean,
    arg: T,
  ): IndexedBinding | undefined {
    for (let i = 0; i < keys.length; i++) {
      const list = this.clusterBySubject.get(keys[i]);
      if (list === undefined) continue;
      for (let j = 0; j < list.length; j++) if (test(list[j], arg)) return list[j];
    }
    if (!namespace) return undefined;
    for (let i = 0; i < keys.length; i++) {
      const list = this.namespacedBySubject.get(keys[i])?.get(namespace);
      if (list === undefined) continue;
      for (let j = 0; j < list.length; j++) if (test(list[j], arg)) return list[j];
    }
    return undefined;
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
    if (binding.roleKind === 'ClusterRole') return this.clusterRoles.get(binding.roleName);
    // A RoleBinding's Role lives in the binding's namespace; a ClusterRoleBinding cannot name a Role.
    if (binding.roleKind === 'Role' && binding.namespace) {
      return this.roles.get(binding.namespace)?.get(binding.roleName);
    }
    return undefined;
  }

  private keysOf(b: IndexedBinding): string[] {
    const keys = new Set<string>();
    for (const k of b.subjectKeys) if (k !== undefined) keys.add(k);
    return [...keys];
  }
}

interface CollectState {
  readonly index: RbacIndex;
  readonly keys: readonly string[];
  readonly seen: IndexedBinding[];
  readonly out: MatchedBinding[];
}

/** `bindingsFor`'s visitor: records each binding once and never stops the walk. */
function collect(binding: IndexedBinding, s: CollectState): boolean {
  if (s.seen.includes(binding)) return false;
  s.seen.push(binding);
  s.out.push({ binding, subject: s.index.subjectFor(binding, s.keys) as Subject });
  return false;
}

function addTo<K>(map: Map<K, IndexedBinding[]>, key: K, value: IndexedBinding): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function removeFrom<K>(map: Map<K, IndexedBinding[]>, key: K, value: IndexedBinding): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.indexOf(value);
  if (i >= 0) list.splice(i, 1);
  if (list.length === 0) map.delete(key);
}
