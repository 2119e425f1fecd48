import { goQuote } from '../../util/go-strconv.js';
import { SelectorParseError } from './errors.js';
import { type LabelOperator, type LabelRequirement, newLabelRequirement } from './label-requirement.js';
import {
  EVERYTHING_LABEL_SELECTOR,
  type LabelSelector,
  labelSelectorOf,
  NOTHING_LABEL_SELECTOR,
} from './label-selector.js';

/** `metav1.LabelSelectorRequirement`. */
export interface LabelSelectorRequirementObject {
  key: string;
  /** `In`, `NotIn`, `Exists` or `DoesNotExist`. */
  operator: string;
  values?: string[] | null;
}

/** `metav1.LabelSelector` as it appears in objects (`spec.selector` and the like). */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: LabelSelectorRequirementObject[] | null;
}

const OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * kube's `metav1.LabelSelectorAsSelector`: a missing selector (undefined or null) matches
 * nothing, an empty one everything; otherwise `matchLabels` become `key=value` requirements and
 * `matchExpressions` map `In`/`NotIn`/`Exists`/`DoesNotExist` onto the selector operators. The
 * first invalid requirement fails the conversion (`matchLabels` in key order, then expressions
 * in order; kube walks `matchLabels` in Go's random map order).
 *
 * @throws SelectorParseError with kube's message, e.g. `"Foo" is not a valid label selector
 *   operator` or `key: Invalid value: "a b": name part must consist of ...`.
 */
export function labelSelectorFromObject(obj: LabelSelectorObject | null | undefined): LabelSelector {
  if (obj === null || obj === undefined) return NOTHING_LABEL_SELECTOR;
  const matchLabels = obj.matchLabels ?? {};
  const expressions = obj.matchExpressions ?? [];
  const labelKeys = Object.keys(matchLabels).sort();
  if (labelKeys.length + expressions.length === 0) return EVERYTHING_LABEL_SELECTOR;
  const requirements: LabelRequirement[] = labelKeys.map((k) => newLabelRequirement(k, '=', [matchLabels[k]]));
  for (const expr of expressions) {
    const op = Object.hasOwn(OPERATORS, expr.operator) ? OPERATORS[expr.operator] : undefined;
    if (!op)
      throw new SelectorParseError('label', `${goQuote(String(expr.operator))} is not a valid label selector operator`);
    // kube copies the values with append([]string(nil), ...): no values is a nil slice.
    const values = expr.values && expr.values.length > 0 ? expr.values : null;
    requirements.push(newLabelRequirement(expr.key, op, values));
  }
  return labelSelectorOf(requirements);
}
