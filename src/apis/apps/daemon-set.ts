/**
 * apps/v1 DaemonSet rules as kube-apiserver v1.32 applies them: `SetDefaults_DaemonSet`, the
 * template generation apps/v1 keeps in the `deprecated.daemonset.template.generation` annotation
 * (1 on create, +1 whenever the template changes, never set by clients), `ValidateDaemonSet`, the
 * selector's immutability and the status rules.
 */
import type { FieldError } from '../meta/field-error.js';
import { fieldErrors, invalidShown, notSupportedShown } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { validateLabelSelector } from '../rbac/label-selector-validation.js';
import { isPlainObject, jsonEqual } from '../schema/json-value.js';
import type { LabelSelectorObject } from '../selectors/label-selector-object.js';
import { goIntOrString, goLabelSelector, goScalar } from './go-values.js';
import { type PodTemplateRules, podSpecOf } from './pod-template-rules.js';
import { restartAlwaysErrors } from './replica-set.js';
import { validateCollisionCountUpdate, validateReplicaCounts } from './workload-status.js';
import {
  intOrPercentValue,
  selectorOf,
  validateImmutableSelector,
  validateIntOrPercent,
  validateNonnegative,
  validateNotMoreThan100Percent,
  validateSelectorMatchesTemplate,
} from './workload-validation.js';

type Obj = Record<string, unknown>;

export interface DaemonSet extends ApiObject {
  spec?: Obj;
  status?: Obj;
}

