import { comparePathElements, fieldElement, type Path, type PathElement, pathString } from './path-element.js';

/**
 * One element of a `FieldSet` level: the element, whether the field it names is itself a member
 * of the set, and the set of its own fields (never empty when present).
 */
export interface SetEntry {
  readonly pe: PathElement;
  readonly member: boolean;
  readonly children: FieldSet | undefined;
}

/**
 * A set of field paths, stored as a trie keyed by path element: structured-merge-diff's
 * `fieldpath.Set`. A path is a member when its last element is marked `member` at its level; a
 * field can be a member and also have members below it (the `.` entry of `fieldsV1`).
 *
 * Sets are immutable: operations return new sets that may share unchanged sub-tries with their
 * inputs. Build one with `FieldSetBuilder` or `FieldSet.fromPaths`. The empty path is never a
 * member (nobody owns "the whole object").
 */
export class FieldSet {
  static readonly EMPTY: FieldSet = new FieldSet(new Map());

  private sortedCache: readonly SetEntry[] | undefined;

  private constructor(private readonly map: ReadonlyMap<string, SetEntry>) {}

  /** The set holding exactly these paths. */
  static fromPaths(paths: Iterable<Path>): FieldSet {
    const b = new FieldSetBuilder();
    for (const p of paths) b.insert(p);
    return b.build();
  }

  /** A set level from entries; entries that are neither members nor have members are dropped. */
  static fromEntries(entries: Iterable<SetEntry>): FieldSet {
    const map = new Map<string, SetEntry>();
    for (const e of entries) {
      const children = e.children && !e.children.empty ? e.children : undefined;
      if (e.member || children) map.set(e.pe.id, children === e.children ? e : { ...e, children });
    }
    return map.size === 0 ? FieldSet.EMPTY : new FieldSet(map);
  }

  get empty(): boolean {
    return this.map.size === 0;
  }

  /** Number of member paths. */
  get size(): number {
    let n = 0;
    for (const e of this.map.values()) n += (e.member ? 1 : 0) + (e.children ? e.children.size : 0);
    return n;
  }

  /** The entry of element `pe` at this level. */
  get(pe: PathElement): SetEntry | undefined {
    return this.map.get(pe.id);
  }

  /** This level's entries in no particular order (cheaper than `entries()`). */
  unorderedEntries(): Iterable<SetEntry> {
    return this.map.values();
  }

  /** This level's entries in path-element order. */
  entries(): readonly SetEntry[] {
    if (!this.sortedCache) {
      this.sortedCache = [...this.map.values()].sort((a, b) => comparePathElements(a.pe, b.pe));
    }
    return this.sortedCache;
  }

