import { type FieldSet, FieldSetBuilder } from '../fieldpath/field-set.js';
import { fieldElement, type PathElement } from '../fieldpath/path-element.js';
import { ItemKeys, isObject } from './list-items.js';
import { isEmptyObject } from './to-field-set.js';
import { fieldType, type ListType, type MapType, resolvePair, resolveType, type TypeNode } from './type-node.js';

/**
 * What changed between two values of a type (structured-merge-diff's `Comparison`): leaves and
 * containers that appeared (`added`), disappeared (`removed`), or leaves (scalars, atomic maps and
 * lists, empty containers) whose value changed (`modified`).
 */
export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

/** Compares `lhs` (before) with `rhs` (after); `undefined` means absent. */
export function compareTyped(lhs: unknown, rhs: unknown, t: TypeNode, keys = new ItemKeys()): Comparison {
  const w = new CompareWalker(keys);
  if (lhs !== undefined || rhs !== undefined) w.compare(lhs, rhs, t);
  return { added: w.added.build(), modified: w.modified.build(), removed: w.removed.build() };
}

/** Deep equality of decoded JSON values (absent and `undefined` keys are the same). */
export function valueEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valueEquals(a[i], b[i])) return false;
    return true;
  }
  if (!isObject(a) || !isObject(b) || Array.isArray(b)) return false;
  let na = 0;
  for (const k in a) {
    if (a[k] === undefined) continue;
    na++;
    if (!valueEquals(a[k], b[k])) return false;
  }
  let nb = 0;
  for (const k in b) if (b[k] !== undefined) nb++;
  return na === nb;
}

class CompareWalker {
  readonly added = new FieldSetBuilder();
  readonly modified = new FieldSetBuilder();
  readonly removed = new FieldSetBuilder();
  private readonly path: PathElement[] = [];

  constructor(private readonly keys: ItemKeys) {}

  compare(lhs: unknown, rhs: unknown, t: TypeNode): void {
    if (lhs === undefined && rhs !== undefined) {
      this.addAll(rhs, t);
      return;
    }
    const [pl, pr] = resolvePair(t, lhs, rhs);
    const tl = lhs === undefined ? undefined : pl;
    const tr = rhs === undefined ? undefined : pr;
    const rt = (tr ?? tl)!;
    let leaf = true;
    if (tl && tr && tl.kind !== tr.kind) this.leaf(lhs, rhs);
    else if (rt.kind === 'scalar' || rt.atomic) this.leaf(lhs, rhs);
    else if (rt.kind === 'map') leaf = this.map(lhs, rhs, rt);
    else leaf = this.list(lhs, rhs, rt);
    if (leaf) return;
    if (lhs === undefined) this.added.insert(this.path);
    else if (rhs === undefined) this.removed.insert(this.path);
  }

  /**
   * `compare(undefined, value)`: everything of a value that appeared is added. One walk down the
   * builder, with no comparison and no path inserted again from the root for each field (a
   * create compares the whole object this way).
   */
  private addAll(value: unknown, t: TypeNode): void {
    const path = this.path;
    let level = this.added;
    for (let i = 0; i < path.length - 1; i++) level = level.child(path[i]!);
    addedAt(value, t, level, path.length > 0 ? path[path.length - 1] : undefined, this.keys);
  }

  private leaf(lhs: unknown, rhs: unknown): void {
    if (lhs === undefined) this.added.insert(this.path);
    else if (rhs === undefined) this.removed.insert(this.path);
    else if (!valueEquals(lhs, rhs)) this.modified.insert(this.path);
  }

  /** Returns whether the map was handled as a leaf. */
  private map(lhs: unknown, rhs: unknown, t: MapType): boolean {
    const lm = isObject(lhs) ? lhs : undefined;
    const rm = isObject(rhs) ? rhs : undefined;
    // Two empty or null maps compare as leaves, which keeps the null/empty distinction.
    if ((!lm || isEmptyObject(lm)) && (!rm || isEmptyObject(rm))) {
      this.leaf(lhs, rhs);
      return true;
    }
    if (lm) for (const key of Object.keys(lm)) this.mapItem(t, key, lm[key], rm?.[key]);
    if (rm)
      for (const key of Object.keys(rm)) if (!lm || lm[key] === undefined) this.mapItem(t, key, undefined, rm[key]);
    return false;
  }

