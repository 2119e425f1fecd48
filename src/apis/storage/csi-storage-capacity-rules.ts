import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import type { ApiObject } from '../object.js';
import { validateLabelSelector } from '../rbac/label-selector-validation.js';
import { jsonEqual } from '../schema/json-value.js';
import type { LabelSelectorObject } from '../selectors/label-selector-object.js';

/** A CSIStorageCapacity (`storage.<domain>/v1`, namespaced) as the rules read it. */
export interface CSIStorageCapacity extends ApiObject {
  nodeTopology?: LabelSelectorObject;
  storageClassName?: string;
  capacity?: string;
  maximumVolumeSize?: string;
}

/**
 * kube's `ValidateCSIStorageCapacity` beyond metadata: a valid node topology selector (expression
 * values that are not label values are tolerated on update when the old object had them), a
 * storage class name that is a DNS subdomain, a non-negative capacity.
 */
export function validateCSIStorageCapacity(
  c: CSIStorageCapacity,
  options: { readonly allowInvalidLabelValueInSelector?: boolean } = {},
): FieldError[] {
  const errs = validateLabelSelector(c.nodeTopology, 'nodeTopology', options);
  const className = c.storageClassName ?? '';
  for (const msg of nameIsDNSSubdomain(className, false))
    errs.push(fieldErrors.invalid('storageClassName', className, msg));
  if (typeof c.capacity === 'string' && c.capacity.trim().startsWith('-')) {
    errs.push(fieldErrors.invalid('capacity', c.capacity, 'must be greater than or equal to 0'));
  }
  return errs;
}

/** kube's `ValidateCSIStorageCapacityUpdate`: node topology and storage class name never change. */
export function validateCSIStorageCapacityUpdate(c: CSIStorageCapacity, old: CSIStorageCapacity): FieldError[] {
  const errs: FieldError[] = [];
  if (!jsonEqual(c.nodeTopology ?? null, old.nodeTopology ?? null)) {
    errs.push(fieldErrors.invalid('nodeTopology', c.nodeTopology ?? null, 'field is immutable'));
  }
  if ((c.storageClassName ?? '') !== (old.storageClassName ?? '')) {
    errs.push(fieldErrors.invalid('storageClassName', c.storageClassName ?? '', 'field is immutable'));
  }
  return errs;
}
