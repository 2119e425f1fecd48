import { type StatusCause, StatusError } from '../apis/meta/status.js';
import { goQuote } from '../util/go-strconv.js';
import { compareGoStrings } from '../util/go-strings.js';
import { type Path, pathString } from './fieldpath/path-element.js';
import { type ManagerInfo, parseManagerIdentifier } from './managed-fields.js';

/** One field an apply would change although another manager owns it. */
export interface ApplyConflict {
  /** The owner, as its managed-fields entry names it. */
  readonly owner: ManagerInfo;
  /** The owner's manager identifier (kube's sort key for messages). */
  readonly ownerId: string;
  readonly path: Path;
  /** The path as kube prints it, e.g. `.data.key` or `.metadata.finalizers[="a"]`. */
  readonly field: string;
}

/**
 * kube's rendering of an owner: `"name"`, plus ` with subresource "status"` for sub-resource
 * entries, plus ` using <apiVersion>` for updaters (identities carry no time, so kube's
 * ` at <time>` form never appears).
 */
export function printManager(owner: ManagerInfo): string {
  let out = goQuote(owner.manager);
  if (owner.subresource) out += ` with subresource ${goQuote(owner.subresource)}`;
  if (owner.operation === 'Update') out += ` using ${owner.apiVersion}`;
  return out;
}

/**
 * An apply changes fields other managers own (HTTP 409, reason `Conflict`). `message` is
 * kube's text, which kubectl prints:
 * - `Apply failed with 1 conflict: conflict with "mgr" using v1: .data.key`
 * - `Apply failed with 2 conflicts: conflicts with "a" using v1:\n- .data.x\nconflicts with "b":\n- .data.y`
 *   (owners in identifier order, each owner's fields in field-set order).
 *
 * `causes` holds one `{reason: 'FieldManagerConflict', message: 'conflict with "mgr" using v1',
 * field: '.data.key'}` per field.
 */
export class ApplyConflictError extends Error {
  readonly causes: readonly StatusCause[];

  constructor(readonly conflicts: readonly ApplyConflict[]) {
    super(conflictMessage(conflicts));
    this.name = 'ApplyConflictError';
    this.causes = conflicts.map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${printManager(c.owner)}`,
      field: c.field,
    }));
  }

  /** The `Status` error kube answers with. */
  toStatusError(): StatusError {
    return new StatusError(
      409,
      'Conflict',
      this.message,
      { causes: this.causes.map((c) => ({ ...c })) },
      { cause: this },
    );
  }
}

/** Builds the conflicts of an apply from owner identifiers and paths. */
export function applyConflicts(list: readonly { manager: string; path: Path }[]): ApplyConflict[] {
  return list.map((c) => ({
    owner: parseManagerIdentifier(c.manager),
    ownerId: c.manager,
    path: c.path,
    field: pathString(c.path),
  }));
}

function conflictMessage(conflicts: readonly ApplyConflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0];
    return `Apply failed with 1 conflict: conflict with ${printManager(c.owner)}: ${c.field}`;
  }
  const byOwner = new Map<string, ApplyConflict[]>();
  for (const c of conflicts) {
    const list = byOwner.get(c.ownerId);
    if (list) list.push(c);
    else byOwner.set(c.ownerId, [c]);
  }
  const lines: string[] = [];
  for (const id of [...byOwner.keys()].sort(compareGoStrings)) {
    const list = byOwner.get(id)!;
    lines.push(`conflicts with ${printManager(list[0].owner)}:`);
    for (const c of list) lines.push(`- ${c.field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/**
 * A request the field manager refuses or cannot process, with the status kube answers:
 * 400 `BadRequest` (e.g. `metadata.managedFields must be nil`, `invalid object type: …`) or 500
 * with no reason (e.g. `failed to create typed patch object (ns/name; /v1, Kind=ConfigMap):
 * .foo: field not declared in schema`).
 */
export class FieldManagerError extends Error {
  constructor(
    readonly code: 400 | 500,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FieldManagerError';
  }

  toStatusError(): StatusError {
    return new StatusError(this.code, this.code === 400 ? 'BadRequest' : '', this.message, undefined, { cause: this });
  }
}
