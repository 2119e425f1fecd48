import { goQuote } from '../../util/go-strconv.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { validateLabelSelectorRequirement } from '../rbac/label-selector-validation.js';
import { NO_SELECTORS, type SelectorAttributes } from '../request/authorization-attributes.js';
import {
  type ParsedSelector,
  parseFieldSelectorRequirements,
  parseLabelSelectorRequirements,
  selectorAttributesOf,
} from '../request/selector-attributes.js';
import { isPlainObject } from '../schema/json-value.js';
import { SelectorParseError } from '../selectors/errors.js';
import type { FieldRequirement } from '../selectors/field-selector.js';
import type { LabelRequirement } from '../selectors/label-requirement.js';
import { aggregateMessage, type LabelOperator, newLabelRequirement } from '../selectors/label-requirement.js';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | undefined => (isPlainObject(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** One `FieldSelectorRequirement` / `LabelSelectorRequirement` as sent. */
interface RequirementObject {
  key: string;
  operator: string;
  values: string[];
}

const requirementOf = (v: unknown): RequirementObject => {
  const r = obj(v) ?? {};
  return { key: str(r.key), operator: str(r.operator), values: strings(r.values) };
};

/** kube's `validateFieldSelectorAttributes`/`validateLabelSelectorAttributes`: one or the other form. */
function validateForm(selector: Json, path: string): FieldError[] {
  const raw = str(selector.rawSelector);
  const requirements = list(selector.requirements);
  const errs: FieldError[] = [];
  if (raw !== '' && requirements.length > 0) {
    errs.push(fieldErrors.invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
  }
  if (raw === '' && requirements.length === 0) {
    errs.push(
      fieldErrors.required(
        `${path}.requirements`,
        `when ${path} is specified, requirements or rawSelector is required`,
      ),
    );
  }
  return errs;
}

/** kube's `ValidateFieldSelectorRequirement`, unknown operators allowed (newer clients). */
function validateFieldRequirement(r: RequirementObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (r.key === '') errs.push(fieldErrors.required(`${path}.key`, 'must be specified'));
  if ((r.operator === 'In' || r.operator === 'NotIn') && r.values.length === 0) {
    errs.push(fieldErrors.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  }
  if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && r.values.length > 0) {
    errs.push(
      fieldErrors.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
    );
  }
  return errs;
}

/**
 * kube-apiserver's validation of `resourceAttributes.fieldSelector` and `.labelSelector` of an
 * access review (`path` is where `resourceAttributes` sits): each, when present, holds either a
 * `rawSelector` or `requirements`; requirements need a key (a label name for labels), values
 * for `In`/`NotIn` and none for `Exists`/`DoesNotExist`; operators the server does not know are
 * accepted, so that newer clients can still be answered. Every problem is listed.
 */
export function validateReviewSelectors(resourceAttributes: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const field = obj(resourceAttributes.fieldSelector);
  if (field) {
    const at = `${path}.fieldSelector`;
    errs.push(...validateForm(field, at));
    list(field.requirements).forEach((r, i) => {
      errs.push(...validateFieldRequirement(requirementOf(r), `${at}.requirements[${i}]`));
    });
  }
  const label = obj(resourceAttributes.labelSelector);
  if (label) {
    const at = `${path}.labelSelector`;
    errs.push(...validateForm(label, at));
    list(label.requirements).forEach((r, i) => {
      errs.push(
        ...validateLabelSelectorRequirement(requirementOf(r), `${at}.requirements[${i}]`, {
          allowUnknownOperatorInRequirement: true,
        }),
      );
    });
  }
  return errs;
}

/** Joins conversion errors as kube's aggregate does; undefined when there are none. */
const aggregate = (errs: string[]): string | undefined => (errs.length > 0 ? aggregateMessage(errs) : undefined);

/**
 * kube's `fieldSelectorAsSelector`: `In` with one value is `field=value`, `NotIn` `field!=value`;
 * anything else is skipped with an error. The requirements that could be read are kept beside
 * the errors: they only narrow the request, so dropping the others can only broaden it.
 */
function fieldRequirements(requirements: readonly RequirementObject[]): ParsedSelector<FieldRequirement> {
  const out: FieldRequirement[] = [];
  const errs: string[] = [];
  for (const r of requirements) {
    if (r.values.length > 1) {
      errs.push('fieldSelectors do not yet support multiple values');
      continue;
    }
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (r.values.length !== 1) {
        errs.push(`fieldSelectors ${r.operator === 'In' ? 'in' : 'not in'} must have one value`);
        continue;
      }
      out.push({ field: r.key, operator: r.operator === 'In' ? '=' : '!=', value: r.values[0] });
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      errs.push(`fieldSelectors do not yet support ${r.operator}`);
    } else {
      errs.push(`${goQuote(r.operator)} is not a valid field selector operator`);
    }
  }
  return { requirements: out.length > 0 ? out : undefined, error: aggregate(errs) };
}

const LABEL_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/** kube's `labelSelectorAsSelector`: each requirement checked as `labels.NewRequirement` does. */
function labelRequirements(requirements: readonly RequirementObject[]): ParsedSelector<LabelRequirement> {
  const out: LabelRequirement[] = [];
  const errs: string[] = [];
  for (const r of requirements) {
    const op = Object.hasOwn(LABEL_OPERATORS, r.operator) ? LABEL_OPERATORS[r.operator] : undefined;
    if (op === undefined) {
      errs.push(`${goQuote(r.operator)} is not a valid label selector operator`);
      continue;
    }
    try {
      out.push(newLabelRequirement(r.key, op, r.values.length > 0 ? r.values : null));
    } catch (e) {
      if (!(e instanceof SelectorParseError)) throw e;
      errs.push(e.message);
    }
  }
  return { requirements: out.length > 0 ? out : undefined, error: aggregate(errs) };
}

/**
 * The selector attributes of an access review's `resourceAttributes` (kube's
 * `ResourceAttributesFrom` with `AuthorizeWithSelectors`): a `rawSelector` is parsed as a
 * request's query would be; `requirements` are converted, keeping those that could be read
 * beside the errors of the others. Validation ({@link validateReviewSelectors}) has run first.
 */
export function reviewSelectorAttributes(resourceAttributes: Json): SelectorAttributes {
  const field = obj(resourceAttributes.fieldSelector);
  const label = obj(resourceAttributes.labelSelector);
  if (!field && !label) return NO_SELECTORS;
  const fieldRaw = str(field?.rawSelector);
  const labelRaw = str(label?.rawSelector);
  const fieldReqs = list(field?.requirements).map(requirementOf);
  const labelReqs = list(label?.requirements).map(requirementOf);
  return selectorAttributesOf(
    { fieldSelector: fieldRaw, labelSelector: labelRaw },
    fieldReqs.length > 0 ? fieldRequirements(fieldReqs) : parseFieldSelectorRequirements(fieldRaw),
    labelReqs.length > 0 ? labelRequirements(labelReqs) : parseLabelSelectorRequirements(labelRaw),
  );
}

/**
 * kube's `BuildEvaluationError` for the selectors: a review whose selector could not be read
 * (fully or in part) says so in `status.evaluationError`; empty when both were read.
 */
export function selectorEvaluationError(a: SelectorAttributes): string {
  const out: string[] = [];
  const note = (which: string, requirements: readonly unknown[] | undefined, error: string | undefined) => {
    if (error === undefined) return;
    const how = requirements && requirements.length > 0 ? 'partially ignored' : 'ignored';
    out.push(`spec.resourceAttributes.${which} ${how} due to parse error`);
  };
  note('fieldSelector', a.fieldSelectorRequirements, a.fieldSelectorParsingError);
  note('labelSelector', a.labelSelectorRequirements, a.labelSelectorParsingError);
  return out.join('; ');
}
