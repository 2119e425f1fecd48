import type { JsonObject } from '../../apis/object.js';
import type { FieldSet } from '../fieldpath/field-set.js';
import { comparePathElements, fieldElement, type PathElement } from '../fieldpath/path-element.js';
import { valueEquals } from './compare.js';
import { type ItemKeys, isObject } from './list-items.js';
import { isEmptyObject } from './to-field-set.js';
import { fieldType, type ListType, type MapType, resolveType, type TypeNode } from './type-node.js';

/** One element of a level being built: whether it is a member, and what is below it. */
interface Entry {
  readonly pe: PathElement;
  /** The field's rank among its struct's declared fields (`MapType.fieldRanks`), else -1. */
  readonly rank: number;
  member: boolean;
  children: Entry[] | undefined;
}

/** What a create of `obj` gives its writer, as `fieldsV1`; `undefined` when that is nothing. */
export type CreatedFields = { readonly fieldsV1: JsonObject | undefined };

/** A shape the one-walk comparison leaves to the general path. */
const UNDECIDED = Symbol('undecided');

/**
 * The fields the writer of a create owns, as `fieldsV1`, in one walk of the new object: what
 * comparing the kind's zero object (`zero`: `{apiVersion, kind, metadata: {}}`, and for some kinds
 * empty structs such as `spec: {}` or null lists) with `obj` reports as added or modified, less
 * `reset` (with everything below its members), and with the fields kube never records taken out
 * as members (`apiVersion`, `kind`, `metadata`, and `stripped` below metadata). The same set the
 * general path (`compareTyped`, set algebra, `toFieldsV1`) computes, without building its sets.
 *
 * Returns undefined when a part of the zero object is one this walk does not compare (a
 * non-empty list, or a schema-less node): the caller then takes the general path.
 */
export function createdFields(
  obj: Record<string, unknown>,
  zero: Record<string, unknown>,
  t: TypeNode,
  keys: ItemKeys,
  reset: FieldSet | undefined,
  stripped: ReadonlySet<string>,
): CreatedFields | undefined {
  const root = compared(undefined, -1, zero, obj, t, keys);
  if (root === UNDECIDED) return undefined;
  let entries = root?.children ?? [];
  for (const e of entries) {
    const name = e.pe.kind === 'field' ? e.pe.name : '';
    if (name === 'apiVersion' || name === 'kind') e.member = false;
    else if (name === 'metadata') {
      e.member = false;
      if (e.children)
        for (const m of e.children) if (m.pe.kind === 'field' && stripped.has(m.pe.name)) m.member = false;
      const kept = e.children && nonEmpty(e.children);
      e.children = kept && kept.length > 0 ? kept : undefined;
    }
  }
  entries = nonEmpty(entries);
  if (reset) entries = withoutReset(entries, reset);
  return { fieldsV1: entries.length === 0 ? undefined : levelObject(entries) };
}

/** The entries that are members or have members below them. */
function nonEmpty(entries: Entry[]): Entry[] {
  const out = entries.filter((e) => e.member || e.children !== undefined);
  return out.length === entries.length ? entries : out;
}

/**
 * `compareTyped(lhs, rhs)` where `rhs` is defined, as an entry at element `pe` (undefined: the
 * root): its added and modified paths. `lhs` is a part of a zero object.
 */
function compared(
  pe: PathElement | undefined,
  rank: number,
  lhs: unknown,
  rhs: unknown,
  t: TypeNode,
  keys: ItemKeys,
): Entry | undefined | typeof UNDECIDED {
  if (lhs === undefined) return added(pe as PathElement, rank, rhs, t, keys);
  if (t.kind === 'deduced') return UNDECIDED;
  if (t.kind === 'scalar' || t.atomic) return leaf(pe, rank, lhs, rhs);
  let children: Entry[] | undefined;
  if (t.kind === 'map') {
    const lm = isObject(lhs) ? lhs : undefined;
    const rm = isObject(rhs) ? rhs : undefined;
    if ((!lm || isEmptyObject(lm)) && (!rm || isEmptyObject(rm))) return leaf(pe, rank, lhs, rhs);
    if (!rm) return undefined;
    for (const key of Object.keys(rm)) {
      const r = rm[key];
      if (r === undefined) continue;
      const ft = fieldType(t, key);
      if (!ft) continue;
      const c = compared(elementOf(t, key), t.fieldRanks?.get(key) ?? -1, lm?.[key], r, ft, keys);
      if (c === UNDECIDED) return UNDECIDED;
      if (!c) continue;
      if (children) children.push(c);
      else children = [c];
    }
  } else {
    const ll = Array.isArray(lhs) ? lhs : undefined;
    const rl = Array.isArray(rhs) ? rhs : undefined;
    if ((!ll || ll.length === 0) && (!rl || rl.length === 0)) return leaf(pe, rank, lhs, rhs);
    if (ll && ll.length > 0) return UNDECIDED;
    if (!rl) return undefined;
    children = addedItems(rl, t, keys);
  }
  // Present on both sides: not a member itself, only what changed below it.
  return children && children.length > 0 ? { pe: pe as PathElement, rank, member: false, children } : undefined;
}

