import { cloneJson, isPlainObject, jsonEqual } from '../apis/schema/json-value.js';
import { stringifyJson } from '../util/json-text.js';
import { JsonPatchError } from './errors.js';
import { getKey, hasKey, type JsonObject, setKey } from './json-object.js';
import { parseArrayIndex, parseJsonPointer } from './json-pointer.js';

/** kube-apiserver's limit on the number of operations in one JSON patch. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** kube-apiserver's default `JSONPatchMaxCopyBytes`: total bytes `copy` operations may add. */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

export interface JsonPatchOptions {
  /** More operations than this fail with `too-many-operations`. Default 10000. */
  readonly maxOperations?: number;
  /** Total serialized size `copy` operations may add before failing. Default 3 MiB. */
  readonly maxCopyBytes?: number;
}

type Operation = JsonObject;

/**
 * Applies an RFC 6902 JSON patch and returns the patched document; neither `doc` nor `patch` is
 * modified and the result shares no objects with them. Operations run in order; the first failure
 * throws a `JsonPatchError` and nothing is returned.
 *
 * As kube-apiserver decodes it, a `null` patch is an empty one, and unknown members of an
 * operation are ignored. `test` compares by JSON value (numbers by value, object members in any
 * order). Array indexes must be canonical decimals within bounds; `-` appends in `add` (and is
 * the `path` of `move`/`copy`) only.
 */
export function applyJsonPatch(doc: unknown, patch: unknown, options: JsonPatchOptions = {}): unknown {
  const operations = decodeOperations(patch);
  const maxOperations = options.maxOperations ?? MAX_JSON_PATCH_OPERATIONS;
  if (operations.length > maxOperations) {
    throw new JsonPatchError(
      'too-many-operations',
      `The allowed maximum operations in a JSON patch is ${maxOperations}, got ${operations.length}`,
    );
  }
  const state = { copiedBytes: 0, maxCopyBytes: options.maxCopyBytes ?? MAX_JSON_PATCH_COPY_BYTES };
  let root = cloneJson(doc);
  operations.forEach((op, index) => {
    root = applyOperation(root, op, index, state);
  });
  return root;
}

/** The operation list, decoded as kube's `jsonpatch.DecodePatch` would accept it. */
function decodeOperations(patch: unknown): (Operation | null)[] {
  if (patch === null) return [];
  if (!Array.isArray(patch)) {
    throw new JsonPatchError(
      'invalid-patch',
      `json: cannot unmarshal ${jsonKind(patch)} into Go value of type jsonpatch.Patch`,
    );
  }
  return patch.map((op, index) => {
    if (op === null || isPlainObject(op)) return op;
    throw new JsonPatchError(
      'invalid-patch',
      `json: cannot unmarshal ${jsonKind(op)} into Go value of type jsonpatch.Operation`,
      index,
    );
  });
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'bigint') return 'number';
  return typeof value;
}

interface CopyState {
  copiedBytes: number;
  readonly maxCopyBytes: number;
}

function applyOperation(root: unknown, op: Operation | null, index: number, state: CopyState): unknown {
  const kind = op !== null && typeof op.op === 'string' ? op.op : 'unknown';
  if (op === null) throw new JsonPatchError('invalid-operation', `Unexpected kind: ${kind}`, index);
  const path = pointerMember(op, 'path', kind, index);
  const at = new Location(path, index);
  switch (kind) {
    case 'add':
      return at.add(root, cloneJson(requiredValue(op, kind, index)));
    case 'remove':
      return at.remove(root);
    case 'replace':
      return at.replace(root, cloneJson(requiredValue(op, kind, index)));
    case 'test': {
      const expected = requiredValue(op, kind, index);
      if (!jsonEqual(at.get(root), expected)) {
        throw new JsonPatchError('test-failed', `testing value ${path} failed: test failed`, index);
      }
      return root;
    }
    case 'move': {
      const from = new Location(pointerMember(op, 'from', kind, index), index);
      const value = from.get(root);
      if (from.pointer === path) return root;
      if (path.startsWith(`${from.pointer}/`)) {
        throw new JsonPatchError(
          'invalid-operation',
          `move operation cannot move ${from.pointer} into its child ${path}`,
          index,
        );
      }
      return at.add(from.remove(root), value);
    }
    case 'copy': {
      const from = new Location(pointerMember(op, 'from', kind, index), index);
      const value = cloneJson(from.get(root));
      state.copiedBytes += Buffer.byteLength(stringifyJson(value) ?? 'null');
      if (state.maxCopyBytes > 0 && state.copiedBytes > state.maxCopyBytes) {
        throw new JsonPatchError(
          'invalid-operation',
          `Unable to complete the copy, the accumulated size increase of copy is ${state.copiedBytes}, exceeding the limit ${state.maxCopyBytes}`,
          index,
        );
      }
      return at.add(root, value);
    }
    default:
      throw new JsonPatchError('invalid-operation', `Unexpected kind: ${kind}`, index);
  }
}

