/**
 * The pod failure, success and replacement policies of a Job spec, validated as kube-apiserver
 * v1.32 does (`validatePodFailurePolicy`, `validateSuccessPolicy`, `validatePodReplacementPolicy`),
 * and the index list format of `succeededIndexes` and `status.completedIndexes`.
 */
import { goScalar } from '../apps/go-values.js';
import { validateNonnegative } from '../apps/workload-validation.js';
import { type FieldError, fieldErrors, invalidShown, notSupportedShown } from '../meta/field-error.js';
import { isQualifiedName } from '../meta/name-validation.js';
import { isPlainObject } from '../schema/json-value.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const EXIT_OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** Go's `%q` of a `[]string` (`sets.List` output): `["a" "b"]`. */
function goQuotedList(values: readonly string[]): string {
  return `[${values.map((v) => goScalar(v)).join(' ')}]`;
}

/** `%#v` of a `[]int32`. */
function goInt32s(values: unknown[]): string {
  return `[]int32{${values.map((v) => String(v)).join(', ')}}`;
}

function containerNames(spec: Obj): Set<string> {
  const pod = obj(obj(spec.template).spec);
  return new Set([...list(pod.containers), ...list(pod.initContainers)].map((c) => String(obj(c).name ?? '')));
}

function validateOnExitCodes(req: Obj, path: string, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const operator = req.operator;
  if (!operator) errs.push(fieldErrors.required(`${path}.operator`, `valid values: ${goQuotedList(EXIT_OPERATORS)}`));
  else if (!EXIT_OPERATORS.includes(String(operator)))
    errs.push(notSupportedShown(`${path}.operator`, goScalar(operator), EXIT_OPERATORS));
  if (typeof req.containerName === 'string' && !names.has(req.containerName)) {
    errs.push(
      invalidShown(
        `${path}.containerName`,
        goScalar(req.containerName),
        'must be one of the container or initContainer names in the pod template',
      ),
    );
  }
  const values = list(req.values);
  if (values.length === 0)
    errs.push(invalidShown(`${path}.values`, goInt32s(values), 'at least one value is required'));
  else if (values.length > 255) errs.push(fieldErrors.tooMany(`${path}.values`, values.length, 255));
  const seen = new Set<unknown>();
  let ordered = true;
  values.forEach((v, j) => {
    const p = `${path}.values[${j}]`;
    if (operator === 'In' && v === 0) errs.push(invalidShown(p, '0', 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(fieldErrors.duplicate(p, v));
    else seen.add(v);
    if (j > 0 && (values[j - 1] as number) > (v as number)) ordered = false;
  });
  if (!ordered) errs.push(invalidShown(`${path}.values`, goInt32s(values), 'must be ordered'));
  return errs;
}

function validateOnPodConditions(patterns: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > 20) errs.push(fieldErrors.tooMany(path, patterns.length, 20));
  patterns.forEach((p, j) => {
    const pattern = obj(p);
    const pp = `${path}[${j}]`;
    const type = String(pattern.type ?? '');
    for (const msg of isQualifiedName(type)) errs.push(fieldErrors.invalid(`${pp}.type`, type, msg));
    if (!pattern.status)
      errs.push(fieldErrors.required(`${pp}.status`, `valid values: ${goQuotedList(CONDITION_STATUSES)}`));
    else if (!CONDITION_STATUSES.includes(String(pattern.status))) {
      errs.push(notSupportedShown(`${pp}.status`, goScalar(pattern.status), CONDITION_STATUSES));
    }
  });
  return errs;
}

/** `validatePodFailurePolicy` of a Job spec at `path` (`spec.podFailurePolicy`). */
export function validatePodFailurePolicy(spec: Obj, path: string): FieldError[] {
  const rules = list(obj(spec.podFailurePolicy).rules);
  const errs: FieldError[] = [];
  if (rules.length > 20) errs.push(fieldErrors.tooMany(`${path}.rules`, rules.length, 20));
  const names = containerNames(spec);
  rules.forEach((r, i) => {
    const rule = obj(r);
    const rp = `${path}.rules[${i}]`;
    if (!rule.action) errs.push(fieldErrors.required(`${rp}.action`, `valid values: ${goQuotedList(ACTIONS)}`));
    else if (rule.action === 'FailIndex') {
      if (spec.backoffLimitPerIndex === undefined || spec.backoffLimitPerIndex === null) {
        errs.push(invalidShown(`${rp}.action`, goScalar(rule.action), 'requires the backoffLimitPerIndex to be set'));
      }
    } else if (!ACTIONS.includes(String(rule.action)))
      errs.push(notSupportedShown(`${rp}.action`, goScalar(rule.action), ACTIONS));
    const hasExit = isPlainObject(rule.onExitCodes);
    const conditions = list(rule.onPodConditions);
    if (hasExit) errs.push(...validateOnExitCodes(obj(rule.onExitCodes), `${rp}.onExitCodes`, names));
    if (conditions.length > 0) errs.push(...validateOnPodConditions(conditions, `${rp}.onPodConditions`));
    // kube omits the value (field.OmitValueType) from these two messages.
    if (hasExit && conditions.length > 0) {
      errs.push({
        type: 'FieldValueInvalid',
        field: rp,
        message: 'Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
      });
    }
    if (!hasExit && conditions.length === 0) {
      errs.push({
        type: 'FieldValueInvalid',
        field: rp,
        message: 'Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      });
    }
  });
  return errs;
}

/** `validatePodReplacementPolicy`. */
export function validatePodReplacementPolicy(spec: Obj, path: string): FieldError[] {
  const policy = spec.podReplacementPolicy;
  if (policy === undefined || policy === null) return [];
  if (isPlainObject(spec.podFailurePolicy)) {
    return policy === 'Failed' ? [] : [notSupportedShown(path, goScalar(policy), ['Failed'])];
  }
  return policy === 'Failed' || policy === 'TerminatingOrFailed'
    ? []
    : [notSupportedShown(path, goScalar(policy), ['Failed', 'TerminatingOrFailed'])];
}

/** kube's `parseIndexInterval`; throws Error with kube's text. */
function parseInterval(interval: string, completions: number): [number, number] {
  const limits = interval.split('-');
  if (limits.length > 2) {
    throw new Error(
      `the fragment ${goScalar(interval)} violates the requirement that an index interval can have at most two parts separated by '-'`,
    );
  }
  const atoi = (s: string): number => {
    if (!/^[+-]?\d+$/.test(s)) throw new Error(`cannot convert string to integer for index: ${goScalar(s)}`);
    return Number.parseInt(s, 10);
  };
  const x = atoi(limits[0]);
  if (x >= completions) throw new Error(`too large index: ${goScalar(limits[0])}`);
  if (limits.length === 1) return [x, x];
  const y = atoi(limits[1]);
  if (y >= completions) throw new Error(`too large index: ${goScalar(limits[1])}`);
  if (x >= y) throw new Error(`non-increasing order, previous: ${x}, current: ${y}`);
  return [x, y];
}

/** kube's `validateIndexesFormat`: the number of indexes, or the error text. */
export function indexesFormat(indexes: string, completions: number): number | { error: string } {
  if (indexes === '') return 0;
  let last: number | undefined;
  let total = 0;
  try {
    for (const interval of indexes.split(',')) {
      const [x, y] = parseInterval(interval, completions);
      if (last !== undefined && last >= x) throw new Error(`non-increasing order, previous: ${last}, current: ${x}`);
      total += y - x + 1;
      last = y;
    }
  } catch (e) {
    return { error: (e as Error).message };
  }
  return total;
}

/** `validateSuccessPolicy` (Indexed Jobs only; the caller checks the mode). */
export function validateSuccessPolicy(spec: Obj, path: string): FieldError[] {
  const rules = list(obj(spec.successPolicy).rules);
  const rulesPath = `${path}.rules`;
  const errs: FieldError[] = [];
  if (rules.length === 0)
    errs.push(
      fieldErrors.required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'),
    );
  if (rules.length > 20) errs.push(fieldErrors.tooMany(rulesPath, rules.length, 20));
  const completions = typeof spec.completions === 'number' ? spec.completions : 0;
  rules.forEach((r, i) => {
    const rule = obj(r);
    const rp = `${rulesPath}[${i}]`;
    if (rule.succeededCount === undefined && rule.succeededIndexes === undefined) {
      errs.push(fieldErrors.required(rp, 'at least one of succeededCount or succeededIndexes must be specified'));
    }
    let total = 0;
    if (typeof rule.succeededIndexes === 'string') {
      const ip = `${rp}.succeededIndexes`;
      if (rule.succeededIndexes.length > 64 * 1024) errs.push(fieldErrors.tooLong(ip, 64 * 1024));
      const r2 = indexesFormat(rule.succeededIndexes, completions);
      if (typeof r2 === 'number') total = r2;
      else errs.push(invalidShown(ip, goScalar(rule.succeededIndexes), `error parsing succeededIndexes: ${r2.error}`));
    }
    if (typeof rule.succeededCount === 'number') {
      const cp = `${rp}.succeededCount`;
      errs.push(...validateNonnegative(rule.succeededCount, cp));
      if (rule.succeededCount > completions) {
        errs.push(
          invalidShown(
            cp,
            goScalar(rule.succeededCount),
            `must be less than or equal to ${completions} (the number of specified completions)`,
          ),
        );
      }
      if (typeof rule.succeededIndexes === 'string' && rule.succeededCount > total) {
        errs.push(
          invalidShown(
            cp,
            goScalar(rule.succeededCount),
            `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`,
          ),
        );
      }
    }
  });
  return errs;
}