/** The annotation apps/v1 keeps the internal `spec.templateGeneration` in. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

/** `SetDefaults_DaemonSet`: RollingUpdate with 1 unavailable and 0 surge, 10 revisions kept; then the template's defaults. */
export function defaultDaemonSet(ds: DaemonSet, pod: PodTemplateRules): void {
  if (!isPlainObject(ds.spec)) ds.spec = {};
  const spec = ds.spec as Obj;
  if (!isPlainObject(spec.updateStrategy)) spec.updateStrategy = {};
  const strategy = spec.updateStrategy as Obj;
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    if (!isPlainObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
    const ru = strategy.rollingUpdate as Obj;
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  if (!isPlainObject(spec.template)) spec.template = {};
  pod.defaultTemplate(spec.template as Obj);
}

/** The template generation an object carries (0 when absent or not an integer). */
export function templateGeneration(ds: DaemonSet): number {
  const v = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number.parseInt(v, 10) : 0;
}

function setTemplateGeneration(ds: DaemonSet, generation: number): void {
  ds.metadata.annotations = {
    ...(ds.metadata.annotations ?? {}),
    [TEMPLATE_GENERATION_ANNOTATION]: String(generation),
  };
}

/** On create: a template generation below 1 becomes 1. */
export function prepareDaemonSetCreate(ds: DaemonSet): void {
  setTemplateGeneration(ds, Math.max(templateGeneration(ds), 1));
}

/** On update: the old template generation, plus one when the template changed. */
export function prepareDaemonSetUpdate(ds: DaemonSet, old: DaemonSet): void {
  const changed = !jsonEqual(obj(ds.spec).template ?? null, obj(old.spec).template ?? null);
  setTemplateGeneration(ds, templateGeneration(old) + (changed ? 1 : 0));
}

function goStrategy(strategy: Obj): string {
  const ru = isPlainObject(strategy.rollingUpdate) ? '(0xc000000000)' : '(nil)';
  return `apps.DaemonSetUpdateStrategy{Type:${goScalar(String(strategy.type ?? ''))}, RollingUpdate:(*apps.RollingUpdateDaemonSet)${ru}}`;
}

/** `ValidateDaemonSetUpdateStrategy`. */
export function validateDaemonSetUpdateStrategy(strategy: unknown): FieldError[] {
  const s = obj(strategy);
  const path = 'spec.updateStrategy';
  switch (s.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      if (!isPlainObject(s.rollingUpdate)) return [fieldErrors.required(`${path}.rollingUpdate`)];
      const ruPath = `${path}.rollingUpdate`;
      const { maxUnavailable, maxSurge } = s.rollingUpdate;
      const errs = [
        ...validateIntOrPercent(maxUnavailable ?? 0, `${ruPath}.maxUnavailable`),
        ...validateIntOrPercent(maxSurge ?? 0, `${ruPath}.maxSurge`),
        ...validateNotMoreThan100Percent(maxUnavailable, `${ruPath}.maxUnavailable`),
        ...validateNotMoreThan100Percent(maxSurge, `${ruPath}.maxSurge`),
      ];
      const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(maxSurge) !== 0;
      if (hasUnavailable && hasSurge) {
        errs.push(
          invalidShown(`${ruPath}.maxSurge`, goIntOrString(maxSurge), 'may not be set when maxUnavailable is non-zero'),
        );
      } else if (!hasUnavailable && !hasSurge) {
        errs.push(fieldErrors.required(`${ruPath}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      }
      return errs;
    }
    default:
      return [notSupportedShown(path, goStrategy(s), ['RollingUpdate', 'OnDelete'])];
  }
}

/** `ValidateDaemonSetSpec` (a missing selector is only reported as not matching the template, as kube does). */
export function validateDaemonSetSpec(ds: DaemonSet, pod: PodTemplateRules, old?: DaemonSet): FieldError[] {
  const spec = obj(ds.spec);
  const errs = validateLabelSelector(spec.selector as LabelSelectorObject | undefined, 'spec.selector', {
    allowInvalidLabelValueInSelector: hasInvalidSelectorValue(old),
  });
  const selector = selectorOf(spec.selector);
  const template = obj(spec.template);
  if (selector) errs.push(...validateSelectorMatchesTemplate(selector, obj(template.metadata).labels, 'spec.template'));
  const sel = spec.selector;
  if (
    isPlainObject(sel) &&
    Object.keys(obj(sel.matchLabels)).length +
      (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0) ===
      0
  ) {
    errs.push(invalidShown('spec.selector', goLabelSelector(sel), 'empty selector is invalid for daemonset'));
  }
  errs.push(
    ...pod.validateTemplate(template, 'spec.template', isPlainObject(old?.spec) ? obj(old.spec.template) : undefined),
  );
  errs.push(...restartAlwaysErrors(podSpecOf(template), 'spec.template'));
  const deadline = podSpecOf(template).activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null) {
    errs.push(
      fieldErrors.forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        'activeDeadlineSeconds in DaemonSet is not Supported',
      ),
    );
  }
  errs.push(...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateNonnegative(templateGeneration(ds), 'spec.templateGeneration'));
  errs.push(...validateDaemonSetUpdateStrategy(spec.updateStrategy));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

function hasInvalidSelectorValue(old?: DaemonSet): boolean {
  const sel = obj(old?.spec).selector;
  if (!isPlainObject(sel) || !Array.isArray(sel.matchExpressions)) return false;
  return validateLabelSelector(sel as LabelSelectorObject, 's').some((e) => /\.values\[\d+\]$/.test(e.field));
}

/** Update rules beyond the spec's: apps/v1 never changes a selector. */
export function validateDaemonSetUpdate(ds: DaemonSet, old: DaemonSet, pod: PodTemplateRules): FieldError[] {
  return [
    ...validateDaemonSetSpec(ds, pod, old),
    ...validateImmutableSelector(obj(ds.spec).selector, obj(old.spec).selector, 'spec.selector'),
  ];
}

/** `ValidateDaemonSetStatusUpdate` beyond metadata. */
export function validateDaemonSetStatusUpdate(ds: DaemonSet, old: DaemonSet): FieldError[] {
  const status = obj(ds.status);
  return [
    ...validateReplicaCounts(status, 'status', {
      counts: [
        'currentNumberScheduled',
        'numberMisscheduled',
        'desiredNumberScheduled',
        'numberReady',
        'observedGeneration',
        'updatedNumberScheduled',
        'numberAvailable',
        'numberUnavailable',
      ],
      collisionCount: true,
      atMostReplicas: [],
    }),
    ...validateCollisionCountUpdate(status, old.status),
  ];
}
