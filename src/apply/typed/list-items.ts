import type { JsonValue } from '../../apis/object.js';
import {
  type KeyField,
  type KeyFieldOrder,
  keyElement,
  orderedKeyElement,
  type PathElement,
  valueElement,
} from '../fieldpath/path-element.js';
import type { ListType } from './type-node.js';

/** Why a list item has no path element (kube's wording, after `element N: `). */
export class ListItemError extends Error {}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The path element of an item of associative list `t`: `k:` from its key fields (taking schema
 * defaults for omitted keys) or `v:` from its value. Throws `ListItemError` when the item cannot
 * be identified.
 */
export function listItemElement(t: ListType, item: unknown): PathElement {
  if (t.keys) {
    if (item === null) throw new ListItemError('associative list with keys may not have a null element');
    if (!isObject(item)) throw new ListItemError('associative list with keys may not have non-map elements');
    return t.keyOrder ? orderedItemElement(t, t.keys, t.keyOrder, item) : keyElement(keyFields(t, t.keys, item));
  }
  if (isObject(item)) throw new ListItemError("associative list without keys has an element that's a map type");
  if (Array.isArray(item)) throw new ListItemError('not supported: associative list with lists as elements');
  if (item === null) throw new ListItemError("associative list without keys has an element that's an explicit null");
  return valueElement(item as JsonValue);
}

/**
 * The `k:` element of `item`, its key fields read in the order of its id (no sort); a missing key
 * is reported as `keyFields` reports it, for the first key in schema order.
 */
function orderedItemElement(
  t: ListType,
  keys: readonly string[],
  order: KeyFieldOrder,
  item: Record<string, unknown>,
): PathElement {
  const kept = order.kept.of(item, order.names, t.keyDefaults);
  if (kept !== undefined) return kept;
  const fields: KeyField[] = [];
  for (const name of order.names) {
    const v = item[name];
    const value = v !== undefined ? (v as JsonValue) : t.keyDefaults.get(name);
    if (value === undefined) return keyElement(keyFields(t, keys, item));
    fields.push({ name, value });
  }
  return orderedKeyElement(order, fields);
}

/** The key fields of `item` in schema order, with schema defaults for omitted keys. */
function keyFields(t: ListType, keys: readonly string[], item: Record<string, unknown>): KeyField[] {
  const fields: KeyField[] = [];
  for (const name of keys) {
    const v = item[name];
    if (v !== undefined) fields.push({ name, value: v as JsonValue });
    else if (t.keyDefaults.has(name)) fields.push({ name, value: t.keyDefaults.get(name)! });
    else {
      throw new ListItemError(
        `associative list with keys has an element that omits key field "${name}" (and doesn't have default value)`,
      );
    }
  }
  return fields;
}

/** The item's path element, or undefined when it has none (validation reports those). */
export function tryListItemElement(t: ListType, item: unknown): PathElement | undefined {
  try {
    return listItemElement(t, item);
  } catch (e) {
    if (e instanceof ListItemError) return undefined;
    throw e;
  }
}

/**
 * Path elements of list items, remembered by item object for the duration of one operation
 * (merge, prune and comparison walk the same items several times). Scalar items are not
 * remembered. Create one per operation: a caller may change its objects between operations.
 */
export class ItemKeys {
  private readonly cache = new WeakMap<object, PathElement | null>();

  /** `tryListItemElement`, remembered for object items. */
  element(t: ListType, item: unknown): PathElement | undefined {
    if (item === null || typeof item !== 'object') return tryListItemElement(t, item);
    const hit = this.cache.get(item);
    if (hit !== undefined) return hit ?? undefined;
    const pe = tryListItemElement(t, item);
    this.cache.set(item, pe ?? null);
    return pe;
  }
}
