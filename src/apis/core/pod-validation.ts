/**
 * kube's Pod validation beyond metadata (v1.32 `ValidatePodCreate`, `ValidatePodUpdate`,
 * `ValidatePodStatusUpdate`, `ValidatePodEphemeralContainersUpdate`).
 */
import { deepEqual } from '../../util/deep-equal.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { FIELD_IMMUTABLE } from '../meta/object-meta-validation.js';
import { keyPath } from '../schema/field-path.js';
import { cloneJson } from '../schema/json-value.js';
import { validateContainerOnlyForPod } from './container-validation.js';
import { type PodSpecValidationOptions, validatePodSpec } from './pod-spec-validation.js';
import type { Container, Pod, PodSpec, Toleration } from './pod-types.js';
import { validateTolerations } from './scheduling-validation.js';
import { inclusiveRangeError, isValidIP } from './value-formats.js';

/** Annotation marking a kubelet's static (mirror) pod. */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** Annotation ranking pods for scale-down. */
export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

const MAX_INT32 = 2147483647;

/** kube's `updatablePodSpecFields`, joined as in the error message. */
const UPDATABLE_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
].join(',');

function validatePodAnnotations(pod: Pod, allowInvalidDeletionCost: boolean): FieldError[] {
  const annotations = pod.metadata.annotations ?? {};
  const path = 'metadata.annotations';
  const errs: FieldError[] = [];
  if (Object.hasOwn(annotations, MIRROR_POD_ANNOTATION) && !pod.spec?.nodeName) {
    errs.push(
      fieldErrors.invalid(
        keyPath(path, MIRROR_POD_ANNOTATION),
        annotations[MIRROR_POD_ANNOTATION],
        'must set spec.nodeName if mirror pod annotation is set',
      ),
    );
  }
  const cost = annotations[POD_DELETION_COST_ANNOTATION];
  if (!allowInvalidDeletionCost && cost !== undefined) {
    const n = /^[+-]?\d+$/.test(cost) ? Number(cost) : Number.NaN;
    if (!(n >= -2147483648 && n <= MAX_INT32)) {
      errs.push(fieldErrors.invalid(keyPath(path, POD_DELETION_COST_ANNOTATION), cost, 'must be a 32bit integer'));
    }
  }
  return errs;
}

/** Pod-only rules of `validatePodMetadataAndSpec` (the spec, tokens, image whitespace). */
function validatePodMetadataAndSpec(
  pod: Pod,
  options: PodSpecValidationOptions,
  allowInvalidDeletionCost = false,
): FieldError[] {
  const spec = pod.spec ?? {};
  const errs = [
    ...validatePodAnnotations(pod, allowInvalidDeletionCost),
    ...validatePodSpec(spec, 'spec', { ...options, resourceIsPod: true }),
  ];
  if (!spec.serviceAccountName) {
    (spec.volumes ?? []).forEach((v, vi) => {
      const projected = v.projected as { sources?: Record<string, unknown>[] } | undefined;
      (projected?.sources ?? []).forEach((s, si) => {
        if (s.serviceAccountToken) {
          errs.push(
            fieldErrors.forbidden(
              `spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`,
              'must not be specified when serviceAccountName is not set',
            ),
          );
        }
      });
    });
  }
  for (const field of ['containers', 'initContainers'] as const) {
    spec[field]?.forEach((c, i) => {
      // Most images have no surrounding whitespace: their path is not written.
      const image = c.image ?? '';
      if (image !== image.trim()) errs.push(...validateContainerOnlyForPod(c, `spec.${field}[${i}]`));
    });
  }
  return errs;
}

