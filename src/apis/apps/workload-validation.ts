/**
 * Validation pieces every workload kind shares (kube's `apps/validation` helpers and their core
 * counterparts): non-negative counts, int-or-percent values, label selectors that must be set,
 * non-empty and match the pod template, and immutable selectors. Messages and paths are kube's.
 */
import { type FieldError, fieldErrors, invalidShown } from '../meta/field-error.js';
import { regexError } from '../meta/name-validation.js';
import { FIELD_IMMUTABLE } from '../meta/object-meta-validation.js';
import { validateLabelSelector } from '../rbac/label-selector-validation.js';
import { jsonEqual } from '../schema/json-value.js';
import { SelectorParseError } from '../selectors/errors.js';
import { type LabelSelector, matchesLabels, NOTHING_LABEL_SELECTOR } from '../selectors/label-selector.js';
import { type LabelSelectorObject, labelSelectorFromObject } from '../selectors/label-selector-object.js';
import { goIntOrString, goLabelSelector, goScalar, goStringMap } from './go-values.js';

/** kube's `IsNegativeErrorMsg`. */
export const NEGATIVE_MESSAGE = 'must be greater than or equal to 0';
/** kube's message when a selector does not match the labels of the pod template. */
export const SELECTOR_MISMATCH = '`selector` does not match template `labels`';

/** `ValidateNonnegativeField`: nothing for an absent value (Go's zero). */
export function validateNonnegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [invalidShown(path, goScalar(value), NEGATIVE_MESSAGE)] : [];
}

const PERCENT_RE = /^[0-9]+%$/;

/** `IsValidPercent`. */
export function percentErrors(value: string): string[] {
  return PERCENT_RE.test(value)
    ? []
    : [regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%')];
}

/** `ValidatePositiveIntOrPercent`: a percent string, or an integer ≥ 0. */
export function validateIntOrPercent(value: unknown, path: string): FieldError[] {
  if (typeof value === 'string') return percentErrors(value).map((m) => invalidShown(path, goIntOrString(value), m));
  if (typeof value === 'number') return value < 0 ? [invalidShown(path, goScalar(value), NEGATIVE_MESSAGE)] : [];
  return [];
}

/** kube's `getIntOrPercentValue`: the percent number of a valid percent, else the integer (0 for other strings). */
export function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && PERCENT_RE.test(value)) return Number.parseInt(value.slice(0, -1), 10);
  if (typeof value === 'string' && /^[+-]?\d+$/.test(value)) return Number.parseInt(value, 10);
  return 0;
}

/** `IsNotMoreThan100Percent`: only percent strings are checked. */
export function validateNotMoreThan100Percent(value: unknown, path: string): FieldError[] {
  if (typeof value !== 'string' || !PERCENT_RE.test(value)) return [];
  return intOrPercentValue(value) > 100
    ? [invalidShown(path, goIntOrString(value), 'must not be greater than 100%')]
    : [];
}

/** The selector of a selector object, or undefined when it does not convert (kube's `LabelSelectorAsSelector` error). */
export function selectorOf(selector: unknown): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(selector as LabelSelectorObject | undefined);
  } catch (e) {
    if (e instanceof SelectorParseError) return undefined;
    throw e;
  }
}

function selectorIsEmpty(selector: unknown): boolean {
  const s = (selector ?? {}) as LabelSelectorObject;
  return Object.keys(s.matchLabels ?? {}).length + (s.matchExpressions ?? []).length === 0;
}

/**
 * The apps/v1 selector rules: required, valid (strictly), not empty (`empty selector is invalid
 * for <what>`). Returns the errors and the converted selector: kube's `Nothing` for a missing one
 * (which no template matches), undefined when it does not convert.
 */
export function validateRequiredSelector(
  selector: unknown,
  path: string,
  what: string,
): { errors: FieldError[]; selector: LabelSelector | undefined } {
  if (selector === undefined || selector === null) {
    return { errors: [fieldErrors.required(path)], selector: NOTHING_LABEL_SELECTOR };
  }
  const errors = validateLabelSelector(selector as LabelSelectorObject, path);
  if (selectorIsEmpty(selector))
    errors.push(invalidShown(path, goLabelSelector(selector), `empty selector is invalid for ${what}`));
  return { errors, selector: selectorOf(selector) };
}

/** `<path>.metadata.labels: Invalid value: map[...]: \`selector\` does not match template \`labels\`` unless they match. */
export function validateSelectorMatchesTemplate(
  selector: LabelSelector | undefined,
  templateLabels: unknown,
  templatePath: string,
): FieldError[] {
  // A missing selector (kube's Nothing) matches no labels; an empty one (Everything) is not checked.
  if (!selector || selector.empty) return [];
  const labels = (templateLabels ?? {}) as Record<string, string>;
  return matchesLabels(selector, labels)
    ? []
    : [invalidShown(`${templatePath}.metadata.labels`, goStringMap(templateLabels), SELECTOR_MISMATCH)];
}

/** `ValidateImmutableField` of a label selector (`spec.selector` of apps/v1 kinds and Jobs). */
export function validateImmutableSelector(selector: unknown, old: unknown, path: string): FieldError[] {
  if (jsonEqual(selector ?? null, old ?? null)) return [];
  const shown = selector === undefined || selector === null ? 'null' : goLabelSelector(selector);
  return [invalidShown(path, shown, FIELD_IMMUTABLE)];
}
