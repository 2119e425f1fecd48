import type { Pod } from '../../apis/core/pod-types.js';
import type { ApiObject } from '../../apis/object.js';
import { type LabelSelector, matchesLabels } from '../../apis/selectors/index.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import type { Informer } from '../../client/informer/informer.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import { formatTime } from '../../util/clock.js';
import type { ControllerContext } from '../controller-descriptor.js';
import {
  controllerRefOf,
  errorText,
  isNamespaceTerminating,
  isStatus,
  newControllerRef,
  objectKey,
  splitKey,
  startResync,
  waitForInformers,
} from '../controller-support.js';
import { claimObjects, recheckOwner } from './controller-ref.js';
import { Expectations } from './expectations.js';
import { rankPodsForDeletion } from './pod-ranking.js';
import { isPodActive, isPodReady } from './pod-status.js';
import { calculateReplicaStatus, type ReplicaOwner, replicaStatusChanged } from './replica-status.js';

/** kube's `BurstReplicas`: at most this many pods created or deleted per sync. */
const BURST_REPLICAS = 500;

/** The kind a {@link ReplicaManager} manages: ReplicaSet (apps/v1) or ReplicationController (v1). */
export interface ReplicaKind {
  readonly group: string;
  readonly resource: string;
  readonly apiVersion: string;
  readonly kind: string;
  /** The controller's selector; throws when it cannot be read. */
  selectorOf(owner: ReplicaOwner): LabelSelector;
}

/**
 * kube's slow start: `fn` runs `count` times in batches of 1, 2, 4, ... concurrent calls; the
 * first batch with a failure ends it. Returns how many succeeded and the first error.
 */
export async function slowStartBatch(
  count: number,
  fn: () => Promise<void>,
): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, 1); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, fn));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += batch - failed.length;
    if (failed.length > 0) return { successes, error: failed[0].reason };
    remaining -= batch;
  }
  return { successes };
}

/**
 * kube's ReplicaSet controller (shared with the ReplicationController controller): keeps
 * `spec.replicas` active pods that match the selector, creating them from the template (slow
 * start, at most 500 per sync) and deleting the surplus in kube's order, adopts matching orphans
 * and releases pods that no longer match, and reports the status. Pod creations and deletions
 * are awaited in the informer (expectations) before the next count.
 */
