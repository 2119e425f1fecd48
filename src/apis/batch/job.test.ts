import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../api-domain.js';
import { BASIC_POD_TEMPLATE_RULES as POD } from '../apps/pod-template-rules.js';
import { type FieldError, formatFieldError } from '../meta/field-error.js';
import { cronJobTableColumns, jobTableColumns } from './batch-columns.js';
import { jobFieldLabels } from './batch-field-labels.js';
import { type CronJob, defaultCronJob, validateCronJobCreate, validateCronJobSpec } from './cron-job.js';
import { defaultJob, generateJobSelector, type Job, jobLabels } from './job-defaults.js';
import { validateJobStatusUpdate } from './job-status.js';
import { validateJob, validateJobUpdate } from './job-validation.js';

const LABELS = jobLabels(ORCH_DOMAIN);
const msgs = (errs: readonly FieldError[]) => errs.map(formatFieldError);

function created(spec: Record<string, unknown>, meta: Record<string, unknown> = {}): Job {
  const job: Job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default', uid: 'u1', ...meta },
    spec,
  };
  defaultJob(job, POD);
  generateJobSelector(job, LABELS);
  return job;
}

const template = () => ({ spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } });

describe('Job defaults', () => {
  it('fill the spec and generate the selector and labels', () => {
    const job = created({ template: template() });
    const generated = {
      'batch.orch.io/controller-uid': 'u1',
      'batch.orch.io/job-name': 'pi',
      'controller-uid': 'u1',
      'job-name': 'pi',
    };
    assert.deepEqual(job.spec?.selector, { matchLabels: { 'batch.orch.io/controller-uid': 'u1' } });
    assert.deepEqual((job.spec as { template: { metadata: { labels: unknown } } }).template.metadata.labels, generated);
    assert.deepEqual(job.metadata.labels, generated);
    const { template: _t, selector: _s, ...rest } = job.spec ?? {};
    assert.deepEqual(rest, {
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      manualSelector: false,
      podReplacementPolicy: 'TerminatingOrFailed',
    });
    assert.deepEqual(validateJob(job, LABELS, POD), []);
  });

  it('keep labels the user gave, and follow the per-index backoff and pod failure policy', () => {
    const job = created(
      {
        completionMode: 'Indexed',
        completions: 3,
        backoffLimitPerIndex: 1,
        podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] },
        template: { metadata: { labels: { app: 'x' } }, ...template() },
      },
      { labels: { team: 'a' } },
    );
    assert.deepEqual(job.metadata.labels, { team: 'a' });
    assert.equal(job.spec?.backoffLimit, 2147483647);
    assert.equal(job.spec?.parallelism, 1);
    assert.equal(job.spec?.podReplacementPolicy, 'Failed');
    assert.deepEqual(
      (job.spec as { podFailurePolicy: { rules: { onPodConditions: unknown }[] } }).podFailurePolicy.rules[0]
        .onPodConditions,
      [{ type: 'DisruptionTarget', status: 'True' }],
    );
  });
});

describe('Job validation', () => {
  it('reports a template that restarts Always and a manual selector that does not match', () => {
    const job = created({
      manualSelector: true,
      selector: { matchLabels: { app: 'y' } },
      template: { metadata: { labels: { app: 'x' } }, spec: {} },
      parallelism: -1,
    });
    assert.deepEqual(msgs(validateJob(job, LABELS, POD)), [
      'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
    ]);
  });

  it('refuses generated labels that the user overrode, and a selector of another Job', () => {
    const job = created({ template: { metadata: { labels: { 'controller-uid': 'other' } }, ...template() } });
    const stolen = created({
      selector: { matchLabels: { 'batch.orch.io/controller-uid': 'u2' } },
      template: template(),
    });
    assert.deepEqual(msgs(validateJob(stolen, LABELS, POD)), [
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"batch.orch.io/controller-uid":"u2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated',
      'spec.template.metadata.labels: Invalid value: map[string]string{"batch.orch.io/controller-uid":"u1", "batch.orch.io/job-name":"pi", "controller-uid":"u1", "job-name":"pi"}: `selector` does not match template `labels`',
    ]);
    assert.deepEqual(msgs(validateJob(job, LABELS, POD)), [
      'spec.template.metadata.labels[controller-uid]: Invalid value: map[string]string{"batch.orch.io/controller-uid":"u1", "batch.orch.io/job-name":"pi", "controller-uid":"other", "job-name":"pi"}: must be \'u1\'',
    ]);
  });

  it('checks indexed rules and the policies', () => {
    const job = created({
      completionMode: 'Indexed',
      completions: 2,
      maxFailedIndexes: 5,
      podFailurePolicy: {
        rules: [{ action: 'Panic', onExitCodes: { operator: 'In', values: [3, 0, 3] } }, { action: 'FailJob' }],
      },
      podReplacementPolicy: 'TerminatingOrFailed',
      template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'i' }] } },
    });
    assert.deepEqual(msgs(validateJob(job, LABELS, POD)), [
      'spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified',
      'spec.maxFailedIndexes: Invalid value: 5: must be less than or equal to completions',
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Panic": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{3, 0, 3}: must be ordered',
      'spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
      'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ]);
  });

  it('keeps the template, selector and completions of a started Job, and lets a suspended one move its pods', () => {
    const old = created({ template: template(), suspend: true });
    const next = structuredClone(old);
    (next.spec as { template: { spec: Record<string, unknown> } }).template.spec.nodeSelector = { zone: 'a' };
    (next.spec as Record<string, unknown>).completions = 2;
    assert.deepEqual(msgs(validateJobUpdate(next, old, LABELS, POD)), [
      'spec.completions: Invalid value: 2: field is immutable',
    ]);
    const started = structuredClone(old);
    started.status = { startTime: '2024-01-01T00:00:00Z' };
    const moved = structuredClone(next);
    (moved.spec as Record<string, unknown>).completions = 1;
    const errs = msgs(validateJobUpdate(moved, started, LABELS, POD));
    assert.equal(errs.length, 1);
    assert.match(errs[0], /^spec\.template: Invalid value: .*: field is immutable$/);
  });

  it('checks status transitions', () => {
    const old = created({ template: template() });
    old.status = { succeeded: 2, conditions: [{ type: 'Failed', status: 'True' }], startTime: '2024-01-01T00:00:00Z' };
    const next = structuredClone(old);
    next.status = { succeeded: 1, active: 1, conditions: [{ type: 'Complete', status: 'True' }] };
    assert.deepEqual(msgs(validateJobStatusUpdate(next, old)), [
      'status.completionTime: Required value: completionTime is required for Complete jobs',
      'status.active: Invalid value: 1: active>0 is invalid for finished job',
      'status.startTime: Required value: startTime is required for finished job',
      'status.conditions: Invalid value: cannot disable the terminal Failed=True condition',
      'status.succeeded: Invalid value: 1: cannot decrease the succeeded counter',
      'status.startTime: Required value: startTime cannot be removed for unsuspended job',
    ]);
  });
});

