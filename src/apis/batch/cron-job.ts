/**
 * batch/v1 CronJob rules as kube-apiserver v1.32 applies them: `SetDefaults_CronJob` (Allow,
 * not suspended, 3 successful and 1 failed Jobs kept; the job template gets its pod defaults and
 * pod-condition statuses, not Job defaults), `ValidateCronJobCreate/Update` (schedule parsed as
 * robfig/cron's standard parser does, no `TZ`/`CRON_TZ` in new schedules, time zone known, the
 * job template's spec valid with a generated selector, names of at most 52 characters).
 */
import { goLabelSelector, goScalar } from '../apps/go-values.js';
import type { PodTemplateRules } from '../apps/pod-template-rules.js';
import { validateNonnegative } from '../apps/workload-validation.js';
import { type FieldError, fieldErrors, invalidShown, notSupportedShown } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import { cronScheduleError } from './cron-schedule.js';
import { defaultPodFailurePolicyPatterns } from './job-defaults.js';
import { validateJobSpecCore } from './job-validation.js';
import { validateTimeZone } from './time-zone.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

export interface CronJob extends ApiObject {
  spec?: Obj;
  status?: Obj;
}

/** Longest CronJob name: the Jobs it creates append an 11-character suffix to it. */
export const MAX_CRON_JOB_NAME_LENGTH = 52;

/** `SetDefaults_CronJob` and the defaults of its job template's types. */
export function defaultCronJob(cj: CronJob, pod: PodTemplateRules): void {
  if (!isPlainObject(cj.spec)) cj.spec = {};
  const spec = cj.spec as Obj;
  if (!spec.concurrencyPolicy) spec.concurrencyPolicy = 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  if (!isPlainObject(spec.jobTemplate)) spec.jobTemplate = {};
  const jt = spec.jobTemplate as Obj;
  if (!isPlainObject(jt.spec)) jt.spec = {};
  const jobSpec = jt.spec as Obj;
  defaultPodFailurePolicyPatterns(jobSpec);
  if (!isPlainObject(jobSpec.template)) jobSpec.template = {};
  pod.defaultTemplate(jobSpec.template as Obj);
}

function validateSchedule(schedule: unknown, allowTZ: boolean, timeZone: unknown): FieldError[] {
  const path = 'spec.schedule';
  if (typeof schedule !== 'string' || schedule === '') return [fieldErrors.required(path)];
  const errs: FieldError[] = [];
  const err = cronScheduleError(schedule);
  if (err) errs.push(invalidShown(path, goScalar(schedule), err));
  const hasTZ = schedule.includes('TZ');
  if (allowTZ && hasTZ && typeof timeZone === 'string') {
    errs.push(invalidShown(path, goScalar(schedule), 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZ && hasTZ) {
    errs.push(
      invalidShown(path, goScalar(schedule), 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'),
    );
  }
  return errs;
}

const POLICIES = ['Allow', 'Forbid', 'Replace'];

function validateJobTemplate(jobTemplate: unknown, pod: PodTemplateRules, old?: Obj): FieldError[] {
  const spec = obj(obj(jobTemplate).spec);
  const path = 'spec.jobTemplate.spec';
  const oldTemplate = old ? obj(obj(obj(old.jobTemplate).spec).template) : undefined;
  const errs = validateJobSpecCore(spec, path, pod, oldTemplate);
  if (spec.selector !== undefined && spec.selector !== null) {
    errs.push(invalidShown(`${path}.selector`, goLabelSelector(spec.selector), '`selector` will be auto-generated'));
  }
  if (spec.manualSelector === true) errs.push(notSupportedShown(`${path}.manualSelector`, 'true', ['nil', 'false']));
  return errs;
}

/** `validateCronJobSpec`; `old` is the spec before an update. */
export function validateCronJobSpec(cj: CronJob, pod: PodTemplateRules, old?: CronJob): FieldError[] {
  const spec = obj(cj.spec);
  const oldSpec = old ? obj(old.spec) : undefined;
  const allowTZ = typeof oldSpec?.schedule === 'string' && oldSpec.schedule.includes('TZ');
  const errs = validateSchedule(spec.schedule, allowTZ, spec.timeZone);
  errs.push(...validateNonnegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (!oldSpec || oldSpec.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone, 'spec.timeZone'));
  const policy = spec.concurrencyPolicy;
  if (policy === undefined || policy === '') errs.push(fieldErrors.required('spec.concurrencyPolicy'));
  else if (!POLICIES.includes(String(policy)))
    errs.push(notSupportedShown('spec.concurrencyPolicy', goScalar(policy), POLICIES));
  errs.push(...validateJobTemplate(spec.jobTemplate, pod, oldSpec));
  errs.push(...validateNonnegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errs.push(...validateNonnegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errs;
}

/** `ValidateCronJobCreate` beyond metadata: the spec, and a name of at most 52 characters. */
export function validateCronJobCreate(cj: CronJob, pod: PodTemplateRules): FieldError[] {
  const errs = validateCronJobSpec(cj, pod);
  const name = cj.metadata.name ?? '';
  if (name.length > MAX_CRON_JOB_NAME_LENGTH) {
    errs.push(
      invalidShown('metadata.name', goScalar(name), `must be no more than ${MAX_CRON_JOB_NAME_LENGTH} characters`),
    );
  }
  return errs;
}
