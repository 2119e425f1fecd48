import { isPlainObject } from '../apis/schema/json-value.js';
import { StrategicMergePatchError, smpErrors } from './errors.js';
import { type GoKind, goKey, goKind, goValue } from './go-format.js';
import type { JsonObject } from './json-object.js';

/**
 * The ordering rules of kube's strategic merge for merged lists: items named by the patch (or by
 * its `$setElementOrder`) keep the patch's order, items only on the server keep the live order,
 * and the two runs are interleaved by their positions in the live list.
 */

/** The Go element type shared by every item of `lists`, as kube's `sliceElementType` checks it. */
export function sliceElementKind(lists: readonly unknown[][]): GoKind {
  let kind: GoKind | undefined;
  for (const list of lists) {
    for (const item of list) {
      const current = goKind(item);
      if (kind === undefined) {
        // kube dereferences the type of a leading null and panics; report that as an internal error.
        if (current === 'nil') {
          throw new StrategicMergePatchError(
            'element-type-mismatch',
            'runtime error: invalid memory address or nil pointer dereference',
          );
        }
        if (current === 'slice') throw smpErrors.noListOfLists();
        kind = current;
      } else if (current !== kind) {
        throw new StrategicMergePatchError(
          'element-type-mismatch',
          `list element types are not identical: [${lists.map(goValue).join(' ')}]`,
        );
      }
    }
  }
  if (kind === undefined) {
    throw new StrategicMergePatchError('element-type-mismatch', 'no elements in any of the given slices');
  }
  return kind;
}

/** The value an item is identified by: its merge key for maps, the item itself otherwise. */
function identity(item: unknown, mergeKey: string, kind: GoKind): string {
  if (kind !== 'map') return goKey(item);
  return goKey(isPlainObject(item) && Object.hasOwn(item, mergeKey) ? item[mergeKey] : null);
}

/** First position of each identity in a list (kube's `index`, in constant time). */
class Positions {
  private readonly first = new Map<string, number>();
  constructor(
    list: readonly unknown[],
    private readonly mergeKey: string,
    private readonly kind: GoKind,
  ) {
    list.forEach((item, i) => {
      const id = identity(item, mergeKey, kind);
      if (!this.first.has(id)) this.first.set(id, i);
    });
  }
  of(item: unknown): number {
    return this.first.get(identity(item, this.mergeKey, this.kind)) ?? -1;
  }
}

/** Every item of `lists` is a map carrying `mergeKey`. */
export function validateMergeKeyInLists(mergeKey: string, ...lists: readonly unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isPlainObject(item)) throw smpErrors.badArgType({}, item);
      if (!Object.hasOwn(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
    }
  }
}

/** Splits a list of maps into the items to keep and those marked `$patch: delete`. */
export function extractToDeleteItems(list: readonly unknown[]): { keep: JsonObject[]; toDelete: JsonObject[] } {
  const keep: JsonObject[] = [];
  const toDelete: JsonObject[] = [];
  for (const item of list) {
    if (!isPlainObject(item)) throw smpErrors.badArgType({}, item);
    if (Object.hasOwn(item, '$patch') && item.$patch === 'delete') toDelete.push(item);
    else keep.push(item);
  }
  return { keep, toDelete };
}

/** Sorts `toSort` stably by the positions of its items in `order`; deletions go last. */
function normalizeSliceOrder(toSort: unknown[], order: readonly unknown[], mergeKey: string, kind: GoKind): unknown[] {
  let items = toSort;
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, toSort, [...order]);
    ({ keep: items, toDelete } = extractToDeleteItems(toSort));
  }
  const positions = new Positions(order, mergeKey, kind);
  const ranked = items.map((item) => ({ item, at: positions.of(item) }));
  if (ranked.every((r) => r.at >= 0)) {
    ranked.sort((a, b) => a.at - b.at);
  } else {
    // kube's comparator calls an item "less" whenever either side is absent from `order`; an
    // insertion sort (what Go's stable sort runs on short lists) reproduces its outcome.
    for (let i = 1; i < ranked.length; i++) {
      for (let j = i; j > 0; j--) {
        const a = ranked[j];
        const b = ranked[j - 1];
        const less = a.at >= 0 && b.at >= 0 ? a.at < b.at : true;
        if (!less) break;
        ranked[j] = b;
        ranked[j - 1] = a;
      }
    }
  }
  return [...ranked.map((r) => r.item), ...toDelete];
}

/**
 * Interleaves server-only items (`left`) into patch items (`right`), both already sorted: at each
 * step a server-only item goes first only if both are in the live list and it comes earlier there.
 */
function mergeSortedSlice(
  left: readonly unknown[],
  right: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  kind: GoKind,
): unknown[] {
  const positions = new Positions(serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = positions.of(left[i]);
      const ri = positions.of(right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** Sorts patch items by `patchOrder`, server-only items by `serverOrder`, then interleaves them. */
export function normalizeElementOrder(
  items: { patch: unknown[]; serverOnly: unknown[] },
  orders: { patch: readonly unknown[]; server: readonly unknown[] },
  mergeKey: string,
  kind: GoKind,
): unknown[] {
  const patch = normalizeSliceOrder(items.patch, orders.patch, mergeKey, kind);
  const serverOnly = normalizeSliceOrder(items.serverOnly, orders.server, mergeKey, kind);
  return mergeSortedSlice(serverOnly, patch, orders.server, mergeKey, kind);
}

/** Splits scalar `list` into the items present in `partitionBy` and the others. */
export function partitionPrimitives(
  list: readonly unknown[],
  partitionBy: readonly unknown[],
): { patch: unknown[]; serverOnly: unknown[] } {
  const present = new Set(partitionBy.map(goKey));
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const item of list) (present.has(goKey(item)) ? patch : serverOnly).push(item);
  return { patch, serverOnly };
}

/** Splits a list of maps into the items whose merge key appears in `partitionBy` and the others. */
export function partitionMaps(
  list: readonly unknown[],
  partitionBy: readonly unknown[],
  mergeKey: string,
): { patch: unknown[]; serverOnly: unknown[] } {
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const item of list) {
    if (!isPlainObject(item)) throw smpErrors.badArgType({}, item);
    if (!Object.hasOwn(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
    (findByMergeKey(partitionBy, mergeKey, item[mergeKey]) >= 0 ? patch : serverOnly).push(item);
  }
  return { patch, serverOnly };
}

/**
 * Position of the first map in `list` whose `mergeKey` equals `value`, or -1. Every item scanned
 * must be a map (kube: `value for key <i> is not a map`).
 */
export function findByMergeKey(list: readonly unknown[], mergeKey: string, value: unknown): number {
  const wanted = goKey(value);
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isPlainObject(item)) {
      throw new StrategicMergePatchError('bad-argument-type', `value for key ${i} is not a map`);
    }
    if (Object.hasOwn(item, mergeKey) && goKey(item[mergeKey]) === wanted) return i;
  }
  return -1;
}
