import type { ApiDomain } from '../api-domain.js';
import type { ObjectMeta, OwnerReference } from '../object.js';
import { childPath, indexPath } from '../schema/field-path.js';
import { jsonEqual } from '../schema/json-value.js';
import { goTimeString } from '../schema/time-format.js';
import { type FieldError, fieldErrors } from './field-error.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue, type NameValidator } from './name-validation.js';

/** Finalizer that makes the garbage collector orphan dependents. */
export const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
/** Finalizer that makes the garbage collector delete dependents first (foreground deletion). */
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';
/**
 * Finalizer names that need no domain prefix in core-group kinds: the namespace finalizer of the
 * domain (`orch` | `kubernetes`), `orphan` and `foregroundDeletion`.
 */
export function standardFinalizers(domain: ApiDomain): readonly string[] {
  return [domain.namespaceFinalizer, FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS];
}
/** Sum of the lengths of all annotation keys and values, in bytes. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;
/** Longest field manager name. */
export const FIELD_MANAGER_MAX_LENGTH = 128;
const MAX_SUBRESOURCE_NAME_LENGTH = 256;
/** Kinds that may never be owners (kube's `BannedOwners`). */
const BANNED_OWNERS = new Set(['/v1, Kind=Event']);
/** kube's `FieldImmutableErrorMsg`. */
export const FIELD_IMMUTABLE = 'field is immutable';

export interface ObjectMetaValidationOptions {
  /** Whether the kind is namespaced (`metadata.namespace` required) or cluster-scoped (forbidden). */
  readonly namespaced: boolean;
  /** The kind's name rule, applied to `name` and (as a prefix) to `generateName`. */
  readonly nameValidator: NameValidator;
  /** Path of the metadata; `metadata` unless the object is embedded. */
  readonly path?: string;
  /**
   * Core-group kinds also require every finalizer without a `/` to be one of these standard names
   * (kube's `validateKubeFinalizerName`). Omit for other groups.
   */
  readonly standardFinalizers?: readonly string[];
}

