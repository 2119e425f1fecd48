import { ResourceVersionTooOldError } from './cacher-errors.js';
import type { EventBuffer } from './event-buffer.js';
import type { BufferedEvent, CacheBookmarkEvent, CacheWatchEvent } from './types.js';
import { type CacheWatcher, viewFor, type WatcherHost } from './watcher.js';

/** How many buffered events one catch-up call may pass over, per event it may return. */
const SCAN_FACTOR = 8;

/**
 * Deliveries made in one pass before the rest of a change's fan-out waits for the next turn of
 * the event loop. The transport sends what a pass wrote when the pass ends, so with many
 * watchers the first ones get the change while the later ones are still being written, instead
 * of all of them waiting for the last. Measured at 1,000 watchers on one HTTP/2 connection: passes
 * of 32 to 48 gave the lowest median and last arrival and the least CPU (HTTP/2's scheduling of
 * streams with data waiting costs more the more there are); 16 and 128 were slower.
 */
const DELIVERIES_PER_PASS = 48;

/**
 * Fans the cacher's changes out to its watchers. Live watchers are grouped by prefix, so each
 * change costs one `startsWith` per distinct watched prefix plus one push per matching watcher:
 * no per-watcher promise chain, and a consumer that wakes up takes everything queued since.
 *
 * A change reaching more than {@link DELIVERIES_PER_PASS} watchers is fanned out in passes of
 * that many, one per turn of the event loop; changes that arrive meanwhile wait behind it, so
 * every watcher still gets every change in revision order. A watcher that goes live meanwhile
 * caught up from the buffer, which already holds the waiting changes, and skips them by position.
 *
 * Bookmarks: {@link WatchDispatcher.tick} runs every bookmark interval; a live watcher that asked
 * for bookmarks, has nothing queued and received nothing during the whole previous interval gets
 * a BOOKMARK at the cache's revision, if that revision is newer than its position. No bookmark is
 * sent while a fan-out is under way (the cache's revision may be one a watcher has not got yet).
 */
export class WatchDispatcher<T> implements WatcherHost<T> {
  private readonly live = new Map<string, Set<CacheWatcher<T>>>();
  private readonly all = new Set<CacheWatcher<T>>();
  private readonly bookmarking = new Set<CacheWatcher<T>>();
  private ticks = 1;
  /** Changes waiting to be fanned out, oldest first; the first is under way when `targets` is set. */
  private waiting: BufferedEvent<T>[] = [];
  /** The watchers the change under way goes to, and how many of them have it. */
  private targets: CacheWatcher<T>[] | undefined;
  private delivered = 0;
  private readonly resume = (): void => this.fanOut();

  constructor(private readonly buffer: () => EventBuffer<T>) {}

  /** Watchers not yet ended, in any phase. */
  get size(): number {
    return this.all.size;
  }

  /** Watchers receiving live dispatch. */
  get liveCount(): number {
    let n = 0;
    for (const set of this.live.values()) n += set.size;
    return n;
  }

  add(watcher: CacheWatcher<T>): void {
    this.all.add(watcher);
  }

  /** Hands a change, just appended to the buffer, to every live watcher whose prefix matches. */
  dispatch(event: BufferedEvent<T>): void {
    // A fan-out under way (or a re-entrant call from inside one): in order, after it. A change
    // for more watchers than one pass delivers starts one.
    if (this.waiting.length > 0 || this.liveCountOf(event.key) > DELIVERIES_PER_PASS) {
      this.waiting.push(event);
      if (this.waiting.length === 1) this.fanOut();
      return;
    }
    // Few watchers: all of them now, without a list of them.
    const tick = this.ticks;
    for (const [prefix, watchers] of this.live) {
      if (!event.key.startsWith(prefix)) continue;
      for (const w of watchers) {
        w.lastPushTick = tick;
        w.deliver(event);
      }
    }
  }