  /** Whether `path` is a member. */
  has(path: Path): boolean {
    if (path.length === 0) return false;
    let level: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) {
      level = level.map.get(path[i].id)?.children;
      if (!level) return false;
    }
    return level.map.get(path[path.length - 1].id)?.member === true;
  }

  /** The members below `pe`, relative to it. */
  withPrefix(pe: PathElement): FieldSet {
    return this.map.get(pe.id)?.children ?? FieldSet.EMPTY;
  }

  /** Paths in either set. */
  union(other: FieldSet): FieldSet {
    if (other.empty) return this;
    if (this.empty) return other;
    const map = new Map(this.map);
    for (const [id, eb] of other.map) {
      const ea = map.get(id);
      if (!ea) map.set(id, eb);
      else if (ea !== eb) {
        const children = ea.children && eb.children ? ea.children.union(eb.children) : (ea.children ?? eb.children);
        map.set(id, { pe: ea.pe, member: ea.member || eb.member, children });
      }
    }
    return new FieldSet(map);
  }

  /** Paths in both sets. */
  intersection(other: FieldSet): FieldSet {
    if (this.empty || other.empty) return FieldSet.EMPTY;
    const out: SetEntry[] = [];
    for (const [id, ea] of this.map) {
      const eb = other.map.get(id);
      if (!eb) continue;
      const children = ea.children && eb.children ? ea.children.intersection(eb.children) : undefined;
      out.push({ pe: ea.pe, member: ea.member && eb.member, children });
    }
    return FieldSet.fromEntries(out);
  }

  /**
   * Paths of this set that are not in `other`. A member of `other` removes only that path, not the
   * paths below it (structured-merge-diff's `Difference`).
   */
  difference(other: FieldSet): FieldSet {
    if (this.empty || other.empty) return this;
    const out: SetEntry[] = [];
    let changed = false;
    for (const [id, ea] of this.map) {
      const eb = other.map.get(id);
      if (!eb) {
        out.push(ea);
        continue;
      }
      changed = true;
      const children = ea.children && eb.children ? ea.children.difference(eb.children) : ea.children;
      out.push({ pe: ea.pe, member: ea.member && !eb.member, children });
    }
    return changed ? FieldSet.fromEntries(out) : this;
  }

  /** Paths of this set that are neither in `other` nor below one of its members. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (this.empty || other.empty) return this;
    const out: SetEntry[] = [];
    let changed = false;
    for (const [id, ea] of this.map) {
      const eb = other.map.get(id);
      if (!eb) {
        out.push(ea);
        continue;
      }
      changed = true;
      if (eb.member) continue;
      const children = ea.children && eb.children ? ea.children.recursiveDifference(eb.children) : ea.children;
      out.push({ pe: ea.pe, member: ea.member, children });
    }
    return changed ? FieldSet.fromEntries(out) : this;
  }

  /** Only the members that have no members below them. */
  leaves(): FieldSet {
    const out: SetEntry[] = [];
    for (const e of this.map.values()) {
      out.push(e.children ? { pe: e.pe, member: false, children: e.children.leaves() } : e);
    }
    return FieldSet.fromEntries(out);
  }

  equals(other: FieldSet): boolean {
    if (this === other) return true;
    if (this.map.size !== other.map.size) return false;
    for (const [id, ea] of this.map) {
      const eb = other.map.get(id);
      if (!eb || ea.member !== eb.member) return false;
      if (ea.children ? !eb.children || !ea.children.equals(eb.children) : eb.children) return false;
    }
    return true;
  }

  /**
   * Every member path, in structured-merge-diff's iteration order: a level's members first (in
   * element order), then the members below each of its elements.
   */
  paths(): Path[] {
    const out: Path[] = [];
    this.collect([], out);
    return out;
  }

  private collect(prefix: PathElement[], out: Path[]): void {
    const entries = this.entries();
    for (const e of entries) if (e.member) out.push([...prefix, e.pe]);
    for (const e of entries) {
      if (!e.children) continue;
      prefix.push(e.pe);
      e.children.collect(prefix, out);
      prefix.pop();
    }
  }

  /** One path per line, as kube's `Set.String`. */
  toString(): string {
    return this.paths().map(pathString).join('\n');
  }
}

interface BuilderNode {
  readonly pe: PathElement;
  member: boolean;
  child: FieldSetBuilder | undefined;
}

/** Accumulates members, then freezes them into a `FieldSet`. */
export class FieldSetBuilder {
  private readonly nodes = new Map<string, BuilderNode>();

  /** Adds `path` (its parents are not added). The empty path is ignored. */
  insert(path: Path): void {
    if (path.length === 0) return;
    let level: FieldSetBuilder = this;
    for (let i = 0; i < path.length - 1; i++) level = level.child(path[i]);
    level.addMember(path[path.length - 1]);
  }

  /** Marks `pe` at this level as a member. */
  addMember(pe: PathElement): void {
    const node = this.nodes.get(pe.id);
    if (node) node.member = true;
    else this.nodes.set(pe.id, { pe, member: true, child: undefined });
  }

  /** The builder of the members below `pe`. */
  child(pe: PathElement): FieldSetBuilder {
    let node = this.nodes.get(pe.id);
    if (!node) {
      node = { pe, member: false, child: undefined };
      this.nodes.set(pe.id, node);
    }
    if (!node.child) node.child = new FieldSetBuilder();
    return node.child;
  }

  build(): FieldSet {
    const entries: SetEntry[] = [];
    for (const n of this.nodes.values()) {
      entries.push({ pe: n.pe, member: n.member, children: n.child?.build() });
    }
    return FieldSet.fromEntries(entries);
  }
}

/**
 * A set of struct-field paths written with dots, e.g. `fieldPathsSet(['status'])` (the reset
 * fields of a main resource with a status sub-resource) or `fieldPathsSet(['metadata.labels'])`.
 */
export function fieldPathsSet(paths: readonly string[]): FieldSet {
  return FieldSet.fromPaths(paths.map((p) => p.split('.').map(fieldElement)));
}
