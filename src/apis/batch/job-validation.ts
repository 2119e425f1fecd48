/**
 * batch/v1 Job validation as kube-apiserver v1.32 applies it: `ValidateJob` (generated selector,
 * spec, Indexed pod hostnames), `ValidateJobSpecUpdate` (immutable selector, template, modes and
 * policies; Indexed completions change only with parallelism; a suspended Job that never started
 * may change its template's scheduling directives), and `validateJobSpec`, which CronJob job
 * templates share.
 */
import { goLabelSelector, goScalar, goStringMap } from '../apps/go-values.js';
import { type PodTemplateRules, podSpecOf } from '../apps/pod-template-rules.js';
import {
  selectorOf,
  validateImmutableSelector,
  validateNonnegative,
  validateSelectorMatchesTemplate,
} from '../apps/workload-validation.js';
import { type FieldError, fieldErrors, invalidShown, notSupportedShown } from '../meta/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain, regexError } from '../meta/name-validation.js';
import { FIELD_IMMUTABLE, validateImmutableField } from '../meta/object-meta-validation.js';
import { validateLabelSelector } from '../rbac/label-selector-validation.js';
import { isPlainObject, jsonEqual } from '../schema/json-value.js';
import { matchesLabels } from '../selectors/label-selector.js';
import type { LabelSelectorObject } from '../selectors/label-selector-object.js';
import { type Job, type JobLabels, LEGACY_CONTROLLER_UID_LABEL, LEGACY_JOB_NAME_LABEL } from './job-defaults.js';
import { validatePodFailurePolicy, validatePodReplacementPolicy, validateSuccessPolicy } from './job-policies.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const set = (v: unknown): boolean => v !== undefined && v !== null;