  private mapItem(t: MapType, key: string, l: unknown, r: unknown): void {
    if (l === undefined && r === undefined) return;
    const ft = fieldType(t, key);
    if (!ft) return;
    this.path.push(fieldElement(key));
    this.compare(l, r, ft);
    this.path.pop();
  }

  /** Returns whether the list was handled as a leaf. */
  private list(lhs: unknown, rhs: unknown, t: ListType): boolean {
    const ll = Array.isArray(lhs) ? lhs : undefined;
    const rl = Array.isArray(rhs) ? rhs : undefined;
    if ((!ll || ll.length === 0) && (!rl || rl.length === 0)) {
      this.leaf(lhs, rhs);
      return true;
    }
    const order: PathElement[] = [];
    const left = groupItems(t, ll, order, undefined, this.keys);
    const right = groupItems(t, rl, order, left, this.keys);
    for (const pe of order) {
      const l = left.get(pe.id) ?? [];
      const r = right.get(pe.id) ?? [];
      if (l.length <= 1 && r.length <= 1) {
        this.item(pe, l[0], r[0], t);
      } else if (l.length >= 2 && r.length >= 2) {
        // Duplicates on both sides compare as one atomic value.
        if (l.length !== r.length || l.some((v, i) => !valueEquals(v, r[i]))) this.insertAt(this.modified, pe);
      } else if (l.length >= 2) {
        if (r.length > 0) this.item(pe, undefined, r[0], t);
        this.insertAt(this.removed, pe);
      } else {
        if (l.length > 0) this.item(pe, l[0], undefined, t);
        this.insertAt(this.added, pe);
      }
    }
    return false;
  }

  private item(pe: PathElement, l: unknown, r: unknown, t: ListType): void {
    this.path.push(pe);
    this.compare(l, r, t.element);
    this.path.pop();
  }

  private insertAt(b: FieldSetBuilder, pe: PathElement): void {
    this.path.push(pe);
    b.insert(this.path);
    this.path.pop();
  }
}

/** Items grouped by path element; elements not yet in `order` (nor in `known`) are appended. */
function groupItems(
  t: ListType,
  list: unknown[] | undefined,
  order: PathElement[],
  known: Map<string, unknown[]> | undefined,
  keys: ItemKeys,
): Map<string, unknown[]> {
  const groups = new Map<string, unknown[]>();
  for (const item of list ?? []) {
    const pe = keys.element(t, item);
    if (!pe) continue;
    const group = groups.get(pe.id);
    if (group) group.push(item);
    else {
      groups.set(pe.id, [item]);
      if (!known?.has(pe.id)) order.push(pe);
    }
  }
  return groups;
}

/**
 * What {@link CompareWalker} adds for a value compared with nothing, at element `pe` of the level
 * `parent` (`pe` undefined: the root, never a member itself): the value's path, and for a
 * non-atomic map or list that is not empty, every field or item below it, each added the same
 * way; an item whose key repeats in the list is added alone, as the walker adds duplicates.
 */
function addedAt(
  value: unknown,
  t: TypeNode,
  parent: FieldSetBuilder,
  pe: PathElement | undefined,
  keys: ItemKeys,
): void {
  const rt = resolveType(t, value);
  if (rt.kind === 'map' && !rt.atomic && isObject(value) && !isEmptyObject(value)) {
    const self = pe ? parent.child(pe) : parent;
    for (const key of Object.keys(value)) {
      const v = value[key];
      if (v === undefined) continue;
      const ft = fieldType(rt, key);
      if (ft) addedAt(v, ft, self, fieldElement(key), keys);
    }
  } else if (rt.kind === 'list' && !rt.atomic && Array.isArray(value) && value.length > 0) {
    const self = pe ? parent.child(pe) : parent;
    const order: PathElement[] = [];
    const groups = groupItems(rt, value, order, undefined, keys);
    for (const item of order) {
      const group = groups.get(item.id)!;
      if (group.length === 1) addedAt(group[0], rt.element, self, item, keys);
      else self.addMember(item);
    }
  }
  if (pe) parent.addMember(pe);
}
