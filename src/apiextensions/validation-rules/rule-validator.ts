import { type FieldError, fieldErrors, formatFieldError } from '../../apis/meta/field-error.js';
import { childPath, indexPath, keyPath } from '../../apis/schema/field-path.js';
import { isPlainObject } from '../../apis/schema/json-value.js';
import type { Schema, SchemaValidationRule } from '../../apis/schema/schema.js';
import { type CelActivation, type CelProgram, evaluate } from '../../cel/program.js';
import { trimSpace } from '../../cel/string-semantics.js';
import { goQuote } from '../../util/go-strconv.js';
import { CorrelatedValue, oldItemsOf } from './correlated-value.js';
import { type CompiledRule, OLD_SELF, SELF } from './rule-compiler.js';

/** kube's `MaxEvaluatedMessageExpressionSizeBytes`. */
const MAX_MESSAGE_BYTES = 5 * 1024;

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

/**
 * The rules of one schema node and of the nodes below it that have rules (kube's `Validator`).
 * Children are present only where some node below has a rule.
 */
export interface NodeValidator {
  readonly schema: Schema;
  readonly rules: readonly CompiledRule[];
  /** Why the node's rules cannot be compiled at all (no CEL type for the node). */
  readonly initError?: string;
  readonly properties?: ReadonlyMap<string, NodeValidator>;
  readonly additionalProperties?: NodeValidator;
  readonly items?: NodeValidator;
}

/** Limits and switches of one validation. */
export interface RunLimits {
  readonly perCallLimit: number;
  readonly costBudget: number;
  /** `CRDValidationRatcheting`: unchanged values do not fail, and `optionalOldSelf` rules run without an old value. */
  readonly ratcheting: boolean;
}

/** The state of one validation of one object. */
interface Run {
  readonly limits: RunLimits;
  readonly errors: FieldError[];
  readonly warn: ((warning: string) => void) | undefined;
  /** Cost left; negative once validation stopped. */
  remaining: number;
}

/** Where a node stands for ratcheting (kube's `ratchetingOptions`). */
interface Ratchet {
  /** The node's correlated pair; absent where the node has no old value. */
  readonly current?: CorrelatedValue;
  /** The nearest ancestor that had one. */
  readonly nearest?: CorrelatedValue;
}

const NONE: Ratchet = {};

function ratchetKey(r: Ratchet, field: string): Ratchet {
  if (r.current === undefined) return r;
  // At the root, apiVersion and kind are the same on both sides after conversion: never ratcheted.
  if (r.nearest === undefined && (field === 'apiVersion' || field === 'kind')) return NONE;
  return { current: r.current.key(field), nearest: r.current };
}

function ratchetIndex(r: Ratchet, index: number): Ratchet {
  if (r.current === undefined) return r;
  return { current: r.current.index(index), nearest: r.current };
}

function shouldRatchet(r: Ratchet): boolean {
  return r.current !== undefined ? r.current.equal() : (r.nearest?.equal() ?? false);
}

/** The field error of a failed rule for its `reason` (kube's `fieldErrorForReason`). */
function errorForReason(path: string, type: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldErrors.forbidden(path, detail);
    case 'FieldValueRequired':
      return fieldErrors.required(path, detail);
    case 'FieldValueDuplicate':
      return fieldErrors.duplicate(path, type);
    default:
      return fieldErrors.invalid(path, type, detail);
  }
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The rule as kube names it in messages: its message, else its expression. */
function ruleErrorString(rule: SchemaValidationRule): string {
  const message = text(rule.message);
  return message.length > 0 ? trimSpace(message) : trimSpace(text(rule.rule));
}

function ruleMessageOrDefault(rule: SchemaValidationRule): string {
  const message = text(rule.message);
  return message.length === 0 ? `failed rule: ${ruleErrorString(rule)}` : trimSpace(message);
}

/** A field path as kube prints it: the root (a nil path) is `<nil>`. */
const shown = (path: string): string => (path === '' ? '<nil>' : path);

/** Evaluates synchronously: no function of the rule environments is asynchronous; one that were fails the rule. */
function evaluateNow(program: CelProgram, activation: CelActivation): unknown {
  const result = evaluate(program, activation);
  if (result instanceof Promise) {
    result.catch(() => undefined);
    throw new Error('asynchronous functions are not supported in validation rules');
  }
  return result;
}

/**
 * Validates `obj` (and `old`, on update) against the rules of `root`, as kube-apiserver's
 * `Validator.Validate` does with its runtime cost budget: returns the rules' errors and reports
 * failures that ratcheting let through to `warn`.
 */
export function validateRules(
  root: NodeValidator,
  obj: unknown,
  old: unknown,
  limits: RunLimits,
  warn?: (warning: string) => void,
): FieldError[] {
  const run: Run = { limits, errors: [], warn, remaining: limits.costBudget };
  const ratchet: Ratchet =
    limits.ratcheting && old !== undefined && old !== null
      ? { current: new CorrelatedValue(obj, old, root.schema) }
      : NONE;
  validateNode(root, '', obj, old, ratchet, run);
  return run.errors;
}