const MAX_PARALLELISM_INDEXED = 100000;
const MAX_FAILED_INDEXES = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10_000;
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`);

/** `IsDomainPrefixedPath` (`spec.managedBy`). */
function validateDomainPrefixedPath(value: string, path: string): FieldError[] {
  if (value === '') return [fieldErrors.required(path)];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) {
    return [fieldErrors.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const host = value.slice(0, slash);
  const rest = value.slice(slash + 1);
  const errs = isDNS1123Subdomain(host).map((m) => fieldErrors.invalid(path, host, m));
  if (!HTTP_PATH_RE.test(rest)) errs.push(fieldErrors.invalid(path, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

function validateIndexedMode(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const { completions, parallelism, maxFailedIndexes, backoffLimitPerIndex } = spec;
  if (!set(completions)) errs.push(fieldErrors.required(`${path}.completions`, 'when completion mode is Indexed'));
  if (typeof parallelism === 'number' && parallelism > MAX_PARALLELISM_INDEXED) {
    errs.push(
      invalidShown(
        `${path}.parallelism`,
        goScalar(parallelism),
        `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`,
      ),
    );
  }
  if (typeof completions === 'number' && typeof maxFailedIndexes === 'number' && maxFailedIndexes > completions) {
    errs.push(
      invalidShown(`${path}.maxFailedIndexes`, goScalar(maxFailedIndexes), 'must be less than or equal to completions'),
    );
  }
  if (typeof maxFailedIndexes === 'number' && maxFailedIndexes > MAX_FAILED_INDEXES) {
    errs.push(
      invalidShown(
        `${path}.maxFailedIndexes`,
        goScalar(maxFailedIndexes),
        `must be less than or equal to ${MAX_FAILED_INDEXES}`,
      ),
    );
  }
  if (typeof completions === 'number' && completions > COMPLETIONS_SOFT_LIMIT && set(backoffLimitPerIndex)) {
    const high = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
    if (!set(maxFailedIndexes)) {
      errs.push(
        fieldErrors.required(
          `${path}.maxFailedIndexes`,
          `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`,
        ),
      );
    }
    if (typeof parallelism === 'number' && parallelism > PARALLELISM_LIMIT_HIGH_COMPLETIONS) {
      errs.push(
        invalidShown(
          `${path}.parallelism`,
          goScalar(parallelism),
          `must be less than or equal to ${PARALLELISM_LIMIT_HIGH_COMPLETIONS} ${high}`,
        ),
      );
    }
    if (typeof maxFailedIndexes === 'number' && maxFailedIndexes > MAX_FAILED_INDEXES_HIGH_COMPLETIONS) {
      errs.push(
        invalidShown(
          `${path}.maxFailedIndexes`,
          goScalar(maxFailedIndexes),
          `must be less than or equal to ${MAX_FAILED_INDEXES_HIGH_COMPLETIONS} ${high}`,
        ),
      );
    }
  }
  return errs;
}

/** kube's `validateJobSpec` (no selector rules) of a Job spec at `path`. */
export function validateJobSpecCore(spec: Obj, path: string, pod: PodTemplateRules, oldTemplate?: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of [
    'parallelism',
    'completions',
    'activeDeadlineSeconds',
    'backoffLimit',
    'ttlSecondsAfterFinished',
    'backoffLimitPerIndex',
  ]) {
    errs.push(...validateNonnegative(spec[f], `${path}.${f}`));
  }
  if (set(spec.maxFailedIndexes)) {
    errs.push(...validateNonnegative(spec.maxFailedIndexes, `${path}.maxFailedIndexes`));
    if (!set(spec.backoffLimitPerIndex))
      errs.push(fieldErrors.required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (typeof spec.managedBy === 'string') {
    errs.push(...validateDomainPrefixedPath(spec.managedBy, `${path}.managedBy`));
    if (spec.managedBy.length > 63) errs.push(fieldErrors.tooLong(`${path}.managedBy`, 63));
  }
  const mode = spec.completionMode;
  if (set(mode)) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') {
      errs.push(notSupportedShown(`${path}.completionMode`, goScalar(mode), ['NonIndexed', 'Indexed']));
    }
    if (mode === 'Indexed') errs.push(...validateIndexedMode(spec, path));
  }
  if (!set(mode) || mode === 'NonIndexed') {
    if (set(spec.backoffLimitPerIndex)) {
      errs.push(
        invalidShown(
          `${path}.backoffLimitPerIndex`,
          goScalar(spec.backoffLimitPerIndex),
          'requires indexed completion mode',
        ),
      );
    }
    if (set(spec.maxFailedIndexes)) {
      errs.push(
        invalidShown(`${path}.maxFailedIndexes`, goScalar(spec.maxFailedIndexes), 'requires indexed completion mode'),
      );
    }
  }
  if (isPlainObject(spec.podFailurePolicy)) errs.push(...validatePodFailurePolicy(spec, `${path}.podFailurePolicy`));
  if (isPlainObject(spec.successPolicy)) {
    if (mode !== 'Indexed') {
      errs.push(invalidShown(`${path}.successPolicy`, 'batch.SuccessPolicy{...}', 'requires indexed completion mode'));
    } else errs.push(...validateSuccessPolicy(spec, `${path}.successPolicy`));
  }
  errs.push(...validatePodReplacementPolicy(spec, `${path}.podReplacementPolicy`));
  const template = obj(spec.template);
  errs.push(...pod.validateTemplate(template, `${path}.template`, oldTemplate));
  const policy = podSpecOf(template).restartPolicy;
  const policyPath = `${path}.template.spec.restartPolicy`;
  if (policy === 'Always' || !policy) {
    errs.push(fieldErrors.required(policyPath, 'valid values: "OnFailure", "Never"'));
  } else if (policy !== 'OnFailure' && policy !== 'Never') {
    errs.push(notSupportedShown(policyPath, goScalar(policy), ['OnFailure', 'Never']));
  } else if (isPlainObject(spec.podFailurePolicy) && policy !== 'Never') {
    errs.push(
      invalidShown(policyPath, goScalar(policy), 'only "Never" is supported when podFailurePolicy is specified'),
    );
  }
  return errs;
}

/** `ValidateJobSpec`: the core rules, then a required, valid selector that matches the template. */
export function validateJobSpec(
  spec: Obj,
  pod: PodTemplateRules,
  opts: { allowInvalidLabelValueInSelector?: boolean; oldTemplate?: Obj } = {},
): FieldError[] {
  const errs = validateJobSpecCore(spec, 'spec', pod, opts.oldTemplate);
  if (!set(spec.selector)) errs.push(fieldErrors.required('spec.selector'));
  else {
    errs.push(
      ...validateLabelSelector(spec.selector as LabelSelectorObject, 'spec.selector', {
        allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector,
      }),
    );
  }
  const selector = selectorOf(spec.selector);
  if (selector)
    errs.push(...validateSelectorMatchesTemplate(selector, obj(obj(spec.template).metadata).labels, 'spec.template'));
  return errs;
}

/** kube's `ValidateHasLabel` of the template. */
function validateHasLabel(labels: Obj | undefined, key: string, want: string): FieldError[] {
  const path = `spec.template.metadata.labels[${key}]`;
  const value = labels?.[key];
  if (value === undefined) return [fieldErrors.required(path, `must be '${want}'`)];
  return value === want ? [] : [invalidShown(path, goStringMap(labels), `must be '${want}'`)];
}

/** `validateGeneratedSelector`: a generated selector selects exactly the labels generated for the Job. */
export function validateGeneratedSelector(job: Job, labels: JobLabels, requirePrefixedLabels: boolean): FieldError[] {
  const spec = obj(job.spec);
  if (spec.manualSelector === true || !set(spec.selector)) return [];
  const errs: FieldError[] = [];
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  if (!uid) errs.push(fieldErrors.required('metadata.uid'));
  const meta = obj(obj(spec.template).metadata);
  const tl = isPlainObject(meta.labels) ? meta.labels : undefined;
  errs.push(...validateHasLabel(tl, LEGACY_CONTROLLER_UID_LABEL, uid));
  errs.push(...validateHasLabel(tl, LEGACY_JOB_NAME_LABEL, name));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errs.push(...validateHasLabel(tl, labels.controllerUid, uid));
    errs.push(...validateHasLabel(tl, labels.jobName, name));
    expected[labels.controllerUid] = uid;
    expected[labels.jobName] = name;
  }
  expected[LEGACY_CONTROLLER_UID_LABEL] = uid;
  expected[LEGACY_JOB_NAME_LABEL] = name;
  const selector = selectorOf(spec.selector);
  if (selector && !matchesLabels(selector, expected)) {
    errs.push(invalidShown('spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'));
  }
  return errs;
}

/** `ValidateJob` beyond metadata. */
export function validateJob(job: Job, labels: JobLabels, pod: PodTemplateRules): FieldError[] {
  const spec = obj(job.spec);
  const errs = [...validateGeneratedSelector(job, labels, true), ...validateJobSpec(spec, pod)];
  errs.push(...validateIndexedHostname(job));
  return errs;
}

function validateIndexedHostname(job: Job): FieldError[] {
  const spec = obj(job.spec);
  if (spec.completionMode !== 'Indexed' || typeof spec.completions !== 'number' || spec.completions <= 0) return [];
  const name = job.metadata.name ?? '';
  const hostname = `${name}-${spec.completions - 1}`;
  return isDNS1123Label(hostname).length > 0
    ? [invalidShown('metadata.name', goScalar(name), `will not able to create pod with invalid DNS label: ${hostname}`)]
    : [];
}

function hasInvalidSelectorValue(selector: unknown): boolean {
  if (!isPlainObject(selector)) return false;
  return validateLabelSelector(selector as LabelSelectorObject, 's').some((e) => /\.values\[\d+\]$/.test(e.field));
}

/** The template parts a suspended Job that never started may change (kube's mutable scheduling directives). */
function withMutableDirectives(oldTemplate: Obj, template: Obj): Obj {
  const copy = structuredClone(oldTemplate);
  const spec = obj(template.spec);
  const oldSpec = { ...obj(copy.spec) };
  const affinity = spec.affinity;
  if (!isPlainObject(affinity) && isPlainObject(oldSpec.affinity)) {
    const rest = { ...oldSpec.affinity };
    delete rest.nodeAffinity;
    if (Object.keys(rest).length === 0) delete oldSpec.affinity;
    else oldSpec.affinity = rest;
  } else if (isPlainObject(affinity)) {
    const base = isPlainObject(oldSpec.affinity) ? { ...oldSpec.affinity } : {};
    if (affinity.nodeAffinity !== undefined) base.nodeAffinity = affinity.nodeAffinity;
    else delete base.nodeAffinity;
    oldSpec.affinity = base;
  }
  for (const f of ['nodeSelector', 'tolerations', 'schedulingGates']) {
    if (spec[f] === undefined) delete oldSpec[f];
    else oldSpec[f] = spec[f];
  }
  const meta = { ...obj(copy.metadata) };
  const newMeta = obj(template.metadata);
  for (const f of ['annotations', 'labels']) {
    if (newMeta[f] === undefined) delete meta[f];
    else meta[f] = newMeta[f];
  }
  return { ...copy, metadata: meta, spec: oldSpec };
}

/** The update rules of a Job beyond `ValidateJob` (`ValidateJobUpdate` without metadata). */
export function validateJobUpdate(job: Job, old: Job, labels: JobLabels, pod: PodTemplateRules): FieldError[] {
  const spec = obj(job.spec);
  const oldSpec = obj(old.spec);
  const oldTemplateLabels = obj(obj(obj(oldSpec.template).metadata).labels);
  const requirePrefixed = labels.jobName in oldTemplateLabels && labels.controllerUid in oldTemplateLabels;
  const errs = [
    ...validateGeneratedSelector(job, labels, requirePrefixed),
    ...validateJobSpec(spec, pod, {
      allowInvalidLabelValueInSelector: hasInvalidSelectorValue(oldSpec.selector),
      oldTemplate: obj(oldSpec.template),
    }),
    ...validateIndexedHostname(job),
  ];
  // Elastic Indexed Jobs (GA): completions change only together with parallelism.
  if (!jsonEqual(spec.completions ?? null, oldSpec.completions ?? null)) {
    if (spec.completionMode !== 'Indexed') {
      errs.push(...validateImmutableField(spec.completions ?? null, oldSpec.completions ?? null, 'spec.completions'));
    } else if (set(spec.completions) && spec.completions !== spec.parallelism) {
      errs.push(
        invalidShown(
          'spec.completions',
          goScalar(spec.completions),
          'can only be modified in tandem with spec.parallelism',
        ),
      );
    }
  }
  errs.push(...validateImmutableSelector(spec.selector, oldSpec.selector, 'spec.selector'));
  const suspended = oldSpec.suspend === true;
  const notStarted = !set(obj(old.status).startTime);
  const oldTemplate = obj(oldSpec.template);
  const template = obj(spec.template);
  const compareTo = suspended && notStarted ? withMutableDirectives(oldTemplate, template) : oldTemplate;
  if (!jsonEqual(template, compareTo)) errs.push(fieldErrors.invalid('spec.template', template, FIELD_IMMUTABLE));
  for (const f of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy']) {
    errs.push(...validateImmutableField(spec[f] ?? null, oldSpec[f] ?? null, `spec.${f}`));
  }
  return errs;
}