/** kube's `ValidatePodCreate` (metadata excluded). */
export function validatePodCreate(pod: Pod, options: PodSpecValidationOptions = {}): FieldError[] {
  const spec = pod.spec ?? {};
  const errs = validatePodMetadataAndSpec(pod, options);
  if ((spec.ephemeralContainers ?? []).length > 0) {
    errs.push(fieldErrors.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  }
  if (spec.nodeName && (spec.schedulingGates ?? []).length > 0) {
    errs.push(fieldErrors.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

function validateContainerUpdates(
  next: readonly Container[] | undefined,
  old: readonly Container[] | undefined,
  path: string,
): { errs: FieldError[]; stop: boolean } {
  if ((next ?? []).length !== (old ?? []).length) {
    return { errs: [fieldErrors.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  }
  const errs: FieldError[] = [];
  (next ?? []).forEach((c, i) => {
    if (!c.image) errs.push(fieldErrors.required(`${path}[${i}].image`));
    if ((c.image ?? '').trim() !== (c.image ?? '')) {
      errs.push(fieldErrors.invalid(`${path}[${i}].image`, c.image, 'must not have leading or trailing whitespace'));
    }
  });
  return { errs, stop: false };
}

function withoutSeconds(t: Toleration): Toleration {
  const { tolerationSeconds: _seconds, ...rest } = t;
  return rest;
}

/** Go's field names of the PodSpec, for the diff in kube's message. */
function goFieldName(jsonName: string): string {
  return jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
}

/** A short cmp-style diff of two pod specs (kube prints `cmp.Diff` of its internal types). */
function specDiff(old: PodSpec, next: PodSpec): string {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort();
  const lines = ['  core.PodSpec{'];
  for (const k of keys) {
    const a = (old as Record<string, unknown>)[k];
    const b = (next as Record<string, unknown>)[k];
    if (deepEqual(a, b)) continue;
    if (a !== undefined) lines.push(`- \t${goFieldName(k)}: ${JSON.stringify(a)},`);
    if (b !== undefined) lines.push(`+ \t${goFieldName(k)}: ${JSON.stringify(b)},`);
  }
  lines.push('  }');
  return `${lines.join('\n')}\n`;
}

/**
 * kube's `ValidatePodUpdate` (metadata's own update rules excluded): the new pod must be valid,
 * and only images, `activeDeadlineSeconds` (set, or lowered), tolerations (added, or their
 * seconds changed), scheduling gates (removed) and a negative grace period (to 1) may change.
 */
export function validatePodUpdate(next: Pod, old: Pod, options: PodSpecValidationOptions = {}): FieldError[] {
  const oldCost = old.metadata.annotations?.[POD_DELETION_COST_ANNOTATION];
  const allowInvalidCost = oldCost !== undefined && !/^[+-]?\d+$/.test(oldCost);
  const errs = validatePodMetadataAndSpec(next, options, allowInvalidCost);
  const spec = next.spec ?? {};
  const oldSpec = old.spec ?? {};
  for (const field of ['containers', 'initContainers'] as const) {
    const r = validateContainerUpdates(spec[field], oldSpec[field], `spec.${field}`);
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  if (spec.activeDeadlineSeconds !== undefined) {
    const v = spec.activeDeadlineSeconds;
    if (v < 0 || v > MAX_INT32) {
      errs.push(fieldErrors.invalid('spec.activeDeadlineSeconds', v, inclusiveRangeError(0, MAX_INT32)));
      return errs;
    }
    if (oldSpec.activeDeadlineSeconds !== undefined && oldSpec.activeDeadlineSeconds < v) {
      errs.push(fieldErrors.invalid('spec.activeDeadlineSeconds', v, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (oldSpec.activeDeadlineSeconds !== undefined) {
    errs.push(
      fieldErrors.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'),
    );
  }
  const newTolerations = spec.tolerations ?? [];
  for (const t of oldSpec.tolerations ?? []) {
    if (!newTolerations.some((n) => deepEqual(withoutSeconds(n), withoutSeconds(t)))) {
      errs.push(
        fieldErrors.forbidden(
          'spec.tolerations',
          'existing toleration can not be modified except its tolerationSeconds',
        ),
      );
      break;
    }
  }
  errs.push(...validateTolerations(newTolerations, 'spec.tolerations'));
  const oldGates = new Set((oldSpec.schedulingGates ?? []).map((g) => g.name));
  (spec.schedulingGates ?? []).forEach((g, i) => {
    if (!oldGates.has(g.name)) {
      errs.push(
        fieldErrors.forbidden(
          `spec.schedulingGates[${i}].name`,
          `only deletion is allowed, but found new scheduling gate '${g.name}'`,
        ),
      );
    }
  });
  if (deepEqual(spec, oldSpec)) return errs;
  const munged = cloneJson(spec);
  (munged.containers ?? []).forEach((c, i) => {
    c.image = oldSpec.containers?.[i]?.image;
  });
  (munged.initContainers ?? []).forEach((c, i) => {
    c.image = oldSpec.initContainers?.[i]?.image;
  });
  for (const field of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations'] as const) {
    if (oldSpec[field] === undefined) delete munged[field];
    else (munged as Record<string, unknown>)[field] = cloneJson(oldSpec[field]);
  }
  if ((oldSpec.terminationGracePeriodSeconds ?? 0) < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds;
  }
  if (!deepEqual(munged, oldSpec)) {
    errs.push(
      fieldErrors.forbidden(
        'spec',
        `pod updates may not change fields other than ${UPDATABLE_FIELDS}\n${specDiff(oldSpec, munged)}`,
      ),
    );
  }
  return errs;
}

const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);

function validateStateTransitions(
  next: Pod['status'],
  old: Pod['status'],
  field: 'containerStatuses' | 'initContainerStatuses' | 'ephemeralContainerStatuses',
  restartPolicy: string,
  isSidecar: (name: string) => boolean,
): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  (old?.[field] ?? []).forEach((o, i) => {
    const terminated = o.state?.terminated;
    if (!terminated) return;
    if ((terminated.exitCode ?? 0) !== 0 && restartPolicy === 'OnFailure') return;
    if (isSidecar(o.name ?? '')) return;
    for (const n of next?.[field] ?? []) {
      if (n.name === o.name && !n.state?.terminated) {
        errs.push(
          fieldErrors.forbidden(`status.${field}[${i}].state`, 'may not be transitioned to non-terminated state'),
        );
      }
    }
  });
  return errs;
}

function validateIPs(list: { ip?: string }[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ips = (list ?? []).map((p) => p.ip ?? '');
  ips.forEach((ip, i) => {
    errs.push(...isValidIP(ip).map((m) => fieldErrors.invalid(`${path}[${i}]`, ip, m)));
  });
  if (ips.length > 1) {
    const families = new Set(ips.map((ip) => (ip.includes(':') ? 6 : 4)));
    if (families.size !== 2 || ips.length > 2) {
      errs.push(fieldErrors.invalid(path, list, 'may specify no more than one IP for each IP family'));
    }
    const seen = new Set<string>();
    ips.forEach((ip, i) => {
      if (seen.has(ip)) errs.push(fieldErrors.duplicate(`${path}[${i}]`, list?.[i]));
      seen.add(ip);
    });
  }
  return errs;
}

/** kube's `ValidatePodStatusUpdate` (metadata's own update rules excluded). */
export function validatePodStatusUpdate(next: Pod, old: Pod): FieldError[] {
  const errs: FieldError[] = [];
  (next.status?.conditions ?? []).forEach((c, i) => {
    if (SYSTEM_CONDITIONS.has(c.type ?? '')) return;
    const p = `metadata.conditions[${i}].Type`;
    errs.push(...isQualifiedName(c.type ?? '').map((m) => fieldErrors.invalid(p, c.type ?? '', m)));
  });
  if ((next.spec?.nodeName ?? '') !== (old.spec?.nodeName ?? '')) {
    errs.push(fieldErrors.forbidden('status.nodeName', 'may not be changed directly'));
  }
  const nominated = next.status?.nominatedNodeName ?? '';
  if (nominated && nominated !== (old.status?.nominatedNodeName ?? '')) {
    errs.push(
      ...nameIsDNSSubdomain(nominated, false).map((m) => fieldErrors.invalid('status.nominatedNodeName', nominated, m)),
    );
  }
  if ((next.status?.qosClass ?? '') !== (old.status?.qosClass ?? '')) {
    errs.push(fieldErrors.invalid('status.qosClass', next.status?.qosClass ?? '', FIELD_IMMUTABLE));
  }
  const restartPolicy = old.spec?.restartPolicy ?? '';
  const sidecars = new Set(
    (old.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  );
  errs.push(...validateStateTransitions(next.status, old.status, 'containerStatuses', restartPolicy, () => false));
  errs.push(
    ...validateStateTransitions(next.status, old.status, 'initContainerStatuses', restartPolicy, (n) =>
      sidecars.has(n),
    ),
  );
  errs.push(...validateStateTransitions(next.status, old.status, 'ephemeralContainerStatuses', 'Never', () => false));
  errs.push(...validateIPs(next.status?.podIPs, 'status.podIPs'));
  const hostIPs = next.status?.hostIPs ?? [];
  if (hostIPs.length > 0 && (next.status?.hostIP ?? '') !== (hostIPs[0].ip ?? '')) {
    errs.push(fieldErrors.invalid('status.hostIPs[0].ip', hostIPs[0].ip ?? '', 'must be equal to `hostIP`'));
  }
  errs.push(...validateIPs(hostIPs, 'status.hostIPs'));
  return errs;
}

/** kube's `ValidatePodEphemeralContainersUpdate` (metadata's own update rules excluded). */
export function validatePodEphemeralContainersUpdate(
  next: Pod,
  old: Pod,
  options: PodSpecValidationOptions = {},
): FieldError[] {
  const errs = validatePodMetadataAndSpec(next, options);
  if (Object.hasOwn(old.metadata.annotations ?? {}, MIRROR_POD_ANNOTATION)) {
    return [fieldErrors.forbidden('', 'static pods do not support ephemeral containers')];
  }
  const byName = new Map((next.spec?.ephemeralContainers ?? []).map((c) => [c.name, c]));
  for (const o of old.spec?.ephemeralContainers ?? []) {
    const n = byName.get(o.name);
    if (!n) {
      errs.push(
        fieldErrors.forbidden(
          'spec.ephemeralContainers',
          `existing ephemeral containers ${JSON.stringify(o.name)} may not be removed\n`,
        ),
      );
    } else if (!deepEqual(n, o)) {
      errs.push(
        fieldErrors.forbidden(
          'spec.ephemeralContainers',
          `existing ephemeral containers ${JSON.stringify(o.name)} may not be changed\n`,
        ),
      );
    }
  }
  return errs;
}
