import { ItemKeys, isObject } from '../typed/list-items.js';
import { isEmptyObject } from '../typed/to-field-set.js';
import { fieldType, type ListType, type MapType, resolvePair, type TypeNode } from '../typed/type-node.js';

/**
 * Merges an apply configuration (`rhs`) into the live object (`lhs`), as structured-merge-diff's
 * `TypedValue.Merge` does: nothing is removed; leaves (scalars, atomic maps and lists, empty
 * containers) take the configuration's value; granular maps merge key by key; sets and list maps
 * merge item by item, keyed by their path element. A `null` against a granular map or list that
 * holds something is an empty one, so it merges in nothing (pruning may empty it later).
 *
 * Item order: live items the configuration does not mention keep their place; the configuration's
 * items follow its own order, each shared item waiting at the position where the configuration
 * names it. `undefined` means absent. Both values must have passed `validateTyped`. The result
 * shares unchanged sub-values with its inputs.
 */
export function mergeTyped(lhs: unknown, rhs: unknown, t: TypeNode, keys = new ItemKeys()): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const [tl, tr] = resolvePair(t, lhs, rhs);
  if (tl.kind !== tr.kind || tr.kind === 'scalar' || tr.atomic) return rhs;
  return tr.kind === 'map' ? mergeMap(lhs, rhs, tr, keys) : mergeList(lhs, rhs, tr, keys);
}

function mergeMap(lhs: unknown, rhs: unknown, t: MapType, keys: ItemKeys): unknown {
  const lm = isObject(lhs) ? lhs : undefined;
  const rm = isObject(rhs) ? rhs : undefined;
  if ((!lm || isEmptyObject(lm)) && (!rm || isEmptyObject(rm))) return rhs;
  const out: Record<string, unknown> = {};
  if (lm) {
    for (const key of Object.keys(lm)) {
      const l = lm[key];
      const r = rm?.[key];
      if (l === undefined && r === undefined) continue;
      const ft = fieldType(t, key);
      out[key] = ft ? mergeTyped(l, r, ft, keys) : (r ?? l);
    }
  }
  if (rm) {
    for (const key of Object.keys(rm)) {
      const r = rm[key];
      if (r === undefined || (lm && lm[key] !== undefined)) continue;
      out[key] = r;
    }
  }
  return out;
}

interface Indexed {
  readonly ids: string[];
  readonly items: unknown[];
  /** Item by id; a repeated id maps to null (kube does not merge duplicates). */
  readonly byId: Map<string, unknown>;
}

function index(t: ListType, list: unknown[] | undefined, keys: ItemKeys): Indexed {
  const ids: string[] = [];
  const items: unknown[] = [];
  const byId = new Map<string, unknown>();
  for (const item of list ?? []) {
    const pe = keys.element(t, item);
    if (!pe) continue;
    byId.set(pe.id, byId.has(pe.id) ? null : item);
    ids.push(pe.id);
    items.push(item);
  }
  return { ids, items, byId };
}

function mergeList(lhs: unknown, rhs: unknown, t: ListType, keys: ItemKeys): unknown {
  const ll = Array.isArray(lhs) ? lhs : undefined;
  const rl = Array.isArray(rhs) ? rhs : undefined;
  if ((!ll || ll.length === 0) && (!rl || rl.length === 0)) return rhs;
  const left = index(t, ll, keys);
  const right = index(t, rl, keys);
  const shared = right.ids.filter((id) => left.byId.has(id));
  let sharedAt = 0;
  let nextShared: string | undefined = shared[sharedAt++];
  const merged = new Set<string>();
  const out: unknown[] = [];
  const mergeItem = (id: string): void => {
    merged.add(id);
    out.push(mergeTyped(left.byId.get(id), right.byId.get(id), t.element, keys));
  };
  const lLen = left.ids.length;
  const rLen = right.ids.length;
  let lI = 0;
  let rI = 0;
  while (lI < lLen || rI < rLen) {
    if (lI < lLen && rI < rLen) {
      const id = left.ids[lI];
      if (id === right.ids[rI]) {
        mergeItem(id);
        lI++;
        rI++;
        nextShared = shared[sharedAt++];
        continue;
      }
      // A shared item that the configuration names later: it is emitted there.
      if (right.byId.has(id) && nextShared !== undefined && nextShared !== id) {
        lI++;
        continue;
      }
    }
    if (lI < lLen) {
      const id = left.ids[lI];
      if (!right.byId.has(id)) {
        out.push(mergeTyped(left.items[lI], undefined, t.element, keys));
        lI++;
        continue;
      }
      if (merged.has(id)) lI++;
    }
    if (rI < rLen) {
      const id = right.ids[rI];
      mergeItem(id);
      rI++;
      if (nextShared === id) nextShared = shared[sharedAt++];
    }
  }
  return out;
}