/** `lhs` and `rhs` compared as leaves: an entry when they differ. */
function leaf(pe: PathElement | undefined, rank: number, lhs: unknown, rhs: unknown): Entry | undefined {
  return valueEquals(lhs, rhs) ? undefined : { pe: pe as PathElement, rank, member: true, children: undefined };
}

/** The path element of `key` in `t`: a declared field's own, else a new one. */
function elementOf(t: MapType, key: string): PathElement {
  return t.fieldElements?.get(key) ?? fieldElement(key);
}

/** A value that appeared: its path, and for a granular map or list that is not empty, all below. */
function added(pe: PathElement, rank: number, value: unknown, t: TypeNode, keys: ItemKeys): Entry {
  const rt = resolveType(t, value);
  let children: Entry[] | undefined;
  if (rt.kind === 'map' && !rt.atomic && isObject(value) && !isEmptyObject(value)) {
    for (const key of Object.keys(value)) {
      const v = value[key];
      if (v === undefined) continue;
      const ft = fieldType(rt, key);
      if (!ft) continue;
      const child = added(elementOf(rt, key), rt.fieldRanks?.get(key) ?? -1, v, ft, keys);
      if (children) children.push(child);
      else children = [child];
    }
  } else if (rt.kind === 'list' && !rt.atomic && Array.isArray(value) && value.length > 0) {
    children = addedItems(value, rt, keys);
  }
  return { pe, rank, member: true, children: children && children.length > 0 ? children : undefined };
}

/** Items by path element; an element that repeats is a member alone, as the comparison has it. */
function addedItems(list: unknown[], t: ListType, keys: ItemKeys): Entry[] {
  const byId = new Map<string, { pe: PathElement; item: unknown; repeated: boolean }>();
  for (const item of list) {
    const pe = keys.element(t, item);
    if (!pe) continue;
    const seen = byId.get(pe.id);
    if (seen) seen.repeated = true;
    else byId.set(pe.id, { pe, item, repeated: false });
  }
  const out: Entry[] = [];
  for (const { pe, item, repeated } of byId.values()) {
    out.push(repeated ? { pe, rank: -1, member: true, children: undefined } : added(pe, -1, item, t.element, keys));
  }
  return out;
}

/** The entries less `reset`: a member of it goes with everything below; otherwise it recurses. */
function withoutReset(entries: Entry[], reset: FieldSet): Entry[] {
  const out: Entry[] = [];
  for (const e of entries) {
    const r = reset.get(e.pe);
    if (!r) {
      out.push(e);
      continue;
    }
    if (r.member) continue;
    const children = e.children && r.children ? withoutReset(e.children, r.children) : e.children;
    if (e.member || (children && children.length > 0)) {
      const kept = children && children.length > 0 ? children : undefined;
      out.push({ pe: e.pe, rank: e.rank, member: e.member, children: kept });
    }
  }
  return out;
}

/** Path-element order; by rank alone when every entry is a declared struct field. */
function sortEntries(entries: Entry[]): void {
  if (entries.length < 2) return;
  let ranked = true;
  for (const e of entries) if (e.rank < 0) ranked = false;
  if (ranked) entries.sort(byRank);
  else entries.sort(byPathElement);
}

const byRank = (a: Entry, b: Entry): number => a.rank - b.rank;
const byPathElement = (a: Entry, b: Entry): number => comparePathElements(a.pe, b.pe);

/**
 * A level as `fieldsV1`: keys in path-element order, `"."` first when the element holding them is
 * itself a member.
 */
function levelObject(entries: Entry[], member = false): JsonObject {
  sortEntries(entries);
  const out: JsonObject = member ? { '.': {} } : {};
  for (const e of entries) out[e.pe.id] = e.children ? levelObject(e.children, e.member) : {};
  return out;
}
