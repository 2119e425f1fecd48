import type { FieldSet } from '../fieldpath/field-set.js';
import { fieldElement } from '../fieldpath/path-element.js';
import { ItemKeys, isObject } from '../typed/list-items.js';
import { fieldType, type ListType, type MapType, resolveType, type TypeNode } from '../typed/type-node.js';

/**
 * Removes from `value` every field, map key and list item that is a member of `toRemove`,
 * together with everything below it (structured-merge-diff's `RemoveItems`). A container the
 * removal leaves empty (or walks into although it is atomic, empty or null) becomes `null` in
 * its parent, as in kube; a member is dropped from its parent. Returns the new value (sharing
 * untouched sub-values), `null` when the value itself was emptied.
 */
export function removeItems(value: unknown, toRemove: FieldSet, t: TypeNode, keys = new ItemKeys()): unknown {
  if (toRemove.empty) return value;
  return remove(value, toRemove, t, keys);
}

function remove(value: unknown, set: FieldSet, t: TypeNode, keys: ItemKeys): unknown {
  const rt = resolveType(t, value);
  if (rt.kind === 'scalar') return value;
  if (rt.kind === 'map') return removeFromMap(value, set, rt, keys);
  return removeFromList(value, set, rt, keys);
}

function removeFromMap(value: unknown, set: FieldSet, t: MapType, keys: ItemKeys): unknown {
  if (!isObject(value) || t.atomic) return null;
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const key of Object.keys(value)) {
    let v = value[key];
    if (v === undefined) continue;
    const pe = fieldElement(key);
    const entry = set.get(pe);
    if (entry?.member) continue;
    if (entry?.children) {
      const ft = fieldType(t, key);
      if (ft) v = remove(v, entry.children, ft, keys);
    }
    out[key] = v;
    kept++;
  }
  return kept > 0 ? out : null;
}

function removeFromList(value: unknown, set: FieldSet, t: ListType, keys: ItemKeys): unknown {
  if (!Array.isArray(value) || value.length === 0 || t.atomic) return null;
  const out: unknown[] = [];
  for (let item of value) {
    const pe = keys.element(t, item);
    const entry = pe ? set.get(pe) : undefined;
    if (entry?.member) continue;
    if (entry?.children) {
      item = remove(item, entry.children, t.element, keys);
    }
    out.push(item);
  }
  return out.length > 0 ? out : null;
}
