/**
 * core/v1 ReplicationController rules as kube-apiserver v1.32 applies them:
 * `SetDefaults_ReplicationController` (the selector and the labels default to the template's
 * labels, one replica), `ValidateReplicationController(Update)` (a non-empty selector matching
 * the template; the template restarts Always, sets no `activeDeadlineSeconds` and, with more
 * than one replica, mounts GCE disks read-only), the status rules, the Table columns and the
 * field selectors (`status.replicas`).
 */
import { goScalar, goStringMap } from '../apps/go-values.js';
import { type PodTemplateRules, podSpecOf } from '../apps/pod-template-rules.js';
import { restartAlwaysErrors } from '../apps/replica-set.js';
import { containerColumnSpecs, formatLabels } from '../apps/workload-columns.js';
import { SELECTOR_MISMATCH, validateNonnegative } from '../apps/workload-validation.js';
import { type FieldError, fieldErrors, invalidShown } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import type { FieldLabelSupport } from '../selectors/field-labels.js';
import { declarativeFieldLabels } from '../selectors/selectable-fields.js';
import { AGE_SPEC, type ColumnSpec, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

export interface ReplicationController extends ApiObject {
  spec?: Obj;
  status?: Obj;
}

function labelsOf(template: unknown): Record<string, string> | undefined {
  const meta = obj(template).metadata;
  return isPlainObject(meta) && isPlainObject(meta.labels) ? (meta.labels as Record<string, string>) : undefined;
}

/** `SetDefaults_ReplicationController`, then the template's pod defaults. */
export function defaultReplicationController(rc: ReplicationController, pod: PodTemplateRules): void {
  if (!isPlainObject(rc.spec)) rc.spec = {};
  const spec = rc.spec as Obj;
  const labels = labelsOf(spec.template);
  if (labels) {
    if (Object.keys(obj(spec.selector)).length === 0) spec.selector = { ...labels };
    if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
  }
  spec.replicas ??= 1;
  if (isPlainObject(spec.template)) pod.defaultTemplate(spec.template);
}

/** The selector as kube's `labels.SelectorFromSet(...).String()` prints it (keys sorted). */
export function replicationControllerSelector(rc: ApiObject): string {
  const selector = obj(obj(rc.spec).selector);
  return Object.keys(selector)
    .sort()
    .map((k) => `${k}=${String(selector[k])}`)
    .join(',');
}

function validateReadOnlyPersistentDisks(volumes: unknown, path: string): FieldError[] {
  if (!Array.isArray(volumes)) return [];
  const errs: FieldError[] = [];
  volumes.forEach((v, i) => {
    const disk = obj(v).gcePersistentDisk;
    if (isPlainObject(disk) && disk.readOnly !== true) {
      errs.push(
        invalidShown(
          `${path}[${i}].gcePersistentDisk.readOnly`,
          'false',
          'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
        ),
      );
    }
  });
  return errs;
}

/** `ValidateReplicationControllerSpec` (create and update alike). */
export function validateReplicationControllerSpec(
  rc: ReplicationController,
  pod: PodTemplateRules,
  old?: ReplicationController,
): FieldError[] {
  const spec = obj(rc.spec);
  const errs = validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds');
  const selector = obj(spec.selector);
  if (Object.keys(selector).length === 0) errs.push(fieldErrors.required('spec.selector'));
  errs.push(...validateNonnegative(spec.replicas, 'spec.replicas'));
  if (!isPlainObject(spec.template)) {
    errs.push(fieldErrors.required('spec.template'));
    return errs;
  }
  const template = spec.template;
  const labels = labelsOf(template) ?? {};
  if (Object.keys(selector).length > 0 && !Object.entries(selector).every(([k, v]) => labels[k] === v)) {
    errs.push(invalidShown('spec.template.metadata.labels', goStringMap(labelsOf(template)), SELECTOR_MISMATCH));
  }
  const oldTemplate = obj(old?.spec).template;
  errs.push(...pod.validateTemplate(template, 'spec.template', isPlainObject(oldTemplate) ? oldTemplate : undefined));
  if (typeof spec.replicas === 'number' && spec.replicas > 1) {
    errs.push(...validateReadOnlyPersistentDisks(podSpecOf(template).volumes, 'spec.template.spec.volumes'));
  }
  errs.push(...restartAlwaysErrors(podSpecOf(template), 'spec.template'));
  const deadline = podSpecOf(template).activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null) {
    errs.push(invalidShown('spec.template.spec.activeDeadlineSeconds', goScalar(deadline), 'must not be specified'));
  }
  return errs;
}

/** core/v1 ReplicationController field selectors: name, namespace and `status.replicas`. */
export const replicationControllerFieldLabels: FieldLabelSupport = declarativeFieldLabels({
  namespaced: true,
  fields: [{ label: 'status.replicas', zero: '0' }],
});

/** ReplicationController: `Name`, `Desired`, `Current`, `Ready`, `Age`; wide `Containers`, `Images`, `Selector`. */
export function replicationControllerTableColumns(): TableColumns {
  const count = (name: string, description: string, jsonPath: string): ColumnSpec => ({
    name,
    type: 'integer',
    description,
    jsonPath,
    zero: 0,
  });
  return declarativeTableColumns([
    count('Desired', 'The number of replicas asked for.', '.spec.replicas'),
    count('Current', 'The number of replicas last seen running.', '.status.replicas'),
    count('Ready', 'The number of replicas that are ready.', '.status.readyReplicas'),
    AGE_SPEC,
    ...containerColumnSpecs((rc) => obj(rc.spec).template),
    {
      name: 'Selector',
      type: 'string',
      description: 'The labels that pick the pods the replication controller manages.',
      priority: 1,
      cell: (rc) => formatLabels(obj(rc.spec).selector),
    },
  ]);
}