export class ReplicaManager {
  private readonly queue: WorkQueue<string>;
  private readonly expectations: Expectations;
  private readonly owners: Informer | undefined;
  private readonly pods: Informer | undefined;
  private readonly ownerClient: ResourceClient | undefined;
  private readonly podClient: ResourceClient | undefined;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly kind: ReplicaKind,
  ) {
    this.queue = new WorkQueue<string>({ signal: ctx.signal, maxRetryDelayMs: 60_000 });
    this.expectations = new Expectations(ctx.clock);
    this.owners = ctx.informers.lookup(kind.group, kind.resource);
    this.pods = ctx.informers.lookup('', 'pods');
    this.ownerClient = ctx.client.preferred(kind.group, kind.resource);
    this.podClient = ctx.client.preferred('', 'pods');
    this.owners?.addHandlers({
      onAdd: (o) => this.queue.add(objectKey(o)),
      onUpdate: (_old, o) => this.queue.add(objectKey(o)),
      onDelete: (o) => {
        this.expectations.delete(objectKey(o));
        this.queue.add(objectKey(o));
      },
    });
    this.pods?.addHandlers({
      onAdd: (p) => this.podAdded(p as Pod),
      onUpdate: (old, p) => this.podUpdated(old as Pod, p as Pod),
      onDelete: (p) => this.podDeleted(p as Pod),
    });
  }

  async run(workers: number): Promise<void> {
    if (!this.ownerClient || !this.podClient) return;
    if (!(await waitForInformers([this.owners, this.pods], this.ctx.signal))) return;
    startResync(this.ctx.minResyncPeriodMs, this.ctx.signal, () => {
      for (const o of this.owners?.list() ?? []) this.queue.add(objectKey(o));
    });
    await this.queue.run((key) => this.sync(key), {
      workers,
      onError: (key, err) =>
        this.ctx.logger.warn(`${this.kind.resource}: sync failed; retrying`, { key, error: errorText(err) }),
    });
  }

  /** The controller named by a pod's controller reference, when it is of this kind and uid. */
  private ownerOf(pod: Pod): ReplicaOwner | undefined {
    const ref = controllerRefOf(pod);
    if (!ref || ref.kind !== this.kind.kind) return undefined;
    const owner = this.owners?.get(pod.metadata.namespace ?? '', ref.name);
    return owner && owner.metadata.uid === ref.uid ? (owner as ReplicaOwner) : undefined;
  }

  /** Controllers of the pod's namespace whose selector matches it (for orphans). */
  private matchingOwners(pod: Pod): ReplicaOwner[] {
    return (this.owners?.list(pod.metadata.namespace ?? '') ?? []).filter((o) => {
      try {
        const sel = this.kind.selectorOf(o as ReplicaOwner);
        return !sel.empty && matchesLabels(sel, pod.metadata.labels ?? {});
      } catch {
        return false;
      }
    }) as ReplicaOwner[];
  }

  private podAdded(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) {
      this.podDeleted(pod);
      return;
    }
    if (controllerRefOf(pod)) {
      const owner = this.ownerOf(pod);
      if (!owner) return;
      this.expectations.creationObserved(objectKey(owner));
      this.queue.add(objectKey(owner));
      return;
    }
    for (const o of this.matchingOwners(pod)) this.queue.add(objectKey(o));
  }

  private podUpdated(old: Pod, pod: Pod): void {
    const labelsChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {});
    if (pod.metadata.deletionTimestamp) {
      this.podDeleted(pod);
      if (labelsChanged) this.podDeleted(old);
      return;
    }
    const oldRef = controllerRefOf(old);
    const ref = controllerRefOf(pod);
    const refChanged = oldRef?.uid !== ref?.uid;
    if (refChanged && oldRef) {
      const prev = this.ownerOf(old);
      if (prev) this.queue.add(objectKey(prev));
    }
    if (ref) {
      const owner = this.ownerOf(pod);
      if (!owner) return;
      this.queue.add(objectKey(owner));
      const minReady = owner.spec?.minReadySeconds ?? 0;
      if (!isPodReady(old) && isPodReady(pod) && minReady > 0) {
        this.queue.addAfter(objectKey(owner), minReady * 1000 + 1000);
      }
      return;
    }
    if (labelsChanged || refChanged) for (const o of this.matchingOwners(pod)) this.queue.add(objectKey(o));
  }

  private podDeleted(pod: Pod): void {
    const owner = this.ownerOf(pod);
    if (!owner) return;
    this.expectations.deletionObserved(objectKey(owner), objectKey(pod));
    this.queue.add(objectKey(owner));
  }

  private async sync(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const owner = this.owners?.get(namespace, name) as ReplicaOwner | undefined;
    if (!owner) {
      this.expectations.delete(key);
      return;
    }
    const needsSync = this.expectations.satisfied(key);
    let selector: LabelSelector;
    try {
      selector = this.kind.selectorOf(owner);
    } catch (e) {
      this.ctx.logger.warn(`${this.kind.resource}: invalid selector`, { key, error: errorText(e) });
      return;
    }
    const active = (this.pods?.list(namespace) ?? []).filter((p) => isPodActive(p as Pod));
    const pods = (await claimObjects(active, {
      owner,
      ownerRef: newControllerRef(owner, this.kind.apiVersion, this.kind.kind),
      selector,
      client: this.podClient as ResourceClient,
      canAdopt: () => recheckOwner(this.ownerClient as ResourceClient, owner, this.ctx.signal),
      signal: this.ctx.signal,
    })) as Pod[];
    const desired = owner.spec?.replicas ?? 1;
    let manageError: unknown;
    if (needsSync && !owner.metadata.deletionTimestamp) {
      try {
        await this.manageReplicas(key, owner, pods, desired);
      } catch (e) {
        manageError = e;
      }
    }
    const now = this.ctx.clock.now();
    const status = calculateReplicaStatus(owner, pods, {
      manageError,
      creating: pods.length < desired,
      now,
      formatTime,
    });
    const written = await this.writeStatus(owner, status);
    const minReady = owner.spec?.minReadySeconds ?? 0;
    if (
      manageError === undefined &&
      minReady > 0 &&
      (written.readyReplicas ?? 0) === desired &&
      (written.availableReplicas ?? 0) !== desired
    ) {
      this.queue.addAfter(key, minReady * 1000);
    }
    if (manageError !== undefined) throw manageError;
  }

  private async manageReplicas(key: string, owner: ReplicaOwner, pods: Pod[], desired: number): Promise<void> {
    const diff = pods.length - desired;
    if (diff < 0) {
      const n = Math.min(-diff, BURST_REPLICAS);
      this.expectations.expect(key, n);
      const { successes, error } = await slowStartBatch(n, () => this.createPod(owner));
      // Creations that never happened will never be observed.
      for (let i = successes; i < n; i++) this.expectations.creationObserved(key);
      if (error !== undefined) throw error;
      return;
    }
    if (diff > 0) {
      const n = Math.min(diff, BURST_REPLICAS);
      const victims = rankPodsForDeletion(pods, {
        relatedPods: this.relatedPods(owner, pods),
        nowMs: this.ctx.clock.now().getTime(),
        deletionCostAnnotation: this.ctx.domain.key('controller', 'pod-deletion-cost'),
      }).slice(0, n);
      this.expectations.expect(key, 0, victims.map(objectKey));
      const results = await Promise.allSettled(
        victims.map(async (p) => {
          try {
            await this.podClient?.delete(p.metadata.namespace ?? '', p.metadata.name ?? '', {}, this.ctx.signal);
          } catch (e) {
            this.expectations.deletionObserved(key, objectKey(p));
            if (!isStatus(e, 404)) throw e;
          }
        }),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
  }

  /**
   * kube's `getIndirectlyRelatedPods`: the pods of every controller of this kind that shares
   * this one's controller (a Deployment's ReplicaSets), or just its own pods.
   */
  private relatedPods(owner: ReplicaOwner, own: Pod[]): Pod[] {
    const parent = controllerRefOf(owner);
    if (!parent) return own;
    const ns = owner.metadata.namespace ?? '';
    const siblings = new Set(
      (this.owners?.list(ns) ?? []).filter((o) => controllerRefOf(o)?.uid === parent.uid).map((o) => o.metadata.uid),
    );
    return (this.pods?.list(ns) ?? []).filter((p) => siblings.has(controllerRefOf(p)?.uid)) as Pod[];
  }

  /** kube's `GetPodFromTemplate` + create: `generateName` `<owner>-`, the template's metadata and spec. */
  private async createPod(owner: ReplicaOwner): Promise<void> {
    const template = owner.spec?.template ?? {};
    const labels = template.metadata?.labels ?? {};
    if (Object.keys(labels).length === 0) throw new Error('unable to create pods, no labels');
    const meta = template.metadata ?? {};
    const pod: ApiObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${owner.metadata.name}-`,
        namespace: owner.metadata.namespace,
        labels: { ...labels },
        ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
        ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
        ownerReferences: [newControllerRef(owner, this.kind.apiVersion, this.kind.kind)],
      },
      spec: structuredClone(template.spec ?? {}),
    };
    try {
      await this.podClient?.create(owner.metadata.namespace ?? '', pod, this.ctx.signal);
    } catch (e) {
      // A terminating namespace refuses new pods; that is not a failure of this controller.
      if (isNamespaceTerminating(e)) return;
      throw e;
    }
  }

  /** Writes the status (observedGeneration = generation) unless unchanged; one retry on a fresh read. */
  private async writeStatus(owner: ReplicaOwner, status: ReplicaOwner['status'] & object): Promise<typeof status> {
    if (!replicaStatusChanged(owner, status)) return status;
    const client = this.ownerClient as ResourceClient;
    let target = owner;
    for (let attempt = 0; ; attempt++) {
      const next = { ...status, observedGeneration: target.metadata.generation };
      if (!next.observedGeneration) delete next.observedGeneration;
      try {
        await client.update(
          { ...target, apiVersion: this.kind.apiVersion, kind: this.kind.kind, status: next },
          this.ctx.signal,
          { subresource: 'status' },
        );
        return next;
      } catch (e) {
        if (attempt >= 1 || isStatus(e, 404)) throw e;
        target = (await client.get(
          owner.metadata.namespace ?? '',
          owner.metadata.name ?? '',
          this.ctx.signal,
        )) as ReplicaOwner;
      }
    }
  }
}
