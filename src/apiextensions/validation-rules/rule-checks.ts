import { type FieldError, fieldErrors, invalidShown, notSupportedShown } from '../../apis/meta/field-error.js';
import { childPath, indexPath } from '../../apis/schema/field-path.js';
import type { Schema, SchemaValidationRule } from '../../apis/schema/schema.js';
import { trimSpace } from '../../cel/string-semantics.js';
import { goQuote } from '../../util/go-strconv.js';
import { validFieldPath } from './rule-field-path.js';

/** The name kube gives the rules of a schema node in definitions and their error paths. */
export const VALIDATIONS_KEY = 'x-kubernetes-validations';

/** The reasons a rule may give (kube's `supportedValidationReason`, sorted as kube lists them). */
export const SUPPORTED_REASONS: readonly string[] = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
];

/** Line breaks as the CEL grammar knows them. */
const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

/** Go's `%#v` of a pointer member of kube's internal `ValidationRule` (an address when set). */
function goPointer(type: string, set: boolean): string {
  return `(*${type})(${set ? '0xc000000000' : 'nil'})`;
}

/**
 * Go's `%#v` of the internal `ValidationRule`, which kube prints as the invalid value of a rule
 * or messageExpression that does not compile. Addresses of set pointers are not reproducible:
 * they are shown as `0xc000000000`.
 */
export function goValidationRule(rule: SchemaValidationRule): string {
  const str = (v: unknown): string => goQuote(typeof v === 'string' ? v : '');
  return (
    `apiextensions.ValidationRule{Rule:${str(rule.rule)}, Message:${str(rule.message)}, ` +
    `MessageExpression:${str(rule.messageExpression)}, ` +
    `Reason:${goPointer('apiextensions.FieldValueErrorReason', rule.reason !== undefined)}, ` +
    `FieldPath:${str(rule.fieldPath)}, OptionalOldSelf:${goPointer('bool', rule.optionalOldSelf !== undefined)}}`
  );
}

/**
 * The problems of the rules of one node that need no compiler (kube's schema errors of
 * `x-kubernetes-validations`): an empty rule, an empty or multi-line message, a multi-line rule
 * without a message, an empty messageExpression, an unknown reason, an empty, multi-line or
 * invalid fieldPath. `path` is the node's path in the definition.
 */
export function ruleFieldErrors(rules: readonly SchemaValidationRule[], schema: Schema, path: string): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((rule, i) => {
    const at = (member: string) => childPath(indexPath(childPath(path, VALIDATIONS_KEY), i), member);
    const text = (v: unknown): string => (typeof v === 'string' ? v : '');
    const message = text(rule.message);
    const trimmedRule = trimSpace(text(rule.rule));
    const trimmedMessage = trimSpace(message);
    if (trimmedRule === '') {
      errs.push(fieldErrors.required(at('rule'), 'rule is not specified'));
    } else if (message.length > 0 && trimmedMessage === '') {
      errs.push(invalidShown(at('message'), goQuote(message), 'message must be non-empty if specified'));
    } else if (hasNewlines(trimmedMessage)) {
      errs.push(invalidShown(at('message'), goQuote(message), 'message must not contain line breaks'));
    } else if (hasNewlines(trimmedRule) && trimmedMessage === '') {
      errs.push(fieldErrors.required(at('message'), 'message must be specified if rule contains line breaks'));
    }
    const messageExpression = text(rule.messageExpression);
    if (messageExpression.length > 0 && trimSpace(messageExpression) === '') {
      errs.push(fieldErrors.required(at('messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !SUPPORTED_REASONS.includes(rule.reason)) {
      errs.push(notSupportedShown(at('reason'), goQuote(text(rule.reason)), SUPPORTED_REASONS));
    }
    const fieldPath = text(rule.fieldPath);
    if (fieldPath.length > 0 && trimSpace(fieldPath) === '') {
      errs.push(invalidShown(at('fieldPath'), goQuote(fieldPath), 'fieldPath must be non-empty if specified'));
    }
    if (hasNewlines(fieldPath)) {
      errs.push(invalidShown(at('fieldPath'), goQuote(fieldPath), 'fieldPath must not contain line breaks'));
    }
    if (fieldPath.length > 0 && validFieldPath(fieldPath, schema).error !== undefined) {
      errs.push(invalidShown(at('fieldPath'), goQuote(fieldPath), 'fieldPath must be a valid path'));
    }
  });
  return errs;
}
