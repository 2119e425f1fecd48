import type { StoreEvent } from '../store.js';

/** A watcher that receives committed changes live (it has caught up with the log). */
export interface SyncedWatcher {
  readonly prefix: string;
  /** Called for each change under `prefix`, in revision order. */
  push(event: StoreEvent): void;
  /** Called when a reader asks the watches of `prefix` for their progress. */
  progressRequested(): void;
}

/**
 * The in-process fan-out of committed changes: one publish per committed batch, delivered to
 * every synced watcher whose prefix matches. Watchers are grouped by prefix, and each change
 * looks up only the prefixes of its own key (one map probe per distinct prefix length), so the
 * cost per change does not grow with the number of watchers on other prefixes.
 *
 * `published` is the revision up to which every committed change has been handed to the synced
 * watchers; a watcher that catches up from the log switches to live delivery against it (see
 * LmdbWatcher).
 */
export class WatchHub {
  private readonly byPrefix = new Map<string, Set<SyncedWatcher>>();
  /** Distinct prefix lengths in use, ascending. */
  private lengths: number[] = [];
  private watcherCount = 0;

  constructor(private publishedRevision: number) {}

  get published(): number {
    return this.publishedRevision;
  }

  get size(): number {
    return this.watcherCount;
  }

  add(watcher: SyncedWatcher): void {
    let set = this.byPrefix.get(watcher.prefix);
    if (set === undefined) {
      set = new Set();
      this.byPrefix.set(watcher.prefix, set);
      this.recomputeLengths();
    }
    if (!set.has(watcher)) {
      set.add(watcher);
      this.watcherCount++;
    }
  }

  remove(watcher: SyncedWatcher): void {
    const set = this.byPrefix.get(watcher.prefix);
    if (set === undefined || !set.delete(watcher)) return;
    this.watcherCount--;
    if (set.size === 0) {
      this.byPrefix.delete(watcher.prefix);
      this.recomputeLengths();
    }
  }

  /** Whether some synced watcher would receive a change of `key` (to skip building events). */
  interested(key: string): boolean {
    if (this.watcherCount === 0) return false;
    for (const length of this.lengths) {
      if (length > key.length) return false;
      if (this.byPrefix.has(key.slice(0, length))) return true;
    }
    return false;
  }

  /** Asks the synced watchers of exactly `prefix` for progress (see Store.requestWatchProgress). */
  requestProgress(prefix: string): void {
    const set = this.byPrefix.get(prefix);
    if (set !== undefined) for (const watcher of set) watcher.progressRequested();
  }

  /**
   * Delivers `events` (ascending revisions, only changes someone is interested in) and records
   * that every change up to `revision` has been published.
   */
  publish(events: readonly StoreEvent[], revision: number): void {
    for (const event of events) {
      const { key } = event;
      for (const length of this.lengths) {
        if (length > key.length) break;
        const set = this.byPrefix.get(key.slice(0, length));
        if (set === undefined) continue;
        for (const watcher of set) watcher.push(event);
      }
    }
    if (revision > this.publishedRevision) this.publishedRevision = revision;
  }

  private recomputeLengths(): void {
    this.lengths = [...new Set([...this.byPrefix.keys()].map((p) => p.length))].sort((a, b) => a - b);
  }
}
