import type { Pod } from '../../apis/core/pod-types.js';
import { labelSelectorFromObject } from '../../apis/selectors/index.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import { formatTime } from '../../util/clock.js';
import type { ControllerContext } from '../controller-descriptor.js';
import { controllerRefOf, errorText, isStatus, newControllerRef } from '../controller-support.js';
import { claimObjects, recheckOwner } from '../replicaset/controller-ref.js';
import {
  calculateStatus,
  deploymentComplete,
  rolloutStatus,
  statusForWrite,
  stuckRecheckDelayMs,
} from './deployment-status.js';
import {
  type Deployment,
  type DeploymentNames,
  POD_TEMPLATE_HASH,
  type ReplicaSet,
  ROLLBACK_TO,
} from './deployment-types.js';
import {
  activeReplicaSets,
  equalIgnoreHash,
  findNewReplicaSet,
  getCondition,
  hasProgressDeadline,
  lastRevision,
  maxRevision,
  maxSurge,
  newCondition,
  newRSNewReplicas,
  replicasOf,
  revisionOf,
  setCondition,
  withoutHash,
} from './deployment-util.js';
import { cleanupHistory } from './history-cleanup.js';
import { podTemplateHash } from './pod-template-hash.js';
import { scaleDeployment } from './proportional-scale.js';
import {
  replicasAnnotationsNeedUpdate,
  setDeploymentAnnotationsTo,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
} from './revision-annotations.js';
import { oldPodsRunning, reconcileNewReplicaSet, reconcileOldReplicaSets, scaleDownOldForRecreate } from './rollout.js';

/** What one sync of a Deployment needs. */
export interface DeploymentSyncDeps {
  readonly ctx: ControllerContext;
  readonly names: DeploymentNames;
  readonly deployments: ResourceClient;
  readonly replicaSets: ResourceClient;
  /** The cached ReplicaSets and pods of a namespace. */
  listReplicaSets(namespace: string): ReplicaSet[];
  listPods(namespace: string): Pod[];
  /** Checks the Deployment again after `ms` (progress deadline, minReadySeconds). */
  requeueAfter(d: Deployment, ms: number): void;
}

/** One sync of one Deployment (kube's `syncDeployment`), on a private copy of it. */
export class DeploymentSync {
  private readonly signal: AbortSignal;

  constructor(
    private readonly deps: DeploymentSyncDeps,
    private d: Deployment,
  ) {
    this.signal = deps.ctx.signal;
  }

  private now(): string {
    return formatTime(this.deps.ctx.clock.now());
  }

