/**
 * batch/v1 Job defaults and generated selector as kube-apiserver v1.32 applies them
 * (`SetDefaults_Job` with JobBackoffLimitPerIndex, JobPodReplacementPolicy and
 * JobPodFailurePolicy on; the strategy's `generateSelector`). The generated labels are kube's
 * legacy `controller-uid`/`job-name` and the domain's `batch.<domain>/controller-uid` and
 * `batch.<domain>/job-name`.
 */
import type { ApiDomain } from '../api-domain.js';
import type { PodTemplateRules } from '../apps/pod-template-rules.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';

type Obj = Record<string, unknown>;

export interface Job extends ApiObject {
  spec?: Obj;
  status?: Obj;
}

/** kube's legacy label of a Job's pods naming the Job's uid. */
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
/** kube's legacy label of a Job's pods naming the Job. */
export const LEGACY_JOB_NAME_LABEL = 'job-name';

/** The Job labels of a domain profile (`batch.<domain>/controller-uid`, `batch.<domain>/job-name`). */
export interface JobLabels {
  readonly controllerUid: string;
  readonly jobName: string;
}

export function jobLabels(domain: ApiDomain): JobLabels {
  return { controllerUid: domain.key('batch', 'controller-uid'), jobName: domain.key('batch', 'job-name') };
}

const INT32_MAX = 2147483647;

/**
 * `SetDefaults_PodFailurePolicyOnPodConditionsPattern`: a pod condition pattern without a status
 * matches `True` (wherever a Job spec appears, CronJob job templates included).
 */
export function defaultPodFailurePolicyPatterns(spec: Obj): void {
  if (!isPlainObject(spec.podFailurePolicy) || !Array.isArray(spec.podFailurePolicy.rules)) return;
  for (const rule of spec.podFailurePolicy.rules) {
    if (!isPlainObject(rule) || !Array.isArray(rule.onPodConditions)) continue;
    for (const pattern of rule.onPodConditions) if (isPlainObject(pattern) && !pattern.status) pattern.status = 'True';
  }
}

/** `SetDefaults_Job` on the spec of a Job (not of CronJob job templates, which kube leaves alone). */
export function defaultJobSpec(spec: Obj): void {
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  if (spec.backoffLimit === undefined) spec.backoffLimit = spec.backoffLimitPerIndex !== undefined ? INT32_MAX : 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.manualSelector ??= false;
  defaultPodFailurePolicyPatterns(spec);
  if (spec.podReplacementPolicy === undefined) {
    spec.podReplacementPolicy = isPlainObject(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed';
  }
}

function templateLabelsOf(job: Job): Record<string, string> | undefined {
  const template = isPlainObject(job.spec) ? job.spec.template : undefined;
  if (!isPlainObject(template) || !isPlainObject(template.metadata) || !isPlainObject(template.metadata.labels))
    return undefined;
  return template.metadata.labels as Record<string, string>;
}

/** The Job's labels default to its template's when it has none. */
export function defaultJobLabels(job: Job): void {
  const labels = templateLabelsOf(job);
  if (labels && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...labels };
}

/** Every Job default: the spec's, the labels', then the pod template's. */
export function defaultJob(job: Job, pod: PodTemplateRules): void {
  if (!isPlainObject(job.spec)) job.spec = {};
  const spec = job.spec as Obj;
  defaultJobSpec(spec);
  defaultJobLabels(job);
  if (!isPlainObject(spec.template)) spec.template = {};
  pod.defaultTemplate(spec.template as Obj);
}

/**
 * kube's `generateSelector` (unless `manualSelector`): the template gets the job-name and
 * controller-uid labels (legacy and prefixed) it does not already have, and the selector matches
 * the prefixed controller-uid. Then the Job's labels default to the template's once more, as
 * kube's defaulting on read gives them.
 */
export function generateJobSelector(job: Job, labels: JobLabels): void {
  if (!isPlainObject(job.spec)) job.spec = {};
  const spec = job.spec as Obj;
  if (spec.manualSelector === true) return;
  if (!isPlainObject(spec.template)) spec.template = {};
  const template = spec.template as Obj;
  if (!isPlainObject(template.metadata)) template.metadata = {};
  const meta = template.metadata as Obj;
  if (!isPlainObject(meta.labels)) meta.labels = {};
  const tl = meta.labels as Record<string, string>;
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  for (const key of [LEGACY_JOB_NAME_LABEL, labels.jobName]) tl[key] ??= name;
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, labels.controllerUid]) tl[key] ??= uid;
  if (!isPlainObject(spec.selector)) spec.selector = {};
  const selector = spec.selector as Obj;
  if (!isPlainObject(selector.matchLabels)) selector.matchLabels = {};
  const ml = selector.matchLabels as Record<string, string>;
  ml[labels.controllerUid] ??= uid;
  defaultJobLabels(job);
}
