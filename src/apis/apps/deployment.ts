/**
 * apps/v1 Deployment rules as kube-apiserver v1.32 applies them: `SetDefaults_Deployment`,
 * `ValidateDeployment(Update)`, the selector's immutability under apps/v1, the status rules and
 * the generation, which counts spec and annotation changes (annotations are copied to the
 * Deployment's ReplicaSets).
 */
import type { FieldError } from '../meta/field-error.js';
import { fieldErrors, invalidShown, notSupportedShown } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { isPlainObject, jsonEqual } from '../schema/json-value.js';
import { goIntOrString, goLabelSelector, goScalar } from './go-values.js';
import type { PodTemplateRules } from './pod-template-rules.js';
import { validateReplicaSetTemplate } from './replica-set.js';
import { validateCollisionCountUpdate, validateReplicaCounts } from './workload-status.js';
import {
  intOrPercentValue,
  validateImmutableSelector,
  validateIntOrPercent,
  validateNonnegative,
  validateNotMoreThan100Percent,
  validateRequiredSelector,
} from './workload-validation.js';

type Obj = Record<string, unknown>;

export interface Deployment extends ApiObject {
  spec?: Obj;
  status?: Obj;
}

/** The annotation apps/v1 keeps the deprecated `spec.rollbackTo.revision` in. */
export const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';

function specOf(d: Deployment): Obj {
  if (!isPlainObject(d.spec)) d.spec = {};
  return d.spec as Obj;
}

/**
 * `SetDefaults_Deployment`: one replica, the RollingUpdate strategy with 25% surge and 25%
 * unavailable, 10 revisions kept, a 600 s progress deadline; then the pod template's defaults.
 */
export function defaultDeployment(d: Deployment, pod: PodTemplateRules): void {
  const spec = specOf(d);
  spec.replicas ??= 1;
  if (!isPlainObject(spec.strategy)) spec.strategy = {};
  const strategy = spec.strategy as Obj;
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    if (!isPlainObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
    const ru = strategy.rollingUpdate as Obj;
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  if (!isPlainObject(spec.template)) spec.template = {};
  pod.defaultTemplate(spec.template as Obj);
}

/** `%#v` of the internal strategy (kube reports the whole struct for an unknown type). */
function goStrategy(strategy: Obj): string {
  const ru = isPlainObject(strategy.rollingUpdate) ? '(0xc000000000)' : '(nil)';
  return `apps.DeploymentStrategy{Type:${goScalar(String(strategy.type ?? ''))}, RollingUpdate:(*apps.RollingUpdateDeployment)${ru}}`;
}

/** `ValidateDeploymentStrategy`. */
export function validateDeploymentStrategy(strategy: unknown, path: string): FieldError[] {
  const s = isPlainObject(strategy) ? strategy : {};
  const ruPath = `${path}.rollingUpdate`;
  switch (s.type) {
    case 'Recreate':
      return s.rollingUpdate === undefined || s.rollingUpdate === null
        ? []
        : [fieldErrors.forbidden(ruPath, "may not be specified when strategy `type` is 'Recreate'")];
    case 'RollingUpdate': {
      if (!isPlainObject(s.rollingUpdate))
        return [fieldErrors.required(ruPath, 'this should be defaulted and never be nil')];
      const { maxUnavailable, maxSurge } = s.rollingUpdate;
      const errs = [
        ...validateIntOrPercent(maxUnavailable, `${ruPath}.maxUnavailable`),
        ...validateIntOrPercent(maxSurge, `${ruPath}.maxSurge`),
      ];
      if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
        errs.push(
          invalidShown(`${ruPath}.maxUnavailable`, goIntOrString(maxUnavailable), 'may not be 0 when `maxSurge` is 0'),
        );
      }
      errs.push(...validateNotMoreThan100Percent(maxUnavailable, `${ruPath}.maxUnavailable`));
      return errs;
    }
    default:
      return [notSupportedShown(path, goStrategy(s), ['Recreate', 'RollingUpdate'])];
  }
}

/** `ValidateDeploymentSpec` (with the pod template rules). */
export function validateDeploymentSpec(d: Deployment, pod: PodTemplateRules, old?: Deployment): FieldError[] {
  const spec = isPlainObject(d.spec) ? d.spec : {};
  const errs = validateNonnegative(spec.replicas, 'spec.replicas');
  const sel = validateRequiredSelector(spec.selector, 'spec.selector', 'deployment');
  errs.push(...sel.errors);
  if (sel.selector) {
    errs.push(
      ...validateReplicaSetTemplate(spec, sel.selector, pod, isPlainObject(old?.spec) ? old.spec.template : undefined),
    );
  } else {
    errs.push(invalidShown('spec.selector', goLabelSelector(spec.selector), 'invalid label selector'));
  }
  errs.push(...validateDeploymentStrategy(spec.strategy, 'spec.strategy'));
  errs.push(...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  const rollback = d.metadata.annotations?.[DEPRECATED_ROLLBACK_TO];
  if (rollback !== undefined && /^-\d+$/.test(rollback)) {
    errs.push(...validateNonnegative(Number(rollback), 'spec.rollback.version'));
  }
  const deadline = spec.progressDeadlineSeconds;
  if (typeof deadline === 'number') {
    errs.push(...validateNonnegative(deadline, 'spec.progressDeadlineSeconds'));
    const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
    if (deadline <= minReady) {
      errs.push(
        invalidShown('spec.progressDeadlineSeconds', goScalar(deadline), 'must be greater than minReadySeconds'),
      );
    }
  }
  return errs;
}

/** Update rules beyond the spec's: apps/v1 never changes a selector. */
export function validateDeploymentUpdate(d: Deployment, old: Deployment, pod: PodTemplateRules): FieldError[] {
  return [
    ...validateDeploymentSpec(d, pod, old),
    ...validateImmutableSelector(d.spec?.selector, old.spec?.selector, 'spec.selector'),
  ];
}

/** `ValidateDeploymentStatusUpdate` beyond metadata. */
export function validateDeploymentStatusUpdate(d: Deployment, old: Deployment): FieldError[] {
  const status = isPlainObject(d.status) ? d.status : {};
  return [
    ...validateReplicaCounts(status, 'status', {
      counts: [
        'observedGeneration',
        'replicas',
        'updatedReplicas',
        'readyReplicas',
        'availableReplicas',
        'unavailableReplicas',
      ],
      collisionCount: true,
      atMostReplicas: ['updatedReplicas', 'readyReplicas', 'availableReplicas'],
      availableAtMostReady: 'cannot be greater than readyReplicas',
    }),
    ...validateCollisionCountUpdate(status, old.status),
  ];
}

/** A Deployment's generation counts changes of its spec and of its annotations. */
export function deploymentGenerationChanged(d: Deployment, old: Deployment): boolean {
  return (
    !jsonEqual(d.spec ?? {}, old.spec ?? {}) || !jsonEqual(d.metadata.annotations ?? {}, old.metadata.annotations ?? {})
  );
}
