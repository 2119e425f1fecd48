import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isQualifiedName, isValidLabelValue } from '../meta/name-validation.js';
import type { LabelSelectorObject, LabelSelectorRequirementObject } from '../selectors/label-selector-object.js';

/**
 * kube's `ValidateLabelSelector` (`apimachinery/pkg/apis/meta/v1/validation`): label keys are
 * qualified names, label values valid label values, each expression has a known operator with
 * values exactly when it needs them. `matchLabels` problems are reported at `matchLabels` itself
 * (as kube does), in key order (kube's is Go's random map order).
 */
export interface LabelSelectorValidationOptions {
  /** Skip the label-value check of expression values (kept for objects that already have them). */
  readonly allowInvalidLabelValueInSelector?: boolean;
  /** Accept operators this server does not know (access reviews from newer clients). */
  readonly allowUnknownOperatorInRequirement?: boolean;
}

export function validateLabelSelector(
  selector: LabelSelectorObject | null | undefined,
  path: string,
  options: LabelSelectorValidationOptions = {},
): FieldError[] {
  if (selector === null || selector === undefined) return [];
  const errs: FieldError[] = [];
  const labels = selector.matchLabels ?? {};
  for (const key of Object.keys(labels).sort()) {
    errs.push(...validateLabelName(key, `${path}.matchLabels`));
    for (const msg of isValidLabelValue(labels[key])) {
      errs.push(fieldErrors.invalid(`${path}.matchLabels`, labels[key], msg));
    }
  }
  (selector.matchExpressions ?? []).forEach((expr, i) => {
    errs.push(...validateLabelSelectorRequirement(expr, `${path}.matchExpressions[${i}]`, options));
  });
  return errs;
}

function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
}

/** kube's `ValidateLabelSelectorRequirement`: operator and values, key, then each value. */
export function validateLabelSelectorRequirement(
  expr: LabelSelectorRequirementObject,
  path: string,
  options: LabelSelectorValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  const values = expr.values ?? [];
  switch (expr.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) {
        errs.push(fieldErrors.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errs.push(
          fieldErrors.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      }
      break;
    default:
      if (!options.allowUnknownOperatorInRequirement) {
        errs.push(fieldErrors.invalid(`${path}.operator`, expr.operator, 'not a valid selector operator'));
      }
  }
  errs.push(...validateLabelName(expr.key, `${path}.key`));
  if (!options.allowInvalidLabelValueInSelector) {
    values.forEach((value, i) => {
      for (const msg of isValidLabelValue(value)) errs.push(fieldErrors.invalid(`${path}.values[${i}]`, value, msg));
    });
  }
  return errs;
}

/** Whether any expression value of the selectors is not a valid label value. */
export function hasInvalidLabelValue(selectors: readonly LabelSelectorObject[]): boolean {
  return selectors.some((s) =>
    (s.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => isValidLabelValue(v).length > 0)),
  );
}
