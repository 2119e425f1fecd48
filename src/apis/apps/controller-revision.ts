/**
 * apps/v1 ControllerRevision rules as kube-apiserver v1.32 applies them: `data` is mandatory and
 * never changes, `revision` is not negative.
 */
import type { FieldError } from '../meta/field-error.js';
import { fieldErrors } from '../meta/field-error.js';
import { FIELD_IMMUTABLE } from '../meta/object-meta-validation.js';
import type { ApiObject } from '../object.js';
import { jsonEqual } from '../schema/json-value.js';
import { validateNonnegative } from './workload-validation.js';

export interface ControllerRevision extends ApiObject {
  data?: unknown;
  revision?: number;
}

/** `ValidateControllerRevision` beyond metadata. */
export function validateControllerRevision(cr: ControllerRevision): FieldError[] {
  const errs: FieldError[] = [];
  if (cr.data === undefined || cr.data === null) errs.push(fieldErrors.required('data', 'data is mandatory'));
  errs.push(...validateNonnegative(cr.revision, 'revision'));
  return errs;
}

/** `ValidateControllerRevisionUpdate` beyond metadata: `data` is immutable. */
export function validateControllerRevisionUpdate(cr: ControllerRevision, old: ControllerRevision): FieldError[] {
  const errs = validateControllerRevision(cr);
  if (!jsonEqual(cr.data ?? null, old.data ?? null))
    errs.push(fieldErrors.invalid('data', cr.data ?? null, FIELD_IMMUTABLE));
  return errs;
}
