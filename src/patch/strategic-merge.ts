import { cloneJson, isPlainObject } from '../apis/schema/json-value.js';
import type { Schema } from '../apis/schema/schema.js';
import { StrategicMergePatchError, smpErrors } from './errors.js';
import { goKey, goKind, goValue } from './go-format.js';
import { hasKey, type JsonObject, setKey } from './json-object.js';
import { normalizeElementOrder, partitionMaps, partitionPrimitives, sliceElementKind } from './list-order.js';
import { type FieldPatchMeta, lookupSliceField, lookupStructField, type PatchNode } from './patch-meta.js';
import { liveListAfterMerge, mergeSliceHandler } from './strategic-merge-list.js';

export { schemaSupportsStrategicMerge } from './patch-meta.js';

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

/**
 * Applies a strategic merge patch to `original` the way kube-apiserver v1.32 does
 * (`strategicpatch.StrategicMergeMapPatch`), with `schema` in place of the Go struct tags:
 * `x-orch-patch-strategy` (`merge`, `replace`, `retainKeys`, `merge,retainKeys`) and
 * `x-orch-patch-merge-key`. Neither argument is modified; the result shares nothing with them.
 *
 * - Maps merge recursively; `null` deletes a key. A map with strategy `replace` is replaced.
 * - Lists with strategy `merge` merge: scalars as a set, maps by merge key; other lists are
 *   replaced. Merged lists keep the patch's order for the items it names (see list-order.ts).
 * - Directives: `$patch: replace | delete` in a map (replace it / empty it), `$patch: delete |
 *   replace` as a list item (drop the items with that merge key / replace the list),
 *   `$deleteFromPrimitiveList/<list>`, `$setElementOrder/<list>`, `$retainKeys`.
 * - Keys absent from `original` take the patch value with its nulls and `$patch` maps removed.
 * - Below `x-orch-preserve-unknown-fields` maps merge and lists are replaced. A key that is no
 *   field of a typed object is an error only where kube consults its type (both sides maps or
 *   lists, or `$setElementOrder`); elsewhere it is copied, for pruning to report later.
 *
 * Like kube's intermediate map, the result can hold `null`s and directive keys where kube copies
 * patch content verbatim (list items appended by merge key, replaced lists and maps); kube's
 * typed decoding then drops them, so the caller must treat them the same way (null = absent,
 * unknown keys pruned or reported by field validation).
 *
 * `patch` must be a JSON object; `null` is an empty patch. Throws `StrategicMergePatchError`.
 */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: Schema): unknown {
  if (patch !== null && !isPlainObject(patch)) {
    const kind = Array.isArray(patch) ? 'array' : typeof patch === 'boolean' ? 'bool' : typeof patch;
    throw new StrategicMergePatchError(
      'bad-json-document',
      `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
    );
  }
  if (!isPlainObject(original)) throw smpErrors.badJsonDocument();
  const patchMap = patch === null ? {} : cloneJson(patch);
  return mergeMap(cloneJson(original), patchMap, { schema });
}

/** kube's `mergeMap`; mutates both arguments (they are private copies here). */
function mergeMap(original: JsonObject, patch: JsonObject, node: PatchNode): JsonObject {
  if (hasKey(patch, DIRECTIVE)) return mapDirective(patch);
  applyRetainKeys(original, patch);
  mergeOrderedLists(original, patch, node);
  for (const key of Object.keys(patch)) {
    const patchValue = patch[key];
    let field = key;
    let isDeleteList = false;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      field = extractKey(key, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (patchValue === null) {
      // Also for `$deleteFromPrimitiveList/<list>: null`, which kube reads as deleting the list.
      delete original[field];
      continue;
    }
    if (!hasKey(original, field) || goKind(original[field]) !== goKind(patchValue)) {
      if (!isDeleteList) setStripped(original, field, patchValue, { discardNulls: true });
      continue;
    }
    const originalValue = original[field];
    if (isPlainObject(originalValue)) {
      const meta = lookupStructField(node, field);
      const merged =
        meta.strategy === 'replace'
          ? (patchValue as JsonObject)
          : mergeMap(originalValue, patchValue as JsonObject, meta.node);
      setKey(original, field, merged);
    } else if (Array.isArray(originalValue)) {
      const meta = lookupSliceField(node, field);
      setKey(original, field, mergeList(originalValue, patchValue as unknown[], meta, isDeleteList));
    } else {
      setStripped(original, field, patchValue, { discardNulls: false });
    }
  }
  return original;
}

function mergeList(original: unknown[], patch: unknown[], meta: FieldPatchMeta, isDeleteList: boolean): unknown[] {
  return mergeSliceHandler(original, patch, meta, { isDeleteList, mergeMap });
}

/** `$patch` in a map: `replace` keeps only the patch's content, `delete` empties the map. */
function mapDirective(patch: JsonObject): JsonObject {
  const directive = patch[DIRECTIVE];
  if (directive === 'replace') {
    delete patch[DIRECTIVE];
    return patch;
  }
  if (directive === 'delete') return {};
  throw smpErrors.badPatchType(directive, patch);
}

/**
 * `$retainKeys`: every non-null patch key (directives aside) must be listed, and the original
 * loses every key not listed.
 */
function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!hasKey(patch, RETAIN_KEYS)) return;
  const listed = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(listed)) throw smpErrors.badRetainKeys();
  const retained = new Set(listed.map(goKey));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!retained.has(goKey(key))) throw smpErrors.badRetainKeys();
  }
  for (const key of Object.keys(original)) {
    if (!retained.has(goKey(key))) delete original[key];
  }
}

/** The list name after `<prefix>/`; a malformed directive key is a 400 as in kube. */
function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw prefix === DELETE_FROM_PRIMITIVE_LIST ? smpErrors.badPrimitiveList() : smpErrors.badSetElementOrder();
  }
  return key.slice(slash + 1);
}

/**
 * `$setElementOrder/<list>`: merges `<list>` (when the patch has it) and orders the result: the
 * items the directive names in its order, server-only items interleaved by their order in the
 * live list as kube reads it after the merge (see `liveListAfterMerge`).
 * Both the directive and the list leave the patch.
 */
function mergeOrderedLists(original: JsonObject, patch: JsonObject, node: PatchNode): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw smpErrors.badArgType([], order);
    const field = extractKey(key, SET_ELEMENT_ORDER);
    const live = hasKey(original, field) ? listAt(original, field) : undefined;
    const patched = hasKey(patch, field) ? listAt(patch, field) : undefined;
    const meta = lookupSliceField(node, field);
    validateAgainstOrder(patched ?? [], order, meta.mergeKey);
    let merged: unknown[];
    let serverOrder: unknown[] = live ?? [];
    if (live && patched) {
      merged = mergeList(live, patched, meta, false);
      serverOrder = liveListAfterMerge(live, patched, meta);
    } else if (patched) merged = removeDirectives(patched).value as unknown[];
    else if (live) merged = live;
    else continue;
    const parts =
      meta.mergeKey === '' ? partitionPrimitives(merged, order) : partitionMaps(merged, order, meta.mergeKey);
    const kind = sliceElementKind([live ?? [], patched ?? []]);
    setKey(original, field, normalizeElementOrder(parts, { patch: order, server: serverOrder }, meta.mergeKey, kind));
    delete patch[field];
  }
}

function listAt(map: JsonObject, field: string): unknown[] {
  const value = map[field];
  if (!Array.isArray(value)) throw smpErrors.badArgType([], value);
  return value;
}

/**
 * The patch list must be a subsequence of the `$setElementOrder` list (items marked
 * `$patch: delete` and other directive items aside).
 */
function validateAgainstOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey === '' ? patchList : patchList.filter((item) => !isDeletion(item));
  let i = 0;
  let j = 0;
  while (i < items.length && j < order.length) {
    if (isPlainObject(items[i]) && hasKey(items[i] as JsonObject, DIRECTIVE)) {
      i++;
      continue;
    }
    if (sameMergeKeyValue(items[i], order[j], mergeKey)) i++;
    j++;
  }
  if (i < items.length && j >= order.length) {
    throw new StrategicMergePatchError(
      'order-mismatch',
      `The order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goValue(order)}\n`,
    );
  }
}

function isDeletion(item: unknown): boolean {
  if (!isPlainObject(item)) throw smpErrors.badArgType({}, item);
  return hasKey(item, DIRECTIVE) && item[DIRECTIVE] === 'delete';
}

function sameMergeKeyValue(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return goKey(left) === goKey(right);
  if (!isPlainObject(left)) throw smpErrors.badArgType({}, left);
  if (!isPlainObject(right)) throw smpErrors.badArgType({}, right);
  if (!hasKey(left, mergeKey)) throw smpErrors.noMergeKey(left, mergeKey);
  if (!hasKey(right, mergeKey)) throw smpErrors.noMergeKey(right, mergeKey);
  return goKey(left[mergeKey]) === goKey(right[mergeKey]);
}

/** Sets `field` to the patch value without its `$patch` maps (a directive map itself is dropped). */
function setStripped(target: JsonObject, field: string, value: unknown, options: { discardNulls: boolean }): void {
  if (options.discardNulls) discardNullValues(value);
  const stripped = removeDirectives(value);
  if (stripped.keep) setKey(target, field, stripped.value);
  else delete target[field];
}

/** Drops every map containing `$patch` (map entries and list items alike); mutates maps. */
function removeDirectives(value: unknown): { value: unknown; keep: boolean } {
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const item of value) {
      const stripped = removeDirectives(item);
      if (stripped.keep) kept.push(stripped.value);
    }
    return { value: kept, keep: true };
  }
  if (!isPlainObject(value)) return { value, keep: true };
  if (hasKey(value, DIRECTIVE)) return { value: null, keep: false };
  for (const key of Object.keys(value)) {
    const stripped = removeDirectives(value[key]);
    if (stripped.keep) setKey(value, key, stripped.value);
    else delete value[key];
  }
  return { value, keep: true };
}

/** Removes null-valued map entries at any depth (list items that are null stay). */
function discardNullValues(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) discardNullValues(item);
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else discardNullValues(value[key]);
    }
  }
}
