/**
 * Job status rules as kube-apiserver v1.32 applies them to `jobs/status` writes (JobManagedBy is
 * beta and on, so the strengthened transition checks apply, each only when the fields it looks
 * at change): counters are never negative nor decreased, terminal conditions stay, completion
 * and start times are consistent with the conditions, index lists are well formed.
 */
import { goScalar } from '../apps/go-values.js';
import { validateNonnegative } from '../apps/workload-validation.js';
import { type FieldError, fieldErrors, invalidShown } from '../meta/field-error.js';
import { isPlainObject, jsonEqual } from '../schema/json-value.js';
import type { Job } from './job-defaults.js';
import { indexesFormat } from './job-policies.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const set = (v: unknown): boolean => v !== undefined && v !== null;

function conditionTrue(job: Job, type: string): boolean {
  const conditions = obj(job.status).conditions;
  return Array.isArray(conditions) && conditions.some((c) => obj(c).type === type && obj(c).status === 'True');
}

const complete = (j: Job) => conditionTrue(j, 'Complete');
const failed = (j: Job) => conditionTrue(j, 'Failed');
const finished = (j: Job) => complete(j) || failed(j);
const successCriteriaMet = (j: Job) => conditionTrue(j, 'SuccessCriteriaMet');
const failureTarget = (j: Job) => conditionTrue(j, 'FailureTarget');

/** A condition-level error (kube omits the value). */
function conditionsError(detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: 'status.conditions', message: `Invalid value: ${detail}` };
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

function time(v: unknown): number | undefined {
  return typeof v === 'string' ? Date.parse(v) : undefined;
}

function validateUncounted(status: Obj): FieldError[] {
  const uncounted = status.uncountedTerminatedPods;
  if (!isPlainObject(uncounted)) return [];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const kind of ['succeeded', 'failed']) {
    const uids = Array.isArray(uncounted[kind]) ? (uncounted[kind] as unknown[]) : [];
    uids.forEach((uid, i) => {
      const path = `status.uncountedTerminatedPods.${kind}[${i}]`;
      if (uid === '') errs.push(invalidShown(path, goScalar(''), 'must not be empty'));
      else if (seen.has(String(uid))) errs.push(fieldErrors.duplicate(path, uid));
      else seen.add(String(uid));
    });
  }
  return errs;
}

