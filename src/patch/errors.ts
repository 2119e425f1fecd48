import { goString, goTypeName, goValue } from './go-format.js';

/**
 * Typed errors of the patch libraries. Both carry what the PATCH handler needs to answer the
 * way kube-apiserver v1.32 does; `patchErrorToStatusError` (patch-status.ts) performs that mapping.
 */

/**
 * Why a JSON patch (RFC 6902) failed:
 * - `invalid-patch`: the body is not a list of operation objects (kube: 400, from decoding);
 * - `too-many-operations`: more operations than allowed (kube: 413);
 * - `invalid-operation`: an operation lacks `op`/`path`/`value`/`from`, names an unknown op,
 *   moves a value into itself, or copies more than the copy limit (kube: 422);
 * - `invalid-path`: a JSON pointer is malformed or names no location (kube: 422);
 * - `test-failed`: a `test` operation compared unequal (kube: 422).
 */
export type JsonPatchErrorKind =
  | 'invalid-patch'
  | 'too-many-operations'
  | 'invalid-operation'
  | 'invalid-path'
  | 'test-failed';

/** A JSON patch that could not be decoded or applied. The input document is left untouched. */
export class JsonPatchError extends Error {
  constructor(
    readonly kind: JsonPatchErrorKind,
    message: string,
    /** Index of the failing operation in the patch, when one operation is to blame. */
    readonly operationIndex?: number,
  ) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

/**
 * Why a strategic merge patch failed, grouped by the HTTP status kube-apiserver answers:
 * - 400 (`BadRequest`, kube's message): `bad-json-document`, `bad-primitive-list`,
 *   `bad-retain-keys`, `bad-set-element-order`, `unsupported`;
 * - 422 (`Invalid`, generic message): `list-of-lists`;
 * - 500 (no reason, kube's message): everything kube's strategicpatch package reports with an
 *   ad-hoc error — `no-merge-key`, `bad-directive`, `bad-argument-type`, `order-mismatch`,
 *   `element-type-mismatch`, `unknown-field`, `bad-schema`.
 */
export type StrategicMergePatchErrorKind =
  | 'bad-json-document'
  | 'bad-primitive-list'
  | 'bad-retain-keys'
  | 'bad-set-element-order'
  | 'unsupported'
  | 'list-of-lists'
  | 'no-merge-key'
  | 'bad-directive'
  | 'bad-argument-type'
  | 'order-mismatch'
  | 'element-type-mismatch'
  | 'unknown-field'
  | 'bad-schema';

const BAD_REQUEST_KINDS: ReadonlySet<StrategicMergePatchErrorKind> = new Set([
  'bad-json-document',
  'bad-primitive-list',
  'bad-retain-keys',
  'bad-set-element-order',
  'unsupported',
]);

/** A strategic merge patch that could not be applied; `message` is kube's wording. */
export class StrategicMergePatchError extends Error {
  /** The HTTP status kube-apiserver v1.32 answers for this failure. */
  readonly code: 400 | 422 | 500;
  constructor(
    readonly kind: StrategicMergePatchErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'StrategicMergePatchError';
    this.code = BAD_REQUEST_KINDS.has(kind) ? 400 : kind === 'list-of-lists' ? 422 : 500;
  }
}

/** kube's `mergepatch` sentinel errors, worded as it words them. */
export const smpErrors = {
  badJsonDocument: () => new StrategicMergePatchError('bad-json-document', 'invalid JSON document'),
  noListOfLists: () => new StrategicMergePatchError('list-of-lists', 'lists of lists are not supported'),
  badPrimitiveList: () => new StrategicMergePatchError('bad-primitive-list', 'invalid patch format of primitive list'),
  badRetainKeys: () => new StrategicMergePatchError('bad-retain-keys', 'invalid patch format of retainKeys'),
  badSetElementOrder: () =>
    new StrategicMergePatchError('bad-set-element-order', 'invalid patch format of setElementOrder list'),
  unsupported: () => new StrategicMergePatchError('unsupported', 'strategic merge patch format is not supported'),
  noMergeKey: (map: unknown, mergeKey: string) =>
    new StrategicMergePatchError(
      'no-merge-key',
      `map: ${goValue(map)} does not contain declared merge key: ${mergeKey}`,
    ),
  /** `expected` is a sample of the wanted type: `{}` for a map, `[]` for a list. */
  badArgType: (expected: unknown, actual: unknown) =>
    new StrategicMergePatchError(
      'bad-argument-type',
      `expected a ${goTypeName(expected)}, but received a ${goTypeName(actual)}`,
    ),
  badPatchType: (directive: unknown, map: unknown) =>
    new StrategicMergePatchError('bad-directive', `unknown patch type: ${goString(directive)} in map: ${goValue(map)}`),
};
