import type { Clock } from '../../util/clock.js';

/** kube's `ExpectationsTimeout`: expectations older than this are considered met. */
const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface Expectation {
  adds: number;
  /** Keys (`namespace/name`) of the pods whose deletion is awaited. */
  deletes: Set<string>;
  setAtMs: number;
}

/**
 * kube's `UIDTrackingControllerExpectations`: after a controller creates or deletes pods it
 * waits until its informer has seen those changes before it counts pods again (so a lagging
 * cache does not make it create or delete twice). Creations are counted; deletions are tracked
 * per pod so that a pod seen terminating and then removed counts once. Expectations expire
 * after five minutes (a lost watch event must not stall the controller).
 */
export class Expectations {
  private readonly byController = new Map<string, Expectation>();

  constructor(private readonly clock: Clock) {}

  /** True when the controller `key` may sync: nothing awaited, all observed, or expired. */
  satisfied(key: string): boolean {
    const e = this.byController.get(key);
    if (!e) return true;
    if (e.adds <= 0 && e.deletes.size === 0) return true;
    return this.clock.now().getTime() - e.setAtMs > EXPECTATIONS_TIMEOUT_MS;
  }

  /** Awaits `adds` creations and the deletion of `deletes` (pod keys). */
  expect(key: string, adds: number, deletes: readonly string[] = []): void {
    this.byController.set(key, { adds, deletes: new Set(deletes), setAtMs: this.clock.now().getTime() });
  }

  /** One awaited creation was observed (or will never happen: it failed). */
  creationObserved(key: string): void {
    const e = this.byController.get(key);
    if (e) e.adds--;
  }

  /** The awaited deletion of `podKey` was observed (or will never happen). */
  deletionObserved(key: string, podKey: string): void {
    this.byController.get(key)?.deletes.delete(podKey);
  }

  /** Forgets the controller (it was deleted). */
  delete(key: string): void {
    this.byController.delete(key);
  }
}