/** `Invalid value: <display>: <detail>` where `display` is already formatted (Go's `%v`). */
function invalidDisplay(field: string, display: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${display}: ${detail}` };
}

/**
 * Metadata validation on create, as kube-apiserver's `ValidateObjectMeta`: name or generateName
 * (per the kind's rule), namespace presence and format, generation, labels, annotations, owner
 * references, finalizers and managedFields. Expects name generation to have happened already.
 */
export function validateObjectMeta(meta: ObjectMeta, opts: ObjectMetaValidationOptions): FieldError[] {
  const path = opts.path ?? 'metadata';
  const errs = validateObjectMetaNames(meta, opts.nameValidator, path);
  const nsPath = childPath(path, 'namespace');
  if (opts.namespaced) {
    if (!meta.namespace) errs.push(fieldErrors.required(nsPath));
    else for (const msg of isDNS1123Label(meta.namespace)) errs.push(fieldErrors.invalid(nsPath, meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(fieldErrors.forbidden(nsPath, 'not allowed on this type'));
  }
  if ((meta.generation ?? 0) < 0) {
    errs.push(
      fieldErrors.invalid(childPath(path, 'generation'), meta.generation, 'must be greater than or equal to 0'),
    );
  }
  errs.push(...validateLabels(meta.labels, childPath(path, 'labels')));
  errs.push(...validateAnnotations(meta.annotations, childPath(path, 'annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, childPath(path, 'ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, childPath(path, 'finalizers')));
  errs.push(...validateManagedFields(meta.managedFields, childPath(path, 'managedFields')));
  if (opts.standardFinalizers) {
    errs.push(...validateStandardFinalizers(meta.finalizers, childPath(path, 'finalizers'), opts.standardFinalizers));
  }
  return errs;
}

/**
 * The part of {@link validateObjectMeta} that depends on the name rule: `generateName` (as a
 * prefix) and `name`, which is required. For a second name rule on metadata that already passed
 * `validateObjectMeta`, these are the only checks that can report anything new.
 */
export function validateObjectMetaNames(
  meta: ObjectMeta,
  nameValidator: NameValidator,
  path = 'metadata',
): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const msg of nameValidator(meta.generateName, true)) {
      errs.push(fieldErrors.invalid(childPath(path, 'generateName'), meta.generateName, msg));
    }
  }
  if (!meta.name) {
    errs.push(fieldErrors.required(childPath(path, 'name'), 'name or generateName is required'));
  } else {
    for (const msg of nameValidator(meta.name, false)) {
      errs.push(fieldErrors.invalid(childPath(path, 'name'), meta.name, msg));
    }
  }
  return errs;
}

export interface ObjectMetaUpdateOptions {
  readonly path?: string;
  /** As in {@link ObjectMetaValidationOptions.standardFinalizers}. */
  readonly standardFinalizers?: readonly string[];
}

/**
 * Metadata validation on update, as kube-apiserver's `ValidateObjectMetaUpdate`: no new
 * finalizers while deleting, `resourceVersion` present, generation not decremented, name,
 * namespace, uid, creationTimestamp, deletionTimestamp and deletionGracePeriodSeconds immutable,
 * then labels, annotations, owner references and managedFields of the new metadata.
 */
export function validateObjectMetaUpdate(
  newMeta: ObjectMeta,
  oldMeta: ObjectMeta,
  opts: ObjectMetaUpdateOptions = {},
): FieldError[] {
  const path = opts.path ?? 'metadata';
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp) {
    const old = new Set(oldMeta.finalizers ?? []);
    const extra = [...new Set((newMeta.finalizers ?? []).filter((f) => !old.has(f)))].sort();
    if (extra.length > 0) {
      errs.push(
        fieldErrors.forbidden(
          childPath(path, 'finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`,
        ),
      );
    }
  }
  if (!newMeta.resourceVersion) {
    errs.push(fieldErrors.invalid(childPath(path, 'resourceVersion'), '', 'must be specified for an update'));
  }
  if ((newMeta.generation ?? 0) < (oldMeta.generation ?? 0)) {
    errs.push(fieldErrors.invalid(childPath(path, 'generation'), newMeta.generation ?? 0, 'must not be decremented'));
  }
  for (const field of ['name', 'namespace', 'uid'] as const) {
    errs.push(...validateImmutableField(newMeta[field] ?? '', oldMeta[field] ?? '', childPath(path, field)));
  }
  const newCreated = goTimeString(newMeta.creationTimestamp);
  if (newCreated !== goTimeString(oldMeta.creationTimestamp)) {
    errs.push(invalidDisplay(childPath(path, 'creationTimestamp'), newCreated, FIELD_IMMUTABLE));
  }
  const newDeleted = newMeta.deletionTimestamp ? goTimeString(newMeta.deletionTimestamp) : 'null';
  if (newDeleted !== (oldMeta.deletionTimestamp ? goTimeString(oldMeta.deletionTimestamp) : 'null')) {
    errs.push(invalidDisplay(childPath(path, 'deletionTimestamp'), newDeleted, FIELD_IMMUTABLE));
  }
  errs.push(
    ...validateImmutableField(
      newMeta.deletionGracePeriodSeconds ?? null,
      oldMeta.deletionGracePeriodSeconds ?? null,
      childPath(path, 'deletionGracePeriodSeconds'),
    ),
  );
  errs.push(...validateLabels(newMeta.labels, childPath(path, 'labels')));
  errs.push(...validateAnnotations(newMeta.annotations, childPath(path, 'annotations')));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, childPath(path, 'ownerReferences')));
  errs.push(...validateManagedFields(newMeta.managedFields, childPath(path, 'managedFields')));
  if (opts.standardFinalizers) {
    errs.push(
      ...validateStandardFinalizers(newMeta.finalizers, childPath(path, 'finalizers'), opts.standardFinalizers),
    );
  }
  return errs;
}

/** `Invalid value: <new>: field is immutable` when the two JSON values differ. */
export function validateImmutableField(newValue: unknown, oldValue: unknown, path: string): FieldError[] {
  return jsonEqual(newValue, oldValue) ? [] : [fieldErrors.invalid(path, newValue, FIELD_IMMUTABLE)];
}

/** Label keys are qualified names; values are empty or at most 63 label characters. */
export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!labels) return errs;
  for (const key of Object.keys(labels)) {
    const value = labels[key];
    for (const msg of isQualifiedName(key)) errs.push(fieldErrors.invalid(path, key, msg));
    for (const msg of isValidLabelValue(value)) errs.push(fieldErrors.invalid(path, value, msg));
  }
  return errs;
}

/** Annotation keys are qualified names (case-insensitive); keys plus values total ≤ 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  if (!annotations) return errs;
  for (const key of Object.keys(annotations)) {
    const value = annotations[key];
    for (const msg of isQualifiedName(key.toLowerCase())) errs.push(fieldErrors.invalid(path, key, msg));
    total += Buffer.byteLength(key, 'utf8') + Buffer.byteLength(value ?? '', 'utf8');
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES)
    errs.push(fieldErrors.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  return errs;
}

/** Splits an apiVersion as kube's `schema.ParseGroupVersion` (invalid forms give no version). */
function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (apiVersion === '' || parts.length > 2) return { group: '', version: '' };
  return parts.length === 1 ? { group: '', version: parts[0] } : { group: parts[0], version: parts[1] };
}