  /** How many live watchers `key` has. */
  private liveCountOf(key: string): number {
    let n = 0;
    for (const [prefix, watchers] of this.live) if (key.startsWith(prefix)) n += watchers.size;
    return n;
  }

  /** One pass of the waiting fan-outs; schedules the next while any remain. */
  private fanOut(): void {
    let budget = DELIVERIES_PER_PASS;
    while (this.waiting.length > 0) {
      const event = this.waiting[0];
      this.targets ??= this.liveOf(event.key);
      const targets = this.targets;
      const tick = this.ticks;
      while (this.delivered < targets.length) {
        if (budget-- === 0) {
          setImmediate(this.resume);
          return;
        }
        const w = targets[this.delivered++];
        w.lastPushTick = tick;
        w.deliver(event);
      }
      this.targets = undefined;
      this.delivered = 0;
      this.waiting.shift();
    }
  }

  /** Every live watcher of `key`, as a list. */
  private liveOf(key: string): CacheWatcher<T>[] {
    const out: CacheWatcher<T>[] = [];
    for (const [prefix, watchers] of this.live) if (key.startsWith(prefix)) for (const w of watchers) out.push(w);
    return out;
  }

  /** One bookmark interval passed; `revision` is the cache's revision. */
  tick(revision: bigint): void {
    const idleSince = this.ticks;
    this.ticks++;
    if (this.bookmarking.size === 0 || this.waiting.length > 0) return;
    const bookmark: CacheBookmarkEvent = { type: 'BOOKMARK', revision };
    for (const w of this.bookmarking) {
      if (w.queued === 0 && w.lastPushTick < idleSince && revision > w.position) {
        w.lastPushTick = this.ticks;
        w.bookmark(bookmark);
      }
    }
  }

  /**
   * Ends every watcher whose position is below `revision` (the changes between are unknown after
   * a re-list at `revision`) with ResourceVersionTooOldError; with `all`, every watcher.
   */
  terminateBefore(revision: bigint, all: boolean): number {
    let n = 0;
    for (const w of [...this.all]) {
      if (all || w.position < revision) {
        w.terminate(new ResourceVersionTooOldError(w.position, revision));
        n++;
      }
    }
    return n;
  }

  /** Ends every watcher with `error`, or without one (stop) when undefined. */
  endAll(error?: unknown): void {
    for (const w of [...this.all]) {
      if (error === undefined) w.stop();
      else w.terminate(error);
    }
  }

  catchUp(watcher: CacheWatcher<T>, max: number): CacheWatchEvent<T>[] {
    const buffer = this.buffer();
    if (watcher.position < buffer.oldestRevision) {
      throw new ResourceVersionTooOldError(watcher.position, buffer.oldestRevision);
    }
    const out: CacheWatchEvent<T>[] = [];
    const n = buffer.size;
    const scanLimit = max * SCAN_FACTOR;
    let i = buffer.firstAfter(watcher.position);
    for (let scanned = 0; i < n && out.length < max && scanned < scanLimit; i++, scanned++) {
      const event = buffer.at(i);
      watcher.position = event.revision;
      if (!event.key.startsWith(watcher.prefix)) continue;
      const view = viewFor(event, watcher.filter);
      if (view !== undefined) out.push(view);
    }
    if (i === n) this.goLive(watcher);
    return out;
  }

  detach(watcher: CacheWatcher<T>): void {
    this.all.delete(watcher);
    this.bookmarking.delete(watcher);
    const set = this.live.get(watcher.prefix);
    if (set === undefined) return;
    set.delete(watcher);
    if (set.size === 0) this.live.delete(watcher.prefix);
  }

  private goLive(watcher: CacheWatcher<T>): void {
    if (watcher.ended) return;
    let set = this.live.get(watcher.prefix);
    if (set === undefined) {
      set = new Set();
      this.live.set(watcher.prefix, set);
    }
    set.add(watcher);
    if (watcher.allowBookmarks) this.bookmarking.add(watcher);
    watcher.lastPushTick = this.ticks;
    watcher.goLive();
  }
}