function pointerMember(op: Operation, member: 'path' | 'from', kind: string, index: number): string {
  const value = getKey(op, member);
  if (value === undefined || value === null) {
    throw new JsonPatchError('invalid-operation', `${kind} operation is missing its ${member} field`, index);
  }
  if (typeof value !== 'string') {
    throw new JsonPatchError('invalid-operation', `${kind} operation failed to decode ${member}`, index);
  }
  return value;
}

function requiredValue(op: Operation, kind: string, index: number): unknown {
  if (!hasKey(op, 'value')) {
    throw new JsonPatchError('invalid-operation', `${kind} operation is missing its value field`, index);
  }
  return op.value;
}

/** One JSON pointer, resolved against a document for reading or editing (in place). */
class Location {
  private readonly tokens: string[];

  constructor(
    readonly pointer: string,
    private readonly operationIndex: number,
  ) {
    this.tokens = parseJsonPointer(pointer, operationIndex);
  }

  /** The value at this location; throws `invalid-path` when there is none. */
  get(root: unknown): unknown {
    if (this.tokens.length === 0) return root;
    const { container, key } = this.parent(root);
    if (Array.isArray(container)) return container[this.index(container, key, false)];
    if (!hasKey(container, key)) throw this.missing();
    return container[key];
  }

  /** Inserts (arrays) or sets (objects) `value`; the whole document when the pointer is `''`. */
  add(root: unknown, value: unknown): unknown {
    if (this.tokens.length === 0) return value;
    const { container, key } = this.parent(root);
    if (Array.isArray(container)) container.splice(this.index(container, key, true), 0, value);
    else setKey(container, key, value);
    return root;
  }

  remove(root: unknown): unknown {
    if (this.tokens.length === 0) {
      throw new JsonPatchError(
        'invalid-path',
        'remove operation cannot remove the whole document',
        this.operationIndex,
      );
    }
    const { container, key } = this.parent(root);
    if (Array.isArray(container)) container.splice(this.index(container, key, false), 1);
    else if (hasKey(container, key)) delete container[key];
    else throw this.missing();
    return root;
  }

  replace(root: unknown, value: unknown): unknown {
    if (this.tokens.length === 0) return value;
    const { container, key } = this.parent(root);
    if (Array.isArray(container)) container[this.index(container, key, false)] = value;
    else if (hasKey(container, key)) setKey(container, key, value);
    else throw this.missing();
    return root;
  }

  /** The object or array holding the last token; every step before it must exist. */
  private parent(root: unknown): { container: JsonObject | unknown[]; key: string } {
    let node = root;
    const last = this.tokens.length - 1;
    for (let i = 0; i < last; i++) {
      const token = this.tokens[i];
      if (Array.isArray(node)) node = node[this.index(node, token, false)];
      else if (isPlainObject(node) && hasKey(node, token)) node = node[token];
      else throw this.missing();
    }
    if (!Array.isArray(node) && !isPlainObject(node)) throw this.missing();
    return { container: node, key: this.tokens[last] };
  }

  private index(array: unknown[], token: string, allowEnd: boolean): number {
    return parseArrayIndex(token, array.length, {
      allowEnd,
      pointer: this.pointer,
      operationIndex: this.operationIndex,
    });
  }

  private missing(): JsonPatchError {
    return new JsonPatchError(
      'invalid-path',
      `doc is missing path: "${this.pointer}": missing value`,
      this.operationIndex,
    );
  }
}
