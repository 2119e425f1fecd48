import type { FieldSet } from '../fieldpath/field-set.js';
import { fieldElement } from '../fieldpath/path-element.js';
import { ItemKeys, isObject } from '../typed/list-items.js';
import { fieldType, type ListType, type MapType, resolveType, type TypeNode } from '../typed/type-node.js';

/**
 * What becomes of a container that the removal leaves empty (or that it walks into although it
 * is atomic or already empty): kube (structured-merge-diff v4) turns it into `null`; `drop`
 * removes it from its parent instead, which is what kube's typed objects show once such a null
 * is decoded (an omitted field).
 */
export type EmptiedContainers = 'null' | 'drop';

/**
 * Removes from `value` every field, map key and list item that is a member of `toRemove`,
 * together with everything below it (structured-merge-diff's `RemoveItems`). Returns the new
 * value (sharing untouched sub-values), or `undefined` when it is dropped entirely.
 */
export function removeItems(
  value: unknown,
  toRemove: FieldSet,
  t: TypeNode,
  emptied: EmptiedContainers,
  keys = new ItemKeys(),
): unknown {
  if (toRemove.empty) return value;
  return remove(value, toRemove, t, emptied === 'null' ? null : undefined, keys);
}

/** `gone` is what an emptied container becomes: null or undefined (drop). */
function remove(value: unknown, set: FieldSet, t: TypeNode, gone: null | undefined, keys: ItemKeys): unknown {
  const rt = resolveType(t, value);
  if (rt.kind === 'scalar') return value;
  if (rt.kind === 'map') return removeFromMap(value, set, rt, gone, keys);
  return removeFromList(value, set, rt, gone, keys);
}

function removeFromMap(value: unknown, set: FieldSet, t: MapType, gone: null | undefined, keys: ItemKeys): unknown {
  if (!isObject(value)) return gone;
  if (t.atomic) return gone;
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
      if (ft) v = remove(v, entry.children, ft, gone, keys);
      if (v === undefined) continue;
    }
    out[key] = v;
    kept++;
  }
  return kept > 0 ? out : gone;
}

function removeFromList(value: unknown, set: FieldSet, t: ListType, gone: null | undefined, keys: ItemKeys): unknown {
  if (!Array.isArray(value) || value.length === 0 || t.atomic) return gone;
  const out: unknown[] = [];
  for (let item of value) {
    const pe = keys.element(t, item);
    const entry = pe ? set.get(pe) : undefined;
    if (entry?.member) continue;
    if (entry?.children) {
      item = remove(item, entry.children, t.element, gone, keys);
      if (item === undefined) continue;
    }
    out.push(item);
  }
  return out.length > 0 ? out : gone;
}
