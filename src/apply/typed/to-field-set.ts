import { type FieldSet, FieldSetBuilder } from '../fieldpath/field-set.js';
import { fieldElement, type PathElement } from '../fieldpath/path-element.js';
import { ItemKeys, isObject } from './list-items.js';
import { fieldType, isStructField, type ListType, type MapType, resolveType, type TypeNode } from './type-node.js';

/**
 * The fields a value sets, as structured-merge-diff's `ToFieldSet` computes them (the set an
 * applier owns after applying this value):
 * - every scalar leaf;
 * - atomic maps and lists as single leaves (nothing below them);
 * - every item of a set or list map, and every key of a map (`.metadata.labels.app`), whether or
 *   not it holds more fields;
 * - struct fields only when they are leaves, null, or empty maps (a struct field holding fields
 *   is implied by them);
 * - an item repeated in the value (a duplicate key) as the item alone.
 *
 * The value must have passed `validateTyped`; parts that did not are skipped.
 */
export function fieldSetOf(value: unknown, t: TypeNode, keys = new ItemKeys()): FieldSet {
  const root = new FieldSetBuilder();
  walk(value, t, root, undefined, keys);
  return root.build();
}

/** `parent` + `pe` name the current field; both are undefined at the root. */
function walk(value: unknown, t: TypeNode, parent: FieldSetBuilder, pe: PathElement | undefined, keys: ItemKeys): void {
  const rt = resolveType(t, value);
  if (rt.kind === 'scalar' || rt.atomic) {
    if (pe) parent.addMember(pe);
    return;
  }
  const self = pe ? parent.child(pe) : parent;
  if (rt.kind === 'map') walkMap(value, rt, self, keys);
  else walkList(value, rt, self, keys);
}

function walkMap(value: unknown, t: MapType, self: FieldSetBuilder, keys: ItemKeys): void {
  if (!isObject(value)) return;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined) continue;
    const ft = fieldType(t, key);
    if (!ft) continue;
    const pe = fieldElement(key);
    walk(v, ft, self, pe, keys);
    if (v === null || (isObject(v) && isEmptyObject(v)) || !isStructField(t, key)) self.addMember(pe);
  }
}

function walkList(value: unknown, t: ListType, self: FieldSetBuilder, keys: ItemKeys): void {
  if (!Array.isArray(value)) return;
  const pes: (PathElement | undefined)[] = value.map((item) => keys.element(t, item));
  let duplicates: Set<string> | undefined;
  const seen = new Set<string>();
  for (const pe of pes) {
    if (!pe) continue;
    if (seen.has(pe.id)) {
      if (!duplicates?.has(pe.id)) self.addMember(pe);
      duplicates ??= new Set();
      duplicates.add(pe.id);
    }
    seen.add(pe.id);
  }
  for (let i = 0; i < value.length; i++) {
    const pe = pes[i];
    if (!pe || duplicates?.has(pe.id)) continue;
    walk(value[i], t.element, self, pe, keys);
    self.addMember(pe);
  }
}

export function isEmptyObject(v: Record<string, unknown>): boolean {
  for (const k in v) if (v[k] !== undefined) return false;
  return true;
}
