/**
 * apps/v1 ReplicaSet rules as kube-apiserver v1.32 applies them (`SetDefaults_ReplicaSet`,
 * `ValidateReplicaSet(Update)`, status rules), and the pod template check Deployments share.
 */
import type { FieldError } from '../meta/field-error.js';
import { fieldErrors, invalidShown, notSupportedShown } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import type { LabelSelector } from '../selectors/label-selector.js';
import { goLabelSelector, goScalar } from './go-values.js';
import { type PodTemplateRules, podSpecOf } from './pod-template-rules.js';
import { validateReplicaCounts } from './workload-status.js';
import {
  validateImmutableSelector,
  validateNonnegative,
  validateRequiredSelector,
  validateSelectorMatchesTemplate,
} from './workload-validation.js';

type Obj = Record<string, unknown>;

export interface ReplicaSet extends ApiObject {
  spec?: Obj;
  status?: Obj;
}

/** `SetDefaults_ReplicaSet`: one replica; then the pod template's defaults. */
export function defaultReplicaSet(rs: ReplicaSet, pod: PodTemplateRules): void {
  if (!isPlainObject(rs.spec)) rs.spec = {};
  const spec = rs.spec as Obj;
  spec.replicas ??= 1;
  if (!isPlainObject(spec.template)) spec.template = {};
  pod.defaultTemplate(spec.template as Obj);
}

/**
 * `ValidatePodTemplateSpecForReplicaSet` of `spec.template`: matches the selector, is a valid pod
 * template, restarts `Always` and has no `activeDeadlineSeconds`.
 */
export function validateReplicaSetTemplate(
  spec: Obj,
  selector: LabelSelector,
  pod: PodTemplateRules,
  oldTemplate?: unknown,
): FieldError[] {
  const path = 'spec.template';
  if (!isPlainObject(spec.template)) return [fieldErrors.required(path)];
  const template = spec.template;
  const errs = validateSelectorMatchesTemplate(
    selector,
    isPlainObject(template.metadata) ? template.metadata.labels : undefined,
    path,
  );
  errs.push(...pod.validateTemplate(template, path, isPlainObject(oldTemplate) ? oldTemplate : undefined));
  errs.push(...restartAlwaysErrors(podSpecOf(template), path));
  if (podSpecOf(template).activeDeadlineSeconds !== undefined && podSpecOf(template).activeDeadlineSeconds !== null) {
    errs.push(
      fieldErrors.forbidden(
        `${path}.spec.activeDeadlineSeconds`,
        'activeDeadlineSeconds in ReplicaSet is not Supported',
      ),
    );
  }
  return errs;
}

/** `restartPolicy` must be `Always` (after defaulting) for pods that a workload keeps running. */
export function restartAlwaysErrors(podSpec: Obj, templatePath: string): FieldError[] {
  const policy = podSpec.restartPolicy;
  return policy === 'Always'
    ? []
    : [
        notSupportedShown(`${templatePath}.spec.restartPolicy`, goScalar(typeof policy === 'string' ? policy : ''), [
          'Always',
        ]),
      ];
}

/** `ValidateReplicaSetSpec`. */
export function validateReplicaSetSpec(rs: ReplicaSet, pod: PodTemplateRules, old?: ReplicaSet): FieldError[] {
  const spec = isPlainObject(rs.spec) ? rs.spec : {};
  const errs = [
    ...validateNonnegative(spec.replicas, 'spec.replicas'),
    ...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'),
  ];
  // kube reports an empty ReplicaSet selector with the Deployment wording.
  const sel = validateRequiredSelector(spec.selector, 'spec.selector', 'deployment');
  errs.push(...sel.errors);
  if (sel.selector) {
    errs.push(
      ...validateReplicaSetTemplate(spec, sel.selector, pod, isPlainObject(old?.spec) ? old.spec.template : undefined),
    );
  } else {
    errs.push(invalidShown('spec.selector', goLabelSelector(spec.selector), 'invalid label selector'));
  }
  return errs;
}

/** Update rules beyond the spec's: apps/v1 never changes a selector. */
export function validateReplicaSetUpdate(rs: ReplicaSet, old: ReplicaSet, pod: PodTemplateRules): FieldError[] {
  return [
    ...validateReplicaSetSpec(rs, pod, old),
    ...validateImmutableSelector(rs.spec?.selector, old.spec?.selector, 'spec.selector'),
  ];
}

/** `ValidateReplicaSetStatus` (also ReplicationController's, which has the same rules). */
export function validateReplicaSetStatus(status: unknown): FieldError[] {
  const s = isPlainObject(status) ? status : {};
  return validateReplicaCounts(s, 'status', {
    counts: ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
    atMostReplicas: ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'],
    availableAtMostReady: 'cannot be greater than readyReplicas',
  });
}
