/**
 * The batch/v1 kinds as kube-apiserver v1.32 serves them: Jobs (`status`, field selector
 * `status.successful`, generated selector) and CronJobs (`status`, short name `cj`). Orch runs
 * no Job or CronJob controller: status is what clients write.
 */
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { BASIC_POD_TEMPLATE_RULES, type PodTemplateRules } from '../apps/pod-template-rules.js';
import {
  keepStatus,
  LIST_METADATA_DESCRIPTION,
  resetStatus,
  statusSubresource,
  validationSchema,
  workloadDefinition,
  zeroPodTemplate,
} from '../apps/workload-definition.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import { cronJobTableColumns, jobTableColumns } from './batch-columns.js';
import { jobFieldLabels } from './batch-field-labels.js';
import { cronJobSchema, jobSchema } from './batch-v1-schemas.js';
import { type CronJob, defaultCronJob, validateCronJobCreate, validateCronJobSpec } from './cron-job.js';
import { defaultJob, generateJobSelector, type Job, jobLabels } from './job-defaults.js';
import { validateJobStatusUpdate } from './job-status.js';
import { validateJob, validateJobUpdate } from './job-validation.js';

/** What the batch/v1 definitions are built with. */
export interface BatchOptions {
  /** The pod template rules (default: the basic ones). */
  readonly podTemplate?: PodTemplateRules;
}

const BATCH = { group: 'batch', version: 'v1' };

/** `jobs`. */
export function jobResource(
  domain: ApiDomain = ORCH_DOMAIN,
  pod: PodTemplateRules = BASIC_POD_TEMPLATE_RULES,
): BuiltinResourceDefinition {
  const schema = validationSchema(jobSchema);
  const labels = jobLabels(domain);
  return workloadDefinition(
    {
      ...BATCH,
      kind: 'Job',
      resource: 'jobs',
      zeroSpec: () => ({ template: zeroPodTemplate() }),
      shortNames: [],
      categories: ['all'],
      listDescription: 'A list of jobs.',
      listItemsDescription: 'The jobs.',
      listMetadataDescription: LIST_METADATA_DESCRIPTION,
    },
    {
      schema: jobSchema,
      hasGeneration: true,
      tableColumns: jobTableColumns(),
      fieldLabels: jobFieldLabels,
      subresources: [statusSubresource<Job>({ schema, validate: validateJobStatusUpdate })],
      strategy: schemaStrategy<Job>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        defaults: (job) => defaultJob(job, pod),
        prepareForCreate(job) {
          generateJobSelector(job, labels);
          resetStatus(job, schema);
        },
        prepareForUpdate: (job, old) => keepStatus(job, old),
        validateCreate: (job) => validateJob(job, labels, pod),
        validateUpdate: (job, old) => validateJobUpdate(job, old, labels, pod),
      }),
    },
  );
}

/** `cronjobs` (short name `cj`). */
export function cronJobResource(pod: PodTemplateRules = BASIC_POD_TEMPLATE_RULES): BuiltinResourceDefinition {
  const schema = validationSchema(cronJobSchema);
  return workloadDefinition(
    {
      ...BATCH,
      kind: 'CronJob',
      resource: 'cronjobs',
      zeroSpec: () => ({
        jobTemplate: { metadata: { creationTimestamp: null }, spec: { template: zeroPodTemplate() } },
      }),
      shortNames: ['cj'],
      categories: ['all'],
      listDescription: 'A list of cron jobs.',
      listItemsDescription: 'The cron jobs.',
      listMetadataDescription: LIST_METADATA_DESCRIPTION,
    },
    {
      schema: cronJobSchema,
      hasGeneration: true,
      tableColumns: cronJobTableColumns(),
      subresources: [statusSubresource<CronJob>({ schema, validate: () => [] })],
      strategy: schemaStrategy<CronJob>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        defaults: (cj) => defaultCronJob(cj, pod),
        prepareForCreate: (cj) => resetStatus(cj, schema),
        prepareForUpdate: (cj, old) => keepStatus(cj, old),
        validateCreate: (cj) => validateCronJobCreate(cj, pod),
        validateUpdate: (cj, old) => validateCronJobSpec(cj, pod, old),
      }),
    },
  );
}

/** The batch/v1 kinds, in kube's discovery order. */
export function batchResources(
  domain: ApiDomain = ORCH_DOMAIN,
  options: BatchOptions = {},
): BuiltinResourceDefinition[] {
  const pod = options.podTemplate ?? BASIC_POD_TEMPLATE_RULES;
  return [cronJobResource(pod), jobResource(domain, pod)];
}
