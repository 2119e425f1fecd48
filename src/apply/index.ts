/**
 * Server-side apply and field ownership (`metadata.managedFields`), following kube-apiserver
 * v1.32 (structured-merge-diff v4 and apimachinery's field manager). Pure: no I/O, no globals.
 */
export { ANCIENT_CHANGES_MANAGER, DEFAULT_MAX_UPDATE_MANAGERS } from './cap-managers.js';
export { type ApplyConflict, ApplyConflictError, FieldManagerError, printManager } from './errors.js';
export {
  createFieldManager,
  type FieldManager,
  type FieldManagerConfig,
  type WriteOptions,
} from './field-manager.js';
export { FieldSet, FieldSetBuilder, fieldPathsSet, type SetEntry } from './fieldpath/field-set.js';
export { FieldsV1Error, fieldsV1Text, fromFieldsV1, toFieldsV1 } from './fieldpath/fields-v1.js';
export {
  comparePathElements,
  fieldElement,
  indexElement,
  keyElement,
  type Path,
  type PathElement,
  parsePathElement,
  pathString,
  valueElement,
} from './fieldpath/path-element.js';
export { KUBECTL_MANAGER, LAST_APPLIED_ANNOTATION } from './last-applied.js';
export {
  decodeManagedFields,
  encodeManagedFields,
  type Managed,
  ManagedFieldsDecodeError,
  type ManagerInfo,
  managerIdentifier,
} from './managed-fields.js';
export {
  FIELD_MANAGER_MAX_LENGTH,
  managerFromUserAgent,
  managerOrUserAgent,
  validateFieldManager,
  validatePatchFieldManager,
} from './manager-name.js';
export { cloneValue } from './object-helpers.js';
export { type Comparison, compareTyped } from './typed/compare.js';
export { fieldSetOf } from './typed/to-field-set.js';
export { TypeCompiler, type TypeNode } from './typed/type-node.js';
export { validateTyped } from './typed/validate.js';
