/**
 * apps/v1 StatefulSet rules as kube-apiserver v1.32 applies them: `SetDefaults_StatefulSet`
 * (StatefulSetAutoDeletePVC is GA, MaxUnavailableStatefulSet alpha and off, so
 * `rollingUpdate.maxUnavailable` is dropped unless the old object had it), `ValidateStatefulSet`
 * (the template's labels and annotations only: kube does not validate its pod spec), the update
 * rule that only some spec fields change, and the status rules.
 */
import type { FieldError } from '../meta/field-error.js';
import { fieldErrors, invalidShown, notSupportedShown } from '../meta/field-error.js';
import { validateAnnotations, validateLabels } from '../meta/object-meta-validation.js';
import type { ApiObject } from '../object.js';
import { isPlainObject, jsonEqual } from '../schema/json-value.js';
import { goIntOrString, goLabelSelector, goScalar } from './go-values.js';
import { type PodTemplateRules, podSpecOf } from './pod-template-rules.js';
import { restartAlwaysErrors } from './replica-set.js';
import { validateCollisionCountUpdate, validateReplicaCounts } from './workload-status.js';
import {
  intOrPercentValue,
  validateIntOrPercent,
  validateNonnegative,
  validateNotMoreThan100Percent,
  validateRequiredSelector,
  validateSelectorMatchesTemplate,
} from './workload-validation.js';

type Obj = Record<string, unknown>;

export interface StatefulSet extends ApiObject {
  spec?: Obj;
  status?: Obj;
}

const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

/**
 * `SetDefaults_StatefulSet`: OrderedReady pods, the RollingUpdate strategy (partition 0), PVCs
 * retained when deleted and when scaled, one replica, 10 revisions kept; then the template's
 * defaults.
 */
export function defaultStatefulSet(ss: StatefulSet, pod: PodTemplateRules): void {
  if (!isPlainObject(ss.spec)) ss.spec = {};
  const spec = ss.spec as Obj;
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  if (!isPlainObject(spec.updateStrategy)) spec.updateStrategy = {};
  const strategy = spec.updateStrategy as Obj;
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    if (!isPlainObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
  }
  if (strategy.type === 'RollingUpdate' && isPlainObject(strategy.rollingUpdate)) {
    strategy.rollingUpdate.partition ??= 0;
  }
  if (!isPlainObject(spec.persistentVolumeClaimRetentionPolicy)) spec.persistentVolumeClaimRetentionPolicy = {};
  const retention = spec.persistentVolumeClaimRetentionPolicy as Obj;
  if (!retention.whenDeleted) retention.whenDeleted = 'Retain';
  if (!retention.whenScaled) retention.whenScaled = 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  if (!isPlainObject(spec.template)) spec.template = {};
  pod.defaultTemplate(spec.template as Obj);
}

/** MaxUnavailableStatefulSet is off: `maxUnavailable` is dropped unless the old object used it. */
export function dropDisabledStatefulSetFields(ss: StatefulSet, old?: StatefulSet): void {
  const oldRu = obj(obj(obj(old?.spec).updateStrategy).rollingUpdate);
  if (oldRu.maxUnavailable !== undefined && oldRu.maxUnavailable !== null) return;
  const ru = obj(ss.spec).updateStrategy;
  if (isPlainObject(ru) && isPlainObject(ru.rollingUpdate)) delete ru.rollingUpdate.maxUnavailable;
}

function goStrategy(strategy: Obj): string {
  const ru = isPlainObject(strategy.rollingUpdate) ? '(0xc000000000)' : '(nil)';
  return `apps.StatefulSetUpdateStrategy{Type:${goScalar(String(strategy.type ?? ''))}, RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)${ru}}`;
}

function goRollingUpdate(ru: Obj): string {
  const mu = ru.maxUnavailable === undefined || ru.maxUnavailable === null ? '(nil)' : '(0xc000000000)';
  return `apps.RollingUpdateStatefulSetStrategy{Partition:${typeof ru.partition === 'number' ? ru.partition : 0}, MaxUnavailable:(*intstr.IntOrString)${mu}}`;
}

