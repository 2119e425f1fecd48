import { goQuote } from '../../util/go-strconv.js';
import { compareGoStrings } from '../../util/go-strings.js';
import { isQualifiedName, isValidLabelValue } from '../meta/name-validation.js';
import { SelectorParseError } from './errors.js';
import { goStringSlice } from './go-format.js';

/** kube's `selection.Operator` values a label requirement may carry. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

/** The binary operators, in the order kube lists them in `expected: ...` messages. */
export const BINARY_LABEL_OPERATORS: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

/**
 * One requirement of a label selector: `key <operator> values`. Build it with
 * `newLabelRequirement` (or the parser) so it has passed kube's validation.
 */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Values as given (the parser sorts and de-duplicates them, as kube's parser does). */
  readonly values: readonly string[];
}

/** `<path>: Invalid value: <value>: <detail>`, the text of a Go `field.Invalid` error. */
function invalid(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${value}: ${detail}`;
}

/** kube's `validateLabelKey`: the key must be a qualified name. Returns the error text or undefined. */
export function labelKeyError(key: string, path: string): string | undefined {
  const errs = isQualifiedName(key);
  return errs.length > 0 ? invalid(path, goQuote(key), errs.join('; ')) : undefined;
}

const INT64 = /^[+-]?\d+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's `strconv.ParseInt(s, 10, 64)`; undefined when it fails. */
export function parseGoInt64(value: string): bigint | undefined {
  if (!INT64.test(value)) return undefined;
  const n = BigInt(value);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/**
 * kube's `labels.NewRequirement`: validates the key (qualified name), the number of values the
 * operator takes, integer values for `gt`/`lt`, and every value as a label value. `path` is the
 * field path kube prefixes the key and value errors with (`key`, `values[0][<key>]` at the root).
 *
 * @throws SelectorParseError with kube's aggregated message (one error as is, several as
 *   `[a, b]`, duplicates dropped).
 */
export function newLabelRequirement(
  key: string,
  operator: LabelOperator,
  values: readonly string[] | null,
  path = '',
): LabelRequirement {
  const child = (name: string) => (path ? `${path}.${name}` : name);
  const errs: string[] = [];
  const keyErr = labelKeyError(key, child('key'));
  if (keyErr) errs.push(keyErr);
  const valuesPath = child('values');
  const vals = values ?? [];
  const badValues = goStringSlice(values);
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0)
        errs.push(invalid(valuesPath, badValues, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1)
        errs.push(invalid(valuesPath, badValues, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0)
        errs.push(invalid(valuesPath, badValues, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1)
        errs.push(invalid(valuesPath, badValues, "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseGoInt64(v) === undefined)
          errs.push(
            invalid(`${valuesPath}[${i}]`, goQuote(v), "for 'Gt', 'Lt' operators, the value must be an integer"),
          );
      });
      break;
  }
  vals.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(invalid(`${valuesPath}[${i}][${key}]`, goQuote(v), msgs.join('; ')));
  });
  if (errs.length > 0) throw new SelectorParseError('label', aggregateMessage(errs));
  return Object.freeze({ key, operator, values: Object.freeze([...vals]) });
}

/** kube's aggregate error text: duplicates dropped, one message as is, several as `[a, b]`. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

function has(labels: Readonly<Record<string, string>>, key: string): boolean {
  return Object.hasOwn(labels, key);
}

/**
 * Whether one requirement holds for a label set: `in`/`=`/`==` need the key with one of the
 * values; `notin`/`!=` hold when the key is absent or has another value; `gt`/`lt` compare
 * integers (a non-integer label value never matches).
 */
export function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has(labels, r.key) && r.values.includes(labels[r.key]);
    case 'notin':
    case '!=':
      return !has(labels, r.key) || !r.values.includes(labels[r.key]);
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key) || r.values.length !== 1) return false;
      const actual = parseGoInt64(labels[r.key]);
      const bound = parseGoInt64(r.values[0]);
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

const OPERATOR_TEXT: Readonly<Record<LabelOperator, string>> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
  exists: '',
  '!': '',
};

/** kube's `Requirement.String()`: `key=v`, `key in (a,b)` (values sorted), `key`, `!key`. */
export function requirementString(r: LabelRequirement): string {
  const prefix = r.operator === '!' ? '!' : '';
  if (r.operator === 'exists' || r.operator === '!') return `${prefix}${r.key}`;
  const values = r.values.length === 1 ? r.values[0] : [...r.values].sort(compareGoStrings).join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${r.key}${OPERATOR_TEXT[r.operator]}${set ? `(${values})` : values}`;
}
