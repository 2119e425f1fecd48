/**
 * kube's printer columns of Pod and PodTemplate (`pkg/printers/internalversion/printers.go`).
 */
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { AGE_COLUMN, column, NAME_COLUMN, objectName, valueAt } from '../table/column-helpers.js';
import { timestampMillis, translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';
import { fieldDoc } from './column-docs.js';
import type { Container, ContainerStatus, Pod, PodCondition, PodTemplate } from './pod-types.js';

function age(obj: ApiObject, now: Date): string {
  return translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now);
}

const isRestartable = (c: Container | undefined): boolean => c?.restartPolicy === 'Always';

/** The later of two timestamps (undefined is Go's zero time). */
function later(a: string | undefined, b: string | undefined): string | undefined {
  const ta = timestampMillis(a);
  const tb = timestampMillis(b);
  if (tb === undefined) return a;
  if (ta === undefined || ta < tb) return b;
  return a;
}

function terminatedReason(t: { exitCode?: number; signal?: number; reason?: string }, prefix: string): string {
  if (t.reason) return `${prefix}${t.reason}`;
  return t.signal ? `${prefix}Signal:${t.signal}` : `${prefix}ExitCode:${t.exitCode ?? 0}`;
}

function hasCondition(conditions: readonly PodCondition[] | undefined, type: string): boolean {
  return (conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

interface PodSummary {
  ready: string;
  reason: string;
  restarts: string;
}

/** kube's `printPod` status logic: ready count, aggregate reason, restarts with the last one's age. */
export function summarizePod(pod: Pod, now: Date): PodSummary {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  let restarts = 0;
  let sidecarRestarts = 0;
  let total = (spec.containers ?? []).length;
  let ready = 0;
  let lastRestart: string | undefined;
  let lastSidecarRestart: string | undefined;
  let reason = status.reason || status.phase || '';
  if ((status.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) {
    reason = 'SchedulingGated';
  }
  const initContainers = new Map((spec.initContainers ?? []).map((c) => [c.name, c]));
  for (const c of spec.initContainers ?? []) if (isRestartable(c)) total++;

  let initializing = false;
  const initStatuses: ContainerStatus[] = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i];
    restarts += cs.restartCount ?? 0;
    const finished = cs.lastState?.terminated?.finishedAt;
    if (cs.lastState?.terminated) lastRestart = later(lastRestart, finished);
    const restartable = isRestartable(initContainers.get(cs.name));
    if (restartable) {
      sidecarRestarts += cs.restartCount ?? 0;
      if (cs.lastState?.terminated) lastSidecarRestart = later(lastSidecarRestart, finished);
    }
    const term = cs.state?.terminated;
    const waiting = cs.state?.waiting;
    if (term && (term.exitCode ?? 0) === 0) continue;
    if (restartable && cs.started === true) {
      if (cs.ready) ready++;
      continue;
    }
    if (term) reason = terminatedReason(term, 'Init:');
    else if (waiting?.reason && waiting.reason !== 'PodInitializing') reason = `Init:${waiting.reason}`;
    else reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    initializing = true;
    break;
  }

  if (!initializing || hasCondition(status.conditions, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i];
      restarts += cs.restartCount ?? 0;
      if (cs.lastState?.terminated) lastRestart = later(lastRestart, cs.lastState.terminated.finishedAt);
      const waiting = cs.state?.waiting;
      const term = cs.state?.terminated;
      if (waiting?.reason) reason = waiting.reason;
      else if (term) reason = terminatedReason(term, '');
      else if (cs.ready && cs.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning)
      reason = hasCondition(status.conditions, 'Ready') ? 'Running' : 'NotReady';
  }

  const terminal = status.phase === 'Failed' || status.phase === 'Succeeded';
  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && !terminal) reason = 'Terminating';

  let restartsCell = String(restarts);
  if (restarts !== 0 && timestampMillis(lastRestart) !== undefined) {
    restartsCell = `${restarts} (${translateTimestampSince(lastRestart, now)} ago)`;
  }
  return { ready: `${ready}/${total}`, reason, restarts: restartsCell };
}

function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  const trueCount = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${trueCount}/${gates.length}`;
}

/**
 * Pod: `Name`, `Ready` (`ready/total`), `Status` (the aggregate reason), `Restarts` (with the
 * last restart's age), `Age`, and the wide `IP`, `Node`, `Nominated Node`, `Readiness Gates`.
 */
export function podTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Ready', 'string', 'Ready containers out of all containers of the pod.'),
      column('Status', 'string', 'A short summary of the state of the pod and its containers.'),
      column('Restarts', 'string', 'Container restarts in the pod, and how long ago the last one was.'),
      AGE_COLUMN,
      column('IP', 'string', fieldDoc(schema, ['status', 'podIP']), { priority: 1 }),
      column('Node', 'string', fieldDoc(schema, ['spec', 'nodeName']), { priority: 1 }),
      column('Nominated Node', 'string', fieldDoc(schema, ['status', 'nominatedNodeName']), { priority: 1 }),
      column('Readiness Gates', 'string', fieldDoc(schema, ['spec', 'readinessGates']), { priority: 1 }),
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const pod = obj as Pod;
      const s = summarizePod(pod, now);
      const ip = pod.status?.podIPs?.[0]?.ip || pod.status?.podIP || '<none>';
      return [
        objectName(obj),
        s.ready,
        s.reason,
        s.restarts,
        age(obj, now),
        ip,
        pod.spec?.nodeName || '<none>',
        pod.status?.nominatedNodeName || '<none>',
        readinessGates(pod),
      ];
    },
  });
}

/** kube's `layoutContainerCells`: names and images joined with `,`. */
export function containerCells(containers: readonly Container[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name ?? '').join(','), list.map((c) => c.image ?? '').join(',')];
}

/** kube's `labels.FormatLabels`: `k=v` sorted by key and joined with `,`, or `<none>`. */
export function formatLabels(labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels?.[k]}`).join(',');
}

/** PodTemplate: `Name`, `Containers`, `Images`, `Pod Labels`. */
export function podTemplateTableColumns(): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Containers', 'string', 'The container names of the pod template.'),
      column('Images', 'string', 'The container images of the pod template.'),
      column('Pod Labels', 'string', 'The labels the pod template gives its pods.'),
    ]),
    cells: (obj: ApiObject) => {
      const t = obj as PodTemplate;
      const [names, images] = containerCells(t.template?.spec?.containers);
      return [objectName(obj), names, images, formatLabels(t.template?.metadata?.labels)];
    },
  });
}
