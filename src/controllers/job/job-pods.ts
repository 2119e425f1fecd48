/**
 * What the Job controller reads from and writes into pods, as kube-controller-manager v1.32's
 * job controller does: which pods are active, finished, failed or terminating, their completion
 * index and finish time, and the pod a Job's template makes (tracking finalizer, controller
 * reference, index annotation, label, hostname and `JOB_COMPLETION_INDEX`).
 */
import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject, OwnerReference } from '../../apis/object.js';
import { controllerRefOfKind, newControllerRef, timeMs } from '../controller-support.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The names the Job controller writes, from the domain profile. */
export interface JobNames {
  /** The pod finalizer counting is tracked with: `batch.<domain>/job-tracking`. */
  readonly trackingFinalizer: string;
  /** Annotation and label with a pod's completion index: `batch.<domain>/job-completion-index`. */
  readonly completionIndex: string;
}

export function jobNames(domain: ApiDomain): JobNames {
  return {
    trackingFinalizer: domain.key('batch', 'job-tracking'),
    completionIndex: domain.key('batch', 'job-completion-index'),
  };
}

export function podPhase(pod: ApiObject): string {
  return String(obj(pod.status).phase ?? '');
}

export function isTerminated(pod: ApiObject): boolean {
  const phase = podPhase(pod);
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Neither finished nor being deleted (kube's `FilterActivePods`). */
export function isActive(pod: ApiObject): boolean {
  return !isTerminated(pod) && !pod.metadata.deletionTimestamp;
}

/** Being deleted and not finished (kube's `CountTerminatingPods`). */
export function isTerminating(pod: ApiObject): boolean {
  return !!pod.metadata.deletionTimestamp && !isTerminated(pod);
}

export function isReady(pod: ApiObject): boolean {
  return list(obj(pod.status).conditions).some((c) => obj(c).type === 'Ready' && obj(c).status === 'True');
}

export function hasFinalizer(pod: ApiObject, finalizer: string): boolean {
  return (pod.metadata.finalizers ?? []).includes(finalizer);
}

/** Only Failed pods are replaced (`podReplacementPolicy: Failed`, or a pod failure policy). */
export function onlyReplaceFailedPods(spec: Obj): boolean {
  return spec.podReplacementPolicy === 'Failed' || isObj(spec.podFailurePolicy);
}

function isObj(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * kube's `isPodFailed`: phase Failed, or (unless only failed pods are replaced) deleted before
 * it succeeded, so orphaned pods that never reach Failed still count.
 */
export function isPodFailed(pod: ApiObject, spec: Obj): boolean {
  if (podPhase(pod) === 'Failed') return true;
  if (onlyReplaceFailedPods(spec)) return false;
  return !!pod.metadata.deletionTimestamp && podPhase(pod) !== 'Succeeded';
}

/** The completion index of a pod from its annotation, or undefined when missing or malformed. */
export function completionIndex(pod: ApiObject, names: JobNames): number | undefined {
  const v = pod.metadata.annotations?.[names.completionIndex];
  if (v === undefined || !/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * When a pod finished (kube's `getFinishedTime`): the latest container termination, else the
 * time Ready turned False, else its deletion time, else its creation time (no node agent).
 */
export function finishedTimeMs(pod: ApiObject): number {
  const status = obj(pod.status);
  let latest: number | undefined;
  for (const cs of [...list(status.containerStatuses), ...list(status.initContainerStatuses)]) {
    const t = timeMs(obj(obj(obj(cs).state).terminated).finishedAt);
    if (t !== undefined && (latest === undefined || t > latest)) latest = t;
  }
  if (latest !== undefined) return latest;
  for (const c of list(status.conditions)) {
    const cond = obj(c);
    const t = cond.type === 'Ready' && cond.status === 'False' ? timeMs(cond.lastTransitionTime) : undefined;
    if (t !== undefined) return t;
  }
  for (const v of [pod.metadata.deletionTimestamp, pod.metadata.creationTimestamp]) {
    const t = timeMs(v);
    if (t !== undefined) return t;
  }
  return 0;
}

/** The environment variable an Indexed Job's containers read their index from. */
const INDEX_ENV = 'JOB_COMPLETION_INDEX';

function withIndexEnv(containers: unknown, annotation: string): unknown {
  if (!Array.isArray(containers)) return containers;
  return containers.map((c) => {
    const container = obj(c);
    const env = list(container.env);
    if (env.some((e) => obj(e).name === INDEX_ENV)) return container;
    const ref = { name: INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${annotation}']` } } };
    return { ...container, env: [...env, ref] };
  });
}

/**
 * The pod a Job's template makes: in the Job's namespace, named `<job>-` (`<job>-<index>-` when
 * Indexed) plus a generated suffix, controlled by the Job, carrying the tracking finalizer; an
 * Indexed Job's pod also gets the index annotation and label, hostname `<job>-<index>` (unless
 * the template names one) and `JOB_COMPLETION_INDEX` in every container.
 */
export function newJobPod(job: ApiObject, names: JobNames, index?: number): ApiObject {
  const spec = obj(job.spec);
  const template = structuredClone(obj(spec.template));
  const meta = obj(template.metadata);
  const podSpec = obj(template.spec);
  const jobName = job.metadata.name ?? '';
  const labels = { ...(obj(meta.labels) as Record<string, string>) };
  const annotations = { ...(obj(meta.annotations) as Record<string, string>) };
  let generateName = `${jobName}-`;
  if (index !== undefined) {
    annotations[names.completionIndex] = String(index);
    labels[names.completionIndex] = String(index);
    generateName = `${jobName}-${index}-`;
    if (!podSpec.hostname) podSpec.hostname = `${jobName}-${index}`;
    podSpec.containers = withIndexEnv(podSpec.containers, names.completionIndex);
    if (podSpec.initContainers !== undefined)
      podSpec.initContainers = withIndexEnv(podSpec.initContainers, names.completionIndex);
  }
  const finalizers = list(meta.finalizers).filter((f): f is string => typeof f === 'string');
  if (!finalizers.includes(names.trackingFinalizer)) finalizers.push(names.trackingFinalizer);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName,
      namespace: job.metadata.namespace,
      labels,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      finalizers,
      ownerReferences: [newControllerRef(job, 'batch/v1', 'Job')],
    },
    spec: podSpec,
  };
}

/** The uid of the pod's controlling Job, if a Job controls it. */
export function controllingJob(pod: ApiObject): OwnerReference | undefined {
  return controllerRefOfKind(pod, 'batch', 'Job');
}