/** apiVersion (with a version), kind, name and uid set; at most one controller; no Event owners. */
export function validateOwnerReferences(refs: OwnerReference[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    const gv = parseApiVersion(ref.apiVersion ?? '');
    if (!gv.version)
      errs.push(fieldErrors.invalid(childPath(path, 'apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
    if (!ref.kind) errs.push(fieldErrors.invalid(childPath(path, 'kind'), ref.kind ?? '', 'kind must not be empty'));
    if (!ref.name) errs.push(fieldErrors.invalid(childPath(path, 'name'), ref.name ?? '', 'name must not be empty'));
    if (!ref.uid) errs.push(fieldErrors.invalid(childPath(path, 'uid'), ref.uid ?? '', 'uid must not be empty'));
    const gvk = `${gv.group}/${gv.version}, Kind=${ref.kind ?? ''}`;
    if (BANNED_OWNERS.has(gvk)) errs.push(fieldErrors.invalid(path, ref, `${gvk} is disallowed from being an owner`));
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController) {
        errs.push(
          fieldErrors.invalid(
            path,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

/** Each finalizer is a qualified name; `orphan` and `foregroundDeletion` exclude each other. */
export function validateFinalizers(finalizers: string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  for (const f of list) errs.push(...validateFinalizerName(f, path));
  if (list.includes(FINALIZER_ORPHAN_DEPENDENTS) && list.includes(FINALIZER_DELETE_DEPENDENTS)) {
    errs.push(
      fieldErrors.invalid(
        path,
        list,
        `finalizer ${FINALIZER_ORPHAN_DEPENDENTS} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`,
      ),
    );
  }
  return errs;
}

/** A finalizer name must be a qualified name. */
export function validateFinalizerName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
}

/** Core-group rule: a finalizer without a domain prefix must be a standard one. */
export function validateStandardFinalizerName(name: string, path: string, standard: readonly string[]): FieldError[] {
  if (name.split('/').length === 1 && !standard.includes(name)) {
    return [fieldErrors.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified')];
  }
  return [];
}

function validateStandardFinalizers(
  finalizers: string[] | undefined,
  path: string,
  standard: readonly string[],
): FieldError[] {
  return (finalizers ?? []).flatMap((f, i) => validateStandardFinalizerName(f, indexPath(path, i), standard));
}

/** Each entry: operation `Apply`/`Update`, fieldsType empty or `FieldsV1`, a valid manager. */
export function validateManagedFields(entries: Record<string, unknown>[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((entry, i) => {
    const p = indexPath(path, i);
    const operation = entry.operation ?? '';
    if (operation !== 'Apply' && operation !== 'Update') {
      errs.push(fieldErrors.invalid(childPath(p, 'operation'), operation, 'must be `Apply` or `Update`'));
    }
    const fieldsType = entry.fieldsType;
    if (typeof fieldsType === 'string' && fieldsType.length > 0 && fieldsType !== 'FieldsV1') {
      errs.push(fieldErrors.invalid(childPath(p, 'fieldsType'), fieldsType, 'must be `FieldsV1`'));
    }
    errs.push(...validateFieldManager(typeof entry.manager === 'string' ? entry.manager : '', childPath(p, 'manager')));
    if (typeof entry.subresource === 'string' && entry.subresource.length > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(fieldErrors.tooLong(childPath(p, 'subresource'), MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
/** Printable ASCII: every character from space to `~` is printable in Go's sense. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** A field manager is at most 128 bytes of printable characters (Go's `unicode.IsPrint`). */
export function validateFieldManager(manager: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // The usual manager (`kubectl`, a controller's name) is short printable ASCII: one byte per
  // character, nothing to look at one by one.
  if (manager.length <= FIELD_MANAGER_MAX_LENGTH && PRINTABLE_ASCII.test(manager)) return errs;
  if (Buffer.byteLength(manager, 'utf8') > FIELD_MANAGER_MAX_LENGTH) {
    errs.push(fieldErrors.tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  }
  let offset = 0;
  for (const ch of manager) {
    if (!PRINTABLE.test(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errs.push(fieldErrors.invalid(path, manager, `invalid character U+${code} (at position ${offset})`));
    }
    offset += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}