function validateUpdateStrategy(strategy: Obj): FieldError[] {
  const path = 'spec.updateStrategy';
  switch (strategy.type) {
    case undefined:
    case '':
      return [fieldErrors.required(path)];
    case 'OnDelete':
      return isPlainObject(strategy.rollingUpdate)
        ? [
            invalidShown(
              `${path}.rollingUpdate`,
              goRollingUpdate(strategy.rollingUpdate),
              "only allowed for updateStrategy 'RollingUpdate'",
            ),
          ]
        : [];
    case 'RollingUpdate': {
      if (!isPlainObject(strategy.rollingUpdate)) return [];
      const ru = strategy.rollingUpdate;
      const errs = validateNonnegative(ru.partition, `${path}.rollingUpdate.partition`);
      const mu = ru.maxUnavailable;
      if (mu !== undefined && mu !== null) {
        const muPath = `${path}.rollingUpdate.maxUnavailable`;
        errs.push(...validateIntOrPercent(mu, muPath));
        if (intOrPercentValue(mu) === 0) errs.push(invalidShown(muPath, goIntOrString(mu), 'cannot be 0'));
        errs.push(...validateNotMoreThan100Percent(mu, muPath));
      }
      return errs;
    }
    default:
      return [invalidShown(path, goStrategy(strategy), "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

function validateRetentionPolicy(policy: unknown): FieldError[] {
  if (!isPlainObject(policy)) return [];
  const errs: FieldError[] = [];
  for (const when of ['whenDeleted', 'whenScaled']) {
    const v = policy[when];
    if (v !== 'Retain' && v !== 'Delete') {
      errs.push(
        notSupportedShown(
          `spec.persistentVolumeClaimRetentionPolicy.${when}`,
          goScalar(typeof v === 'string' ? v : ''),
          ['Retain', 'Delete'],
        ),
      );
    }
  }
  return errs;
}

/** `ValidateStatefulSetSpec`. */
export function validateStatefulSetSpec(ss: StatefulSet): FieldError[] {
  const spec = obj(ss.spec);
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy;
  if (policy === undefined || policy === '') errs.push(fieldErrors.required('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') {
    errs.push(invalidShown('spec.podManagementPolicy', goScalar(policy), "must be 'OrderedReady' or 'Parallel'"));
  }
  errs.push(...validateUpdateStrategy(obj(spec.updateStrategy)));
  errs.push(...validateRetentionPolicy(spec.persistentVolumeClaimRetentionPolicy));
  errs.push(...validateNonnegative(spec.replicas, 'spec.replicas'));
  errs.push(...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  if (isPlainObject(spec.ordinals)) errs.push(...validateNonnegative(spec.ordinals.start, 'spec.ordinals.start'));
  const sel = validateRequiredSelector(spec.selector, 'spec.selector', 'statefulset');
  errs.push(...sel.errors);
  const template = obj(spec.template);
  const meta = obj(template.metadata);
  if (!sel.selector) errs.push(invalidShown('spec.selector', goLabelSelector(spec.selector), ''));
  else {
    errs.push(...validateSelectorMatchesTemplate(sel.selector, meta.labels, 'spec.template'));
    errs.push(...validateLabels(meta.labels as Record<string, string> | undefined, 'spec.template.labels'));
    errs.push(
      ...validateAnnotations(meta.annotations as Record<string, string> | undefined, 'spec.template.annotations'),
    );
  }
  errs.push(...restartAlwaysErrors(podSpecOf(template), 'spec.template'));
  const deadline = podSpecOf(template).activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null) {
    errs.push(
      fieldErrors.forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        'activeDeadlineSeconds in StatefulSet is not Supported',
      ),
    );
  }
  return errs;
}

const MUTABLE_SPEC_FIELDS = [
  'replicas',
  'template',
  'updateStrategy',
  'minReadySeconds',
  'ordinals',
  'persistentVolumeClaimRetentionPolicy',
];

/** `ValidateStatefulSetUpdate`: only replicas, ordinals, template, updateStrategy, the PVC policy and minReadySeconds change. */
export function validateStatefulSetUpdate(ss: StatefulSet, old: StatefulSet): FieldError[] {
  const strip = (spec: unknown) => {
    const copy = { ...obj(spec) };
    for (const f of MUTABLE_SPEC_FIELDS) delete copy[f];
    return copy;
  };
  if (jsonEqual(strip(ss.spec), strip(old.spec))) return [];
  return [
    fieldErrors.forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

/** `ValidateStatefulSetStatusUpdate` beyond metadata. */
export function validateStatefulSetStatusUpdate(ss: StatefulSet, old: StatefulSet): FieldError[] {
  const status = obj(ss.status);
  return [
    ...validateReplicaCounts(status, 'status', {
      counts: [
        'replicas',
        'readyReplicas',
        'currentReplicas',
        'updatedReplicas',
        'availableReplicas',
        'observedGeneration',
      ],
      collisionCount: true,
      atMostReplicas: ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
      availableAtMostReady: 'cannot be greater than status.readyReplicas',
    }),
    ...validateCollisionCountUpdate(status, old.status),
  ];
}