  async run(): Promise<void> {
    const d = this.d;
    const selector = labelSelectorFromObject(d.spec.selector);
    if (selector.empty) {
      // kube refuses to select every pod; it only acknowledges the generation.
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        await this.writeStatus({ ...(d.status ?? {}), observedGeneration: d.metadata.generation });
      }
      return;
    }
    const ns = d.metadata.namespace ?? '';
    const rsList = (await claimObjects(this.deps.listReplicaSets(ns), {
      owner: d,
      ownerRef: newControllerRef(d, 'apps/v1', 'Deployment'),
      selector,
      client: this.deps.replicaSets,
      canAdopt: () => recheckOwner(this.deps.deployments, d, this.signal),
      signal: this.signal,
    })) as ReplicaSet[];
    if (d.metadata.deletionTimestamp) return this.syncStatusOnly(rsList);
    if (await this.checkPausedConditions()) return;
    if (d.spec.paused) return this.syncScale(rsList);
    if (d.metadata.annotations?.[ROLLBACK_TO] !== undefined) return this.rollback(rsList);
    if (this.isScalingEvent(rsList)) return this.syncScale(rsList);
    if (d.spec.strategy?.type === 'Recreate') return this.rolloutRecreate(rsList);
    return this.rolloutRolling(rsList);
  }

  private oldOf(rsList: ReplicaSet[], newRS: ReplicaSet | undefined): ReplicaSet[] {
    return rsList.filter((rs) => rs.metadata.uid !== newRS?.metadata.uid);
  }

  /** kube's `getAllReplicaSetsAndSyncRevision`. */
  private async allReplicaSets(
    rsList: ReplicaSet[],
    create: boolean,
  ): Promise<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }> {
    const existing = findNewReplicaSet(this.d, rsList);
    const oldRSs = this.oldOf(rsList, existing);
    const newRS = await this.newReplicaSet(existing, oldRSs, create);
    return { newRS, oldRSs };
  }

  /** kube's `getNewReplicaSet`: the existing one brought up to date, or a new one when `create`. */
  private async newReplicaSet(
    existing: ReplicaSet | undefined,
    oldRSs: ReplicaSet[],
    create: boolean,
  ): Promise<ReplicaSet | undefined> {
    const d = this.d;
    const { names } = this.deps;
    const newRevision = maxRevision(oldRSs, names) + 1;
    if (existing) {
      let rs = structuredClone(existing);
      const annotationsChanged = setNewReplicaSetAnnotations(d, rs, newRevision, true, names);
      const minReadyChanged = (rs.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0);
      if (annotationsChanged || minReadyChanged) {
        rs.spec.minReadySeconds = d.spec.minReadySeconds;
        return (await this.deps.replicaSets.update(this.rsBody(rs), this.signal)) as ReplicaSet;
      }
      let needsUpdate = setDeploymentRevision(d, rs.metadata.annotations?.[names.revision] ?? '', names);
      const status = structuredClone(d.status ?? {});
      if (hasProgressDeadline(d) && !getCondition(status, 'Progressing')) {
        setCondition(
          status,
          newCondition(
            'Progressing',
            'True',
            'FoundNewReplicaSet',
            `Found new replica set "${rs.metadata.name}"`,
            this.now(),
          ),
        );
        needsUpdate = true;
      }
      if (needsUpdate) await this.writeStatus(status);
      rs = existing;
      return rs;
    }
    if (!create) return undefined;
    const hash = podTemplateHash(d.spec.template, d.status?.collisionCount);
    const template = structuredClone(d.spec.template ?? {});
    template.metadata ??= {};
    template.metadata.labels = { ...(template.metadata.labels ?? {}), [POD_TEMPLATE_HASH]: hash };
    const selector = structuredClone(d.spec.selector ?? {});
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH]: hash };
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')],
        labels: { ...template.metadata.labels },
      },
      spec: { replicas: 0, minReadySeconds: d.spec.minReadySeconds ?? 0, selector, template },
    };
    rs.spec.replicas = newRSNewReplicas(d, [...oldRSs, rs], rs);
    setNewReplicaSetAnnotations(d, rs, newRevision, false, names);
    let created: ReplicaSet;
    let alreadyExists = false;
    try {
      created = (await this.deps.replicaSets.create(d.metadata.namespace ?? '', rs, this.signal)) as ReplicaSet;
    } catch (e) {
      if (isStatus(e, 409)) {
        const live = (await this.deps.replicaSets.get(
          d.metadata.namespace ?? '',
          rs.metadata.name ?? '',
          this.signal,
        )) as ReplicaSet;
        if (controllerRefOf(live)?.uid === d.metadata.uid && equalIgnoreHash(d.spec.template, live.spec.template)) {
          created = live;
          alreadyExists = true;
        } else {
          // A hash collision: the next name comes from a higher collision count.
          await this.writeStatus({ ...(d.status ?? {}), collisionCount: (d.status?.collisionCount ?? 0) + 1 });
          throw e;
        }
      } else {
        const message = `Failed to create new replica set "${rs.metadata.name}": ${errorText(e)}`;
        if (hasProgressDeadline(d)) {
          const status = structuredClone(d.status ?? {});
          setCondition(status, newCondition('Progressing', 'False', 'ReplicaSetCreateError', message, this.now()));
          await this.writeStatus(status);
        }
        throw e;
      }
    }
    let needsUpdate = setDeploymentRevision(d, String(newRevision), names);
    const status = structuredClone(d.status ?? {});
    if (!alreadyExists && hasProgressDeadline(d)) {
      setCondition(
        status,
        newCondition(
          'Progressing',
          'True',
          'NewReplicaSetCreated',
          `Created new replica set "${created.metadata.name}"`,
          this.now(),
        ),
      );
      needsUpdate = true;
    }
    if (needsUpdate) await this.writeStatus(status);
    return created;
  }

  private rsBody(rs: ReplicaSet): ReplicaSet {
    return { ...rs, apiVersion: 'apps/v1', kind: 'ReplicaSet' };
  }

  /** kube's `scaleReplicaSet`: size and replica annotations; unchanged ones are not written. */
  private readonly scale = async (rs: ReplicaSet, replicas: number): Promise<ReplicaSet> => {
    const d = this.d;
    const max = replicasOf(d) + maxSurge(d);
    const sizeChanged = replicasOf(rs) !== replicas;
    if (!sizeChanged && !replicasAnnotationsNeedUpdate(rs, replicasOf(d), max, this.deps.names)) return rs;
    const copy = structuredClone(rs);
    copy.spec.replicas = replicas;
    setReplicasAnnotations(copy, replicasOf(d), max, this.deps.names);
    return (await this.deps.replicaSets.update(this.rsBody(copy), this.signal)) as ReplicaSet;
  };

  /** Writes the status (and the Deployment's annotations, which a status write keeps). */
  private async writeStatus(status: Deployment['status'] & object): Promise<void> {
    const body = { ...this.d, apiVersion: 'apps/v1', kind: 'Deployment', status: statusForWrite(status) };
    const written = (await this.deps.deployments.update(body, this.signal, { subresource: 'status' })) as Deployment;
    this.d = {
      ...this.d,
      metadata: { ...this.d.metadata, resourceVersion: written.metadata.resourceVersion },
      status: written.status,
    };
  }

  /** kube's `checkPausedConditions`; true when it wrote (the next sync continues). */
  private async checkPausedConditions(): Promise<boolean> {
    const d = this.d;
    if (!hasProgressDeadline(d)) return false;
    const cond = getCondition(d.status, 'Progressing');
    if (cond?.reason === 'ProgressDeadlineExceeded') return false;
    const paused = cond?.reason === 'DeploymentPaused';
    const status = structuredClone(d.status ?? {});
    if (d.spec.paused && !paused) {
      setCondition(
        status,
        newCondition('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', this.now()),
      );
    } else if (!d.spec.paused && paused) {
      setCondition(
        status,
        newCondition('Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed', this.now()),
      );
    } else return false;
    await this.writeStatus(status);
    return true;
  }

  private async syncStatusOnly(rsList: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.allReplicaSets(rsList, false);
    await this.syncDeploymentStatus([...oldRSs, ...(newRS ? [newRS] : [])], newRS);
  }

  /** kube's `isScalingEvent`: an active ReplicaSet's desired-replicas differs from `spec.replicas`. */
  private isScalingEvent(rsList: ReplicaSet[]): boolean {
    return activeReplicaSets(rsList).some((rs) => {
      const desired = rs.metadata.annotations?.[this.deps.names.desiredReplicas];
      return desired !== undefined && desired !== String(replicasOf(this.d));
    });
  }

  /** kube's `sync`: scaling (and cleanup when paused), then the status. */
  private async syncScale(rsList: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.allReplicaSets(rsList, false);
    await scaleDeployment(this.d, newRS, oldRSs, { scale: this.scale, names: this.deps.names });
    const fresh = this.refreshed([...oldRSs, ...(newRS ? [newRS] : [])]);
    const freshNew = newRS && fresh.find((rs) => rs.metadata.uid === newRS.metadata.uid);
    if (this.d.spec.paused) await this.cleanup(fresh.filter((rs) => rs !== freshNew));
    await this.syncDeploymentStatus(fresh, freshNew);
  }

  /** The ReplicaSets as the cache now has them (after writes), else as given. */
  private refreshed(rss: ReplicaSet[]): ReplicaSet[] {
    const cached = new Map(
      this.deps.listReplicaSets(this.d.metadata.namespace ?? '').map((rs) => [rs.metadata.uid, rs]),
    );
    return rss.map((rs) => cached.get(rs.metadata.uid) ?? rs);
  }

  private async syncDeploymentStatus(all: ReplicaSet[], newRS: ReplicaSet | undefined): Promise<void> {
    // `sync` writes the counts and Available only (kube's calculateStatus).
    await this.writeIfChanged(calculateStatus(all, newRS, this.d, this.now()));
  }

  private async writeIfChanged(s: Deployment['status'] & object): Promise<boolean> {
    const next = statusForWrite(s);
    if (JSON.stringify(next) === JSON.stringify(statusForWrite(this.d.status ?? {}))) return false;
    await this.writeStatus(next);
    return true;
  }

  /** kube's `syncRolloutStatus`: the status with the progress conditions; rechecks before the deadline. */
  private async syncRolloutStatus(all: ReplicaSet[], newRS: ReplicaSet | undefined): Promise<void> {
    const nowMs = this.deps.ctx.clock.now().getTime();
    const s = rolloutStatus(all, newRS, this.d, { now: this.now(), nowMs });
    if (!(await this.writeIfChanged(s))) {
      const delay = stuckRecheckDelayMs(this.d, s, nowMs);
      if (delay !== undefined) this.deps.requeueAfter(this.d, delay);
    }
  }

  private cleanup(oldRSs: ReplicaSet[]): Promise<void> {
    return cleanupHistory(this.d, oldRSs, {
      names: this.deps.names,
      client: this.deps.replicaSets,
      signal: this.signal,
    });
  }

  /** kube's `rolloutRolling`. */
  private async rolloutRolling(rsList: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.allReplicaSets(rsList, true);
    if (!newRS) return;
    const all = [...oldRSs, newRS];
    if (await reconcileNewReplicaSet(this.d, all, newRS, this.scale)) {
      return this.syncRolloutStatus(this.refreshed(all), this.refreshed([newRS])[0]);
    }
    if (await reconcileOldReplicaSets(this.d, oldRSs, newRS, this.scale)) {
      return this.syncRolloutStatus(this.refreshed(all), this.refreshed([newRS])[0]);
    }
    if (deploymentComplete(this.d, this.d.status ?? {})) await this.cleanup(oldRSs);
    return this.syncRolloutStatus(all, newRS);
  }

  /** kube's `rolloutRecreate`: old ReplicaSets to 0, wait for their pods to go, then the new one. */
  private async rolloutRecreate(rsList: ReplicaSet[]): Promise<void> {
    let { newRS, oldRSs } = await this.allReplicaSets(rsList, false);
    const all = () => [...oldRSs, ...(newRS ? [newRS] : [])];
    if (await scaleDownOldForRecreate(oldRSs, this.scale)) return this.syncRolloutStatus(this.refreshed(all()), newRS);
    const podsByRS = new Map<string, Pod[]>();
    const uids = new Set(rsList.map((rs) => rs.metadata.uid));
    for (const p of this.deps.listPods(this.d.metadata.namespace ?? '')) {
      const uid = controllerRefOf(p)?.uid;
      if (uid && uids.has(uid)) podsByRS.set(uid, [...(podsByRS.get(uid) ?? []), p]);
    }
    if (oldPodsRunning(newRS, oldRSs, podsByRS)) return this.syncRolloutStatus(all(), newRS);
    if (!newRS) ({ newRS, oldRSs } = await this.allReplicaSets(rsList, true));
    if (newRS && replicasOf(newRS) !== replicasOf(this.d)) {
      newRS = await this.scale(newRS, replicasOf(this.d));
      return this.syncRolloutStatus(all(), newRS);
    }
    if (deploymentComplete(this.d, this.d.status ?? {})) await this.cleanup(oldRSs);
    return this.syncRolloutStatus(all(), newRS);
  }

  /**
   * kube's `rollback` (apps/v1's `deprecated.deployment.rollback.to` annotation): the template
   * and annotations of the ReplicaSet of that revision (0: the previous one), then the
   * annotation is removed.
   */
  private async rollback(rsList: ReplicaSet[]): Promise<void> {
    const d = this.d;
    const { names } = this.deps;
    let target = Number(d.metadata.annotations?.[ROLLBACK_TO] ?? '0');
    if (!Number.isFinite(target) || target === 0) target = lastRevision(rsList, names);
    const rs = target === 0 ? undefined : rsList.find((r) => revisionOf(r, names) === target);
    if (rs && !equalIgnoreHash(d.spec.template, rs.spec.template)) {
      d.spec.template = withoutHash(rs.spec.template);
      setDeploymentAnnotationsTo(d, rs, names);
    }
    const annotations = { ...(d.metadata.annotations ?? {}) };
    delete annotations[ROLLBACK_TO];
    await this.deps.deployments.update(
      { ...d, apiVersion: 'apps/v1', kind: 'Deployment', metadata: { ...d.metadata, annotations } },
      this.signal,
    );
  }
}
