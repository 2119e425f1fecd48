import type { ApiDomain } from '../../apis/api-domain.js';
import type { IntOrString, PodTemplateSpec } from '../../apis/core/pod-types.js';
import { timeMs } from '../controller-support.js';
import {
  type Deployment,
  type DeploymentCondition,
  type DeploymentNames,
  type DeploymentStatus,
  POD_TEMPLATE_HASH,
  type ReplicaSet,
  ROLLBACK_TO,
} from './deployment-types.js';
import { canonicalJson } from './pod-template-hash.js';

/** The annotation names of `domain` (`deployment.kubernetes.io/...` under `k8s.io`). */
export function deploymentNames(domain: ApiDomain): DeploymentNames {
  const revision = domain.key('deployment', 'revision');
  const revisionHistory = domain.key('deployment', 'revision-history');
  const desiredReplicas = domain.key('deployment', 'desired-replicas');
  const maxReplicas = domain.key('deployment', 'max-replicas');
  return {
    revision,
    revisionHistory,
    desiredReplicas,
    maxReplicas,
    skipCopy: new Set([
      domain.key('kubectl', 'last-applied-configuration'),
      revision,
      revisionHistory,
      desiredReplicas,
      maxReplicas,
      ROLLBACK_TO,
    ]),
  };
}

/** `spec.replicas` (1 when unset). */
export function replicasOf(o: { spec?: { replicas?: number } }): number {
  return o.spec?.replicas ?? 1;
}

/** kube's `GetScaledValueFromIntOrPercent`: an int, or a percentage of `total` rounded up or down. */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return Number.isNaN(Number(v)) ? 0 : Number(v);
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

function isRollingUpdate(d: Deployment): boolean {
  return d.spec.strategy?.type !== 'Recreate';
}

/** kube's `ResolveFenceposts`: surge rounded up, unavailable down; both 0 → unavailable 1. */
export function resolveFenceposts(d: Deployment): { surge: number; unavailable: number } {
  const desired = replicasOf(d);
  const ru = d.spec.strategy?.rollingUpdate ?? {};
  const surge = scaledValue(ru.maxSurge, desired, true);
  let unavailable = scaledValue(ru.maxUnavailable, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** kube's `MaxSurge`: 0 unless RollingUpdate. */
export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? resolveFenceposts(d).surge : 0;
}

/** kube's `MaxUnavailable`: 0 unless RollingUpdate with replicas; at most `spec.replicas`. */
export function maxUnavailable(d: Deployment): number {
  if (!isRollingUpdate(d) || replicasOf(d) === 0) return 0;
  return Math.min(resolveFenceposts(d).unavailable, replicasOf(d));
}

/** The revision annotation of an object (0 when absent; NaN when unreadable). */
export function revisionOf(
  obj: { metadata: { annotations?: Record<string, string> } },
  names: DeploymentNames,
): number {
  const v = obj.metadata.annotations?.[names.revision];
  if (v === undefined) return 0;
  return /^-?\d+$/.test(v) ? Number(v) : Number.NaN;
}

/** kube's `MaxRevision`: the highest readable revision. */
export function maxRevision(rss: readonly ReplicaSet[], names: DeploymentNames): number {
  let max = 0;
  for (const rs of rss) {
    const v = revisionOf(rs, names);
    if (v > max) max = v;
  }
  return max;
}

/** kube's `LastRevision`: the second highest revision. */
export function lastRevision(rss: readonly ReplicaSet[], names: DeploymentNames): number {
  let max = 0;
  let second = 0;
  for (const rs of rss) {
    const v = revisionOf(rs, names);
    if (Number.isNaN(v)) continue;
    if (v >= max) {
      second = max;
      max = v;
    } else if (v > second) second = v;
  }
  return second;
}

/** Drops nulls and empty objects and arrays (Go's semantic equality treats nil and empty alike). */
function normalized(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(normalized);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const n = normalized(x);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v === null ? undefined : v;
}

/** A template without the `pod-template-hash` label. */
export function withoutHash(t: PodTemplateSpec | undefined): PodTemplateSpec {
  const copy = structuredClone(t ?? {});
  if (copy.metadata?.labels) {
    delete copy.metadata.labels[POD_TEMPLATE_HASH];
  }
  return copy;
}

/** kube's `EqualIgnoreHash`: the templates are equal but for the `pod-template-hash` label. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  return canonicalJson(normalized(withoutHash(a)) ?? {}) === canonicalJson(normalized(withoutHash(b)) ?? {});
}

/** Creation time, then name (kube's `ReplicaSetsByCreationTimestamp`), oldest first. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const ta = timeMs(a.metadata.creationTimestamp) ?? 0;
  const tb = timeMs(b.metadata.creationTimestamp) ?? 0;
  if (ta !== tb) return ta - tb;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

/** kube's `FindNewReplicaSet`: the oldest ReplicaSet whose template equals the Deployment's. */
export function findNewReplicaSet(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
}

/** `spec.replicas` of each, summed. */
export function specReplicas(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + (rs ? replicasOf(rs) : 0), 0);
}