function validateNode(v: NodeValidator, path: string, obj: unknown, old: unknown, ratchet: Ratchet, run: Run): void {
  if (obj === undefined || obj === null) return;
  validateExpressions(v, path, obj, old ?? undefined, ratchet, run);
  if (run.remaining < 0) return;
  if (Array.isArray(obj)) {
    if (v.items === undefined) return;
    const oldItems = oldItemsOf(v.schema, old);
    for (let i = 0; i < obj.length; i++) {
      validateNode(v.items, indexPath(path, i), obj[i], oldItems.get(obj[i]), ratchetIndex(ratchet, i), run);
      if (run.remaining < 0) return;
    }
  } else if (isPlainObject(obj)) {
    const oldMap = isPlainObject(old) ? old : undefined;
    const oldOf = (k: string) => (oldMap !== undefined && Object.hasOwn(oldMap, k) ? oldMap[k] : undefined);
    if (v.additionalProperties !== undefined) {
      for (const k of Object.keys(obj)) {
        validateNode(v.additionalProperties, keyPath(path, k), obj[k], oldOf(k), ratchetKey(ratchet, k), run);
        if (run.remaining < 0) return;
      }
    }
    if (v.properties !== undefined) {
      for (const k of Object.keys(obj)) {
        const sub = v.properties.get(k);
        if (sub === undefined) continue;
        validateNode(sub, childPath(path, k), obj[k], oldOf(k), ratchetKey(ratchet, k), run);
        if (run.remaining < 0) return;
      }
    }
  }
}

function validateExpressions(
  v: NodeValidator,
  path: string,
  obj: unknown,
  old: unknown,
  ratchet: Ratchet,
  run: Run,
): void {
  const type = v.schema.type ?? '';
  const at = shown(path);
  if (v.initError !== undefined) {
    run.errors.push(fieldErrors.invalid(at, type, `rule compiler initialization error: ${v.initError}`));
    return;
  }
  if (v.rules.length === 0) return;
  if (run.remaining <= 0) {
    run.errors.push(fieldErrors.invalid(at, type, OUT_OF_BUDGET));
    run.remaining = -1;
    return;
  }
  const activation: CelActivation = old === undefined ? { [SELF]: obj } : { [SELF]: obj, [OLD_SELF]: old };
  const { perCallLimit, ratcheting } = run.limits;
  for (const compiled of v.rules) {
    const { rule, program } = compiled;
    if (compiled.error !== undefined) {
      run.errors.push(fieldErrors.invalid(at, type, `rule compile error: ${compiled.error}`));
      continue;
    }
    if (program === undefined) continue;
    // Transition rules run only where there is an old value, unless oldSelf is optional.
    if (compiled.usesOldSelf && old === undefined && !(ratcheting && compiled.optionalOldSelf)) continue;

    const cost = compiled.cost?.(activation) ?? compiled.maxCost;
    if (Math.min(cost, perCallLimit) > run.remaining) {
      run.errors.push(fieldErrors.invalid(at, type, OUT_OF_BUDGET));
      run.remaining = -1;
      return;
    }
    if (cost > perCallLimit) {
      run.errors.push(
        fieldErrors.invalid(
          at,
          type,
          `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`,
        ),
      );
      run.remaining = -1;
      return;
    }
    run.remaining -= cost;

    let result: unknown;
    try {
      result = evaluateNow(program, activation);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const detail = message.startsWith('no such overload')
        ? `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`
        : `${message} evaluating rule: ${ruleErrorString(rule)}`;
      run.errors.push(fieldErrors.invalid(at, type, detail));
      continue;
    }
    if (result === true) continue;

    const errorPath = shown(compiled.fieldPath ? childPath(path, compiled.fieldPath) : path);
    const report = (e: FieldError) => {
      if (ratcheting && !compiled.usesOldSelf && shouldRatchet(ratchet)) run.warn?.(formatFieldError(e));
      else run.errors.push(e);
    };
    if (compiled.messageProgram === undefined) {
      report(errorForReason(errorPath, type, ruleMessageOrDefault(rule), rule.reason));
      continue;
    }
    const message = evaluateMessage(compiled, compiled.messageProgram, activation, run);
    if (message.stop !== undefined) {
      report(fieldErrors.invalid(errorPath, type, message.stop));
      run.remaining = -1;
      return;
    }
    report(errorForReason(errorPath, type, message.text ?? ruleMessageOrDefault(rule), rule.reason));
  }
}

/**
 * Evaluates a failed rule's messageExpression (kube's `evalMessageExpression`): `text` is the
 * message, absent when it failed, is empty, longer than 5 KiB or spans lines (the rule's message
 * is used then); `stop` ends validation (the budget is spent).
 */
function evaluateMessage(
  compiled: CompiledRule,
  program: CelProgram,
  activation: CelActivation,
  run: Run,
): { text?: string; stop?: string } {
  const { perCallLimit } = run.limits;
  const cost = compiled.messageCost?.(activation) ?? compiled.messageMaxCost;
  if (Math.min(cost, perCallLimit) > run.remaining) {
    return {
      stop: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
    };
  }
  if (cost > perCallLimit) {
    return {
      stop: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(text(compiled.rule.messageExpression))}`,
    };
  }
  run.remaining -= cost;
  let result: unknown;
  try {
    result = evaluateNow(program, activation);
  } catch {
    return {};
  }
  if (typeof result !== 'string') return {};
  const trimmed = trimSpace(result);
  if (Buffer.byteLength(trimmed, 'utf8') > MAX_MESSAGE_BYTES || trimmed.includes('\n') || trimmed === '') return {};
  return { text: trimmed };
}
