import { isPlainObject } from '../apis/schema/json-value.js';
import { StrategicMergePatchError, smpErrors } from './errors.js';
import { goKey } from './go-format.js';
import type { JsonObject } from './json-object.js';
import {
  findByMergeKey,
  normalizeElementOrder,
  partitionMaps,
  partitionPrimitives,
  sliceElementKind,
} from './list-order.js';
import { elementKindName, type FieldPatchMeta, type PatchNode } from './patch-meta.js';

/** Merges a patch map into an original map (the map half of the algorithm, injected). */
export type MapMerger = (original: JsonObject, patch: JsonObject, node: PatchNode) => JsonObject;

/**
 * Merges list `patch` into list `original` for a field with metadata `meta`: lists with the
 * `merge` strategy (and `$deleteFromPrimitiveList` lists, whatever the strategy) merge; any other
 * list is replaced by the patch list as given.
 */
export function mergeSliceHandler(
  original: unknown[],
  patch: unknown[],
  meta: FieldPatchMeta,
  options: { isDeleteList: boolean; mergeMap: MapMerger },
): unknown[] {
  if (meta.strategy === 'merge' || options.isDeleteList) return mergeSlice(original, patch, meta, options);
  return patch;
}

/**
 * kube's `mergeSlice`. Scalars: a delete list removes every equal item; otherwise the union
 * (duplicates dropped). Maps: `$patch: delete` items remove every item with their merge key,
 * `$patch: replace` makes the remaining patch items the whole list, other items merge into the
 * item with the same merge key or are appended as given. Then the order is enforced: patch items
 * in patch order, interleaved with server-only items in live order.
 */
function mergeSlice(
  original: unknown[],
  patch: unknown[],
  meta: FieldPatchMeta,
  options: { isDeleteList: boolean; mergeMap: MapMerger },
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind([original, patch]);
  const { mergeKey } = meta;
  let serverOrder = original;
  let patchItems = patch;
  let merged: unknown[];
  if (kind !== 'map') {
    if (options.isDeleteList) return deleteFromSlice(original, patch);
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') {
      throw new StrategicMergePatchError(
        'bad-schema',
        `cannot merge lists without merge key for ${elementKindName(meta.node)}`,
      );
    }
    ({ original: serverOrder, patch: patchItems } = applySpecialElements(
      original as JsonObject[],
      patch as JsonObject[],
      mergeKey,
    ));
    merged = mergeByKey(serverOrder, patchItems, meta, options.mergeMap);
  }
  const parts = mergeKey === '' ? partitionPrimitives(merged, patchItems) : partitionMaps(merged, patchItems, mergeKey);
  return normalizeElementOrder(parts, { patch: patchItems, server: serverOrder }, mergeKey, kind);
}

/**
 * The live list as kube's `$setElementOrder` handling reads it after merging `patch` into it: the
 * order it interleaves server-only items by.
 *
 * Why not simply the live list: kube's `mergeSlice` edits the live list's Go backing array in
 * place. Deleting an item (`$patch: delete`) shifts the later items left, and appending a new
 * patch item then writes into the slot freed at the end. The caller still holds a view of the old
 * length, so it reads the list after deletions, followed by the first new items, padded with stale
 * copies of the tail. Live `[s1 s2 s4]` with `s1` deleted and `s3` added reads `[s2 s4 s3]`, which
 * is why kube puts `s4` before `s3` in the result. Only lists of maps merged by key are edited in
 * place; any other list reads as it was. Call after the merge succeeded (it reports no errors).
 */
export function liveListAfterMerge(
  live: readonly unknown[],
  patch: readonly unknown[],
  meta: FieldPatchMeta,
): unknown[] {
  const view = [...live];
  const { mergeKey } = meta;
  if (meta.strategy !== 'merge' || mergeKey === '' || !live.every(isPlainObject)) return view;
  let length = view.length;
  let replace = false;
  const plain: JsonObject[] = [];
  for (const item of patch) {
    if (!isPlainObject(item)) return view;
    if (!Object.hasOwn(item, '$patch')) plain.push(item);
    else if (item.$patch === 'replace') replace = true;
    else if (item.$patch === 'delete') {
      const value = goKey(item[mergeKey]);
      for (let at = 0; at < length; ) {
        if (goKey((view[at] as JsonObject)[mergeKey]) !== value) at++;
        else {
          view.copyWithin(at, at + 1, length);
          length--;
        }
      }
    }
  }
  // On `replace` kube merges nothing into the live list; the deletions above still happened.
  if (replace) return view;
  const present = new Set(view.slice(0, length).map((item) => goKey((item as JsonObject)[mergeKey])));
  for (const item of plain) {
    const value = goKey(item[mergeKey]);
    if (present.has(value)) continue;
    present.add(value);
    // Appends past the old length land outside the caller's view (or in a new array).
    if (length < view.length) view[length] = item;
    length++;
  }
  return view;
}

/** Removes from `current` every item equal to an item of `toDelete`. */
function deleteFromSlice(current: readonly unknown[], toDelete: readonly unknown[]): unknown[] {
  const doomed = new Set(toDelete.map(goKey));
  return current.filter((item) => !doomed.has(goKey(item)));
}

function deduplicateScalars(list: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const key = goKey(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Handles the list items that carry `$patch`: returns the live list left after deletions (or the
 * plain patch items, on `replace`) and the patch items still to merge.
 */
function applySpecialElements(
  original: JsonObject[],
  patch: JsonObject[],
  mergeKey: string,
): { original: unknown[]; patch: unknown[] } {
  const plain: JsonObject[] = [];
  let remaining: unknown[] = original;
  let replace = false;
  for (const item of patch) {
    if (!Object.hasOwn(item, '$patch')) {
      plain.push(item);
      continue;
    }
    const directive = item.$patch;
    if (directive === 'delete') {
      if (!Object.hasOwn(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
      remaining = deleteMatchingEntries(remaining, mergeKey, item[mergeKey]);
    } else if (directive === 'replace') {
      // Keep scanning: the other directive items are validated and dropped all the same.
      replace = true;
    } else if (directive === 'merge') {
      throw new StrategicMergePatchError('bad-directive', 'merging lists cannot yet be specified in the patch');
    } else {
      throw smpErrors.badPatchType(directive, item);
    }
  }
  return replace ? { original: plain, patch: [] } : { original: remaining, patch: plain };
}

function deleteMatchingEntries(list: unknown[], mergeKey: string, value: unknown): unknown[] {
  let rest = list;
  for (let at = findByMergeKey(rest, mergeKey, value); at >= 0; at = findByMergeKey(rest, mergeKey, value)) {
    rest = [...rest.slice(0, at), ...rest.slice(at + 1)];
  }
  return rest;
}

/**
 * Merges each patch item into the item with the same merge key (searching items appended by
 * earlier patch items too), or appends it unchanged — kube keeps its nulls and directives.
 */
function mergeByKey(
  original: readonly unknown[],
  patch: readonly unknown[],
  meta: FieldPatchMeta,
  mergeMap: MapMerger,
): unknown[] {
  const result = [...original];
  for (const item of patch) {
    if (!isPlainObject(item)) throw smpErrors.badArgType({}, item);
    if (!Object.hasOwn(item, meta.mergeKey)) throw smpErrors.noMergeKey(item, meta.mergeKey);
    const at = findByMergeKey(result, meta.mergeKey, item[meta.mergeKey]);
    if (at >= 0) result[at] = mergeMap(result[at] as JsonObject, item, meta.node);
    else result.push(item);
  }
  return result;
}