describe('CronJob', () => {
  const cron = (spec: Record<string, unknown>, name = 'hello'): CronJob => {
    const cj: CronJob = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name, namespace: 'default' }, spec };
    defaultCronJob(cj, POD);
    return cj;
  };

  it('defaults the policy, suspension and history, and leaves the job spec to the Job', () => {
    const cj = cron({ schedule: '* * * * *', jobTemplate: { spec: { template: template() } } });
    const { jobTemplate, ...rest } = cj.spec ?? {};
    assert.deepEqual(rest, {
      schedule: '* * * * *',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    assert.deepEqual(jobTemplate, { spec: { template: template() } });
    assert.deepEqual(validateCronJobCreate(cj, POD), []);
  });

  it('reports schedule, time zone, policy, template and name problems at once', () => {
    const cj = cron(
      {
        schedule: 'TZ=UTC 61 * * * *',
        timeZone: 'Nowhere/City',
        concurrencyPolicy: 'Sometimes',
        jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, manualSelector: true, template: { spec: {} } } },
      },
      'x'.repeat(53),
    );
    assert.deepEqual(msgs(validateCronJobCreate(cj, POD)), [
      'spec.schedule: Invalid value: "TZ=UTC 61 * * * *": end of range (61) above maximum (59): 61',
      'spec.schedule: Invalid value: "TZ=UTC 61 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      'spec.timeZone: Invalid value: "Nowhere/City": unknown time zone Nowhere/City',
      'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
      `metadata.name: Invalid value: "${'x'.repeat(53)}": must be no more than 52 characters`,
    ]);
  });

  it('keeps a TZ schedule it already had, but not with a time zone', () => {
    const old = cron({ schedule: 'TZ=UTC * * * * *', jobTemplate: { spec: { template: template() } } });
    assert.deepEqual(validateCronJobSpec(old, POD, old), []);
    const next = cron({ ...structuredClone(old.spec), timeZone: 'UTC' });
    assert.deepEqual(msgs(validateCronJobSpec(next, POD, old)), [
      'spec.schedule: Invalid value: "TZ=UTC * * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
    ]);
  });
});

describe('batch columns and field labels', () => {
  const now = new Date('2024-01-01T01:00:00Z');
  it('show a Job status, completions and duration', () => {
    const job = created({ template: template(), parallelism: 3, completions: undefined });
    delete (job.spec as Record<string, unknown>).completions;
    job.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
    job.status = {
      succeeded: 1,
      startTime: '2024-01-01T00:00:00Z',
      completionTime: '2024-01-01T00:02:05Z',
      conditions: [{ type: 'Complete', status: 'True' }],
    };
    assert.deepEqual(jobTableColumns().cells(job, now), [
      'pi',
      'Complete',
      '1/1 of 3',
      '2m5s',
      '60m',
      'pi',
      'perl',
      'batch.orch.io/controller-uid=u1',
    ]);
    assert.deepEqual(jobFieldLabels.fieldSet(job), {
      'metadata.name': 'pi',
      'metadata.namespace': 'default',
      'status.successful': '1',
    });
    assert.equal(jobFieldLabels.unsupportedMessage('spec.x'), 'field label "spec.x" not supported for batchv1.Job');
  });

  it('show a CronJob schedule, zone, suspension, active jobs and last schedule', () => {
    const cj: CronJob = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c', creationTimestamp: '2024-01-01T00:00:00Z' },
      spec: { schedule: '@hourly', suspend: true, jobTemplate: { spec: { template: template() } } },
      status: { active: [{ name: 'j' }], lastScheduleTime: '2024-01-01T00:59:30Z' },
    };
    assert.deepEqual(
      cronJobTableColumns().columnDefinitions.map((c) => c.name),
      ['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers', 'Images', 'Selector'],
    );
    assert.deepEqual(cronJobTableColumns().cells(cj, now), [
      'c',
      '@hourly',
      '<none>',
      'True',
      1,
      '30s',
      '60m',
      'pi',
      'perl',
      '<none>',
    ]);
  });
});