/** `ValidateJobStatusUpdate` (without metadata) with v1.32's default options. */
export function validateJobStatusUpdate(job: Job, old: Job): FieldError[] {
  const status = obj(job.status);
  const oldStatus = obj(old.status);
  const spec = obj(job.spec);
  const changed = (f: string) => !jsonEqual(status[f] ?? null, oldStatus[f] ?? null);
  const indexed = spec.completionMode === 'Indexed';
  const errs: FieldError[] = [];
  for (const f of ['active', 'succeeded', 'failed', 'ready', 'terminating'])
    errs.push(...validateNonnegative(status[f], `status.${f}`));
  errs.push(...validateUncounted(status));
  const completeChanged = complete(old) !== complete(job);
  const failedChanged = failed(old) !== failed(job);
  const finishedChanged = finished(old) !== finished(job);
  if ((completeChanged || failedChanged) && complete(job) && failed(job)) {
    errs.push(conditionsError('cannot set Complete=True and Failed=true conditions'));
  }
  if ((completeChanged || failureTarget(old) !== failureTarget(job)) && complete(job) && failureTarget(job)) {
    errs.push(conditionsError('cannot set Complete=True and FailureTarget=true conditions'));
  }
  const completionChanged = changed('completionTime');
  if ((completeChanged || completionChanged) && set(status.completionTime) && !complete(job)) {
    errs.push(
      invalidShown(
        'status.completionTime',
        goScalar(status.completionTime),
        'cannot set completionTime when there is no Complete=True condition',
      ),
    );
  }
  if ((completeChanged || completionChanged) && !set(status.completionTime) && complete(job)) {
    errs.push(fieldErrors.required('status.completionTime', 'completionTime is required for Complete jobs'));
  }
  const start = time(status.startTime);
  const end = time(status.completionTime);
  if ((changed('startTime') || completionChanged) && start !== undefined && end !== undefined && end < start) {
    errs.push(
      invalidShown(
        'status.completionTime',
        goScalar(status.completionTime),
        'completionTime cannot be set before startTime',
      ),
    );
  }
  if ((finishedChanged || changed('active')) && num(status.active) > 0 && finished(job)) {
    errs.push(invalidShown('status.active', goScalar(num(status.active)), 'active>0 is invalid for finished job'));
  }
  if ((finishedChanged || changed('startTime')) && !set(status.startTime) && finished(job)) {
    errs.push(fieldErrors.required('status.startTime', 'startTime is required for finished job'));
  }
  const completions = typeof spec.completions === 'number' ? spec.completions : undefined;
  if (changed('completedIndexes') && completions !== undefined) {
    const r = indexesFormat(typeof status.completedIndexes === 'string' ? status.completedIndexes : '', completions);
    if (typeof r !== 'number')
      errs.push(
        invalidShown(
          'status.completedIndexes',
          goScalar(status.completedIndexes ?? ''),
          `error parsing completedIndexes: ${r.error}`,
        ),
      );
  }
  if (
    changed('completedIndexes') &&
    typeof status.completedIndexes === 'string' &&
    status.completedIndexes !== '' &&
    !indexed
  ) {
    errs.push(
      invalidShown(
        'status.completedIndexes',
        goScalar(status.completedIndexes),
        'cannot set non-empty completedIndexes when non-indexed completion mode',
      ),
    );
  }
  if (changed('failedIndexes') && set(status.failedIndexes) && !set(spec.backoffLimitPerIndex)) {
    errs.push(
      invalidShown(
        'status.failedIndexes',
        goScalar(status.failedIndexes),
        'cannot set non-null failedIndexes when backoffLimitPerIndex is null',
      ),
    );
  }
  if (successCriteriaMet(job) && failed(job))
    errs.push(conditionsError('cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (successCriteriaMet(job) && failureTarget(job))
    errs.push(conditionsError('cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (isPlainObject(spec.successPolicy) && !successCriteriaMet(job) && complete(job)) {
    errs.push(conditionsError('cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'));
  }
  for (const type of ['Failed', 'Complete', 'FailureTarget']) {
    if (conditionTrue(old, type) && !conditionTrue(job, type))
      errs.push(conditionsError(`cannot disable the terminal ${type}=True condition`));
  }
  if (num(status.failed) < num(oldStatus.failed)) {
    errs.push(invalidShown('status.failed', goScalar(num(status.failed)), 'cannot decrease the failed counter'));
  }
  const elastic = indexed && jsonEqual(spec.completions ?? null, spec.parallelism ?? null);
  if (!elastic && num(status.succeeded) < num(oldStatus.succeeded)) {
    errs.push(
      invalidShown('status.succeeded', goScalar(num(status.succeeded)), 'cannot decrease the succeeded counter'),
    );
  }
  if (
    set(status.completionTime) &&
    set(oldStatus.completionTime) &&
    status.completionTime !== oldStatus.completionTime
  ) {
    errs.push(
      invalidShown('status.completionTime', goScalar(status.completionTime), 'completionTime cannot be mutated'),
    );
  }
  if (changed('startTime') && set(oldStatus.startTime) && spec.suspend !== true) {
    errs.push(fieldErrors.required('status.startTime', 'startTime cannot be removed for unsuspended job'));
  }
  if (successCriteriaMet(old) && !successCriteriaMet(job))
    errs.push(conditionsError('cannot disable the SuccessCriteriaMet=True condition'));
  if (complete(old) && !successCriteriaMet(old) && successCriteriaMet(job)) {
    errs.push(conditionsError('cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions'));
  }
  return errs;
}
