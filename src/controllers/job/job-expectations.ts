import type { Informer } from '../../client/informer/informer.js';

/** How long an expectation waits for the informer before it is given up (kube: 5 minutes). */
const EXPECTATION_TTL_MS = 5 * 60_000;

interface Pending {
  /** Names of pods created, not yet seen in the cache. */
  readonly created: Map<string, number>;
  /** uids of pods deleted, still seen active in the cache. */
  readonly deleted: Map<string, { name: string; at: number }>;
  /** uids of pods whose tracking finalizer was removed, still seen with it. */
  readonly finalizerRemoved: Map<string, { name: string; at: number }>;
}

/**
 * kube's controller expectations for one Job controller: the pod creations, deletions and
 * finalizer removals it made that its pod informer has not shown yet. While creations or
 * deletions are pending the Job's pods are not managed (no duplicates from a stale cache);
 * pods whose finalizer removal is pending are not counted again. Each check prunes what the
 * cache now shows; an expectation older than five minutes is dropped.
 */
export class JobExpectations {
  private readonly byJob = new Map<string, Pending>();

  constructor(
    private readonly pods: Informer,
    private readonly now: () => number,
  ) {}

  private pending(key: string): Pending {
    let p = this.byJob.get(key);
    if (!p) {
      p = { created: new Map(), deleted: new Map(), finalizerRemoved: new Map() };
      this.byJob.set(key, p);
    }
    return p;
  }

  created(key: string, podName: string): void {
    this.pending(key).created.set(podName, this.now());
  }

  deleted(key: string, uid: string, podName: string): void {
    this.pending(key).deleted.set(uid, { name: podName, at: this.now() });
  }

  finalizerRemoved(key: string, uid: string, podName: string): void {
    this.pending(key).finalizerRemoved.set(uid, { name: podName, at: this.now() });
  }

  /** True when every creation and deletion of the Job's pods shows in the cache. */
  satisfied(key: string, namespace: string): boolean {
    const p = this.byJob.get(key);
    if (!p) return true;
    const now = this.now();
    for (const [name, at] of p.created) {
      if (this.pods.get(namespace, name) || now - at > EXPECTATION_TTL_MS) p.created.delete(name);
    }
    for (const [uid, d] of p.deleted) {
      const pod = this.pods.get(namespace, d.name);
      if (!pod || pod.metadata.uid !== uid || pod.metadata.deletionTimestamp || now - d.at > EXPECTATION_TTL_MS)
        p.deleted.delete(uid);
    }
    return p.created.size === 0 && p.deleted.size === 0;
  }

  /** uids of pods whose finalizer removal the cache does not show yet. */
  pendingFinalizerRemovals(key: string, namespace: string, finalizer: string): ReadonlySet<string> {
    const p = this.byJob.get(key);
    if (!p) return new Set();
    const now = this.now();
    for (const [uid, d] of p.finalizerRemoved) {
      const pod = this.pods.get(namespace, d.name);
      const gone = !pod || pod.metadata.uid !== uid || !(pod.metadata.finalizers ?? []).includes(finalizer);
      if (gone || now - d.at > EXPECTATION_TTL_MS) p.finalizerRemoved.delete(uid);
    }
    return new Set(p.finalizerRemoved.keys());
  }

  forget(key: string): void {
    this.byJob.delete(key);
  }
}
