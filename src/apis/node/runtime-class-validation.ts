import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSLabel } from '../meta/name-validation.js';
import { validateImmutableField, validateLabels } from '../meta/object-meta-validation.js';
import type { ApiObject } from '../object.js';
import { indexPath } from '../schema/field-path.js';

/** A toleration as RuntimeClass scheduling carries it. */
export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

/** A RuntimeClass (`node.<domain>/v1`) as the rules read it. */
export interface RuntimeClass extends ApiObject {
  handler?: string;
  overhead?: { podFixed?: Record<string, unknown> };
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] };
}

const TAINT_EFFECTS: readonly string[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const TOLERATION_OPERATORS: readonly string[] = ['Equal', 'Exists'];

/**
 * kube's `ValidateRuntimeClass` beyond metadata: the handler is a DNS label; overhead resources
 * are qualified names with non-negative quantities; the node selector holds valid labels and the
 * tolerations are valid and unique (by key, operator, value and effect).
 */
export function validateRuntimeClass(rc: RuntimeClass): FieldError[] {
  const errs: FieldError[] = [];
  const handler = rc.handler ?? '';
  for (const msg of nameIsDNSLabel(handler, false)) errs.push(fieldErrors.invalid('handler', handler, msg));
  const podFixed = rc.overhead?.podFixed;
  if (podFixed) errs.push(...validateOverhead(podFixed, 'overhead.podFixed'));
  if (rc.scheduling) {
    errs.push(...validateLabels(rc.scheduling.nodeSelector, 'scheduling.nodeSelector'));
    errs.push(...validateTolerations(rc.scheduling.tolerations ?? [], 'scheduling.tolerations'));
  }
  return errs;
}

/** kube's `ValidateRuntimeClassUpdate`: the handler never changes. */
export function validateRuntimeClassUpdate(rc: RuntimeClass, old: RuntimeClass): FieldError[] {
  return validateImmutableField(rc.handler ?? '', old.handler ?? '', 'handler');
}

function validateOverhead(podFixed: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, quantity] of Object.entries(podFixed)) {
    const at = `${path}[${name}]`;
    for (const msg of isQualifiedName(name)) errs.push(fieldErrors.invalid(at, name, msg));
    if (typeof quantity === 'string' && quantity.trim().startsWith('-')) {
      errs.push(fieldErrors.invalid(at, quantity, 'must be greater than or equal to 0'));
    }
  }
  return errs;
}

/** kube's `ValidateTolerations` plus RuntimeClass's uniqueness check. */
export function validateTolerations(tolerations: readonly Toleration[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  tolerations.forEach((t, i) => {
    const at = indexPath(path, i);
    const key = t.key ?? '';
    const operator = t.operator ?? '';
    const value = t.value ?? '';
    const effect = t.effect ?? '';
    if (key) for (const msg of isQualifiedName(key)) errs.push(fieldErrors.invalid(`${at}.key`, key, msg));
    if (!key && operator !== 'Exists') {
      errs.push(
        fieldErrors.invalid(
          `${at}.operator`,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(
        fieldErrors.invalid(`${at}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"),
      );
    }
    if (operator === 'Equal' || operator === '') {
      const problems = isValidLabelValue(value);
      if (problems.length > 0) errs.push(fieldErrors.invalid(`${at}.operator`, value, problems.join(';')));
    } else if (operator === 'Exists') {
      if (value) errs.push(fieldErrors.invalid(`${at}.operator`, t, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(fieldErrors.notSupported(`${at}.operator`, operator, TOLERATION_OPERATORS));
    }
    if (effect && !TAINT_EFFECTS.includes(effect))
      errs.push(fieldErrors.notSupported(`${at}.effect`, effect, TAINT_EFFECTS));
    const identity = JSON.stringify([key, operator, value, effect]);
    if (seen.has(identity)) errs.push(fieldErrors.duplicate(at, t));
    seen.add(identity);
  });
  return errs;
}