/** A status count of each, summed. */
export function statusCount(
  rss: readonly (ReplicaSet | undefined)[],
  field: 'replicas' | 'readyReplicas' | 'availableReplicas',
): number {
  return rss.reduce((n, rs) => n + (rs?.status?.[field] ?? 0), 0);
}

/** kube's `FilterActiveReplicaSets`: those with `spec.replicas` > 0. */
export function activeReplicaSets(rss: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return rss.filter((rs): rs is ReplicaSet => rs !== undefined && replicasOf(rs) > 0);
}

/** kube's `NewRSNewReplicas`: the size the new ReplicaSet may grow to now. */
export function newRSNewReplicas(d: Deployment, all: readonly ReplicaSet[], newRS: ReplicaSet): number {
  if (!isRollingUpdate(d)) return replicasOf(d);
  const current = replicasOf(newRS);
  const maxTotal = replicasOf(d) + maxSurge(d);
  const total = specReplicas(all);
  if (total >= maxTotal) return current;
  const up = Math.min(maxTotal - total, replicasOf(d) - current);
  return current + Math.max(0, up);
}

/** kube's `IsSaturated`: the ReplicaSet has all the Deployment's replicas, available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined, names: DeploymentNames): boolean {
  if (!rs) return false;
  const desired = rs.metadata.annotations?.[names.desiredReplicas];
  return (
    desired === String(replicasOf(d)) &&
    (rs.status?.availableReplicas ?? 0) === replicasOf(d) &&
    replicasOf(rs) === replicasOf(d)
  );
}

/** `progressDeadlineSeconds` is set and not MaxInt32 (no deadline). */
export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec.progressDeadlineSeconds;
  return s !== undefined && s !== 2147483647;
}

export function getCondition(s: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined {
  return s?.conditions?.find((c) => c.type === type);
}

/**
 * kube's `SetDeploymentCondition`: unchanged when status and reason are the same; the
 * transition time is kept while the status stays.
 */
export function setCondition(s: DeploymentStatus, c: DeploymentCondition): void {
  const cur = getCondition(s, c.type);
  if (cur && cur.status === c.status && cur.reason === c.reason) return;
  const next = { ...c };
  if (cur && cur.status === c.status) next.lastTransitionTime = cur.lastTransitionTime;
  s.conditions = [...(s.conditions ?? []).filter((x) => x.type !== c.type), next];
}

export function removeCondition(s: DeploymentStatus, type: string): void {
  s.conditions = (s.conditions ?? []).filter((c) => c.type !== type);
}

/** A condition stamped now (update and transition time). */
export function newCondition(
  type: string,
  status: string,
  reason: string,
  message: string,
  now: string,
): DeploymentCondition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}
