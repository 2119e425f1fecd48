import { type Clock, systemClock } from '../../util/clock.js';
import type { DeepReadonly } from '../../util/deep-readonly.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import type { StoreEvent } from '../store.js';
import { toCachedItem } from './cached-item.js';
import { CacherNotReadyError, ResourceVersionTooOldError, TooLargeResourceVersionError } from './cacher-errors.js';
import { type CacherOptions, type ResolvedCacherOptions, resolveCacherOptions } from './cacher-options.js';
import type {
  CacheListOptions,
  CacheListResult,
  CacheReadOptions,
  CacherStats,
  CacheWatchOptions,
} from './cacher-requests.js';
import { EventBuffer } from './event-buffer.js';
import { overlayAt, pageRange, readPage } from './page-reader.js';
import { type ReflectorSink, runReflector } from './reflector.js';
import { RevisionWaiter } from './revision-waiter.js';
import { StateIndex } from './state-index.js';
import { getFromStore, listFromStore } from './store-reader.js';
import type { BufferedEvent, CachedItem, CacheObjectEvent, Decoder } from './types.js';
import { WatchDispatcher } from './watch-dispatcher.js';
import { CacheWatcher } from './watcher.js';

/**
 * The watch cache of one resource type, in front of any {@link Store} (kube-apiserver's cacher):
 * one store watch on the type's prefix keeps an in-memory copy of the current state (sorted by
 * key), a history of recent events, and the revision it has caught up to. Lists, gets and watches
 * are served from memory; writes go to the store directly and reach the cache through its watch.
 *
 * Revision semantics: see {@link CacheReadOptions} and {@link CacheListOptions}. A page at a past
 * revision R (an Exact list, or a later page of a paginated list) is the state at R, rebuilt from
 * the current state and the events after R; older than the history, it is read from the store
 * (which keeps its own history until compaction), or fails with ResourceVersionTooOldError when
 * fallback is off.
 *
 * Every object handed out is shared by all readers, hence typed {@link DeepReadonly}: the decoder's
 * fresh object becomes the cache's, and every list, get, watch event and filter sees that one
 * instance. The response writers serialize each one once per media type (encoding's
 * `EncodingCache`, keyed by object identity).
 */
export class Cacher<T extends object> implements ReflectorSink<DeepReadonly<T>> {
  readonly prefix: string;
  private readonly o: ResolvedCacherOptions<T>;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly decode: Decoder<DeepReadonly<T>>;
  private state = StateIndex.empty<DeepReadonly<T>>();
  private readonly buffer: EventBuffer<DeepReadonly<T>>;
  private readonly waiter = new RevisionWaiter(0n);
  private readonly dispatcher: WatchDispatcher<DeepReadonly<T>>;
  private isReady = false;
  /** Bumped by every change to the state (an event applied, a re-list): see `stateVersion`. */
  private stateChanges = 0;
  private started = false;
  private running = false;
  private listCount = 0;
  private readyListeners = new Set<() => void>();

  constructor(options: CacherOptions<T>) {
    this.o = resolveCacherOptions(options);
    this.prefix = options.prefix;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    // Nothing else holds a decoded object: from here on it is the shared, read-only copy.
    this.decode = options.decode as Decoder<DeepReadonly<T>>;
    this.buffer = new EventBuffer<DeepReadonly<T>>(
      {
        historyWindowMs: this.o.historyWindowMs,
        minEvents: this.o.minHistoryEvents,
        maxEvents: this.o.maxHistoryEvents,
      },
      0n,
    );
    this.dispatcher = new WatchDispatcher<DeepReadonly<T>>(() => this.buffer);
  }

  /**
   * Ends every watcher with `error` (events queued before it are still delivered). Used when
   * the resource stops being served: its watchers learn why instead of seeing a clean end.
   * Stopping the reflector is the start signal's job.
   */
  terminateWatchers(error: unknown): void {
    this.dispatcher.endAll(error);
  }

  /** The revision the cache has caught up to. */
  get revision(): bigint {
    return this.waiter.revision;
  }

  get ready(): boolean {
    return this.isReady;
  }

  /**
   * A number that changes whenever the cached objects do (an event applied, a re-list) and only
   * then: progress of the revision alone leaves it. Lets a reader keep what it derived from the
   * state (e.g. an admission plugin's view of a few objects) until the state moves.
   */
  get stateVersion(): number {
    return this.stateChanges;
  }

  /**
   * Starts syncing from the store; resolves once the initial list is loaded (it keeps retrying
   * while the store is unavailable). Aborting `signal` stops the cacher: watchers end, reads
   * fall back to the store (or fail with CacherNotReadyError). Call once.
   */
  start(signal: AbortSignal): Promise<void> {
    if (this.started || signal.aborted) throw new Error('cacher can only be started once, with a live signal');
    this.started = true;
    this.running = true;
    const ticker = setInterval(() => this.dispatcher.tick(this.revision), this.o.bookmarkIntervalMs);
    ticker.unref();
    const reflector = runReflector(
      {
        store: this.o.store,
        prefix: this.prefix,
        decode: this.decode,
        logger: this.logger,
        listPageSize: this.o.listPageSize,
        progressIntervalMs: this.o.progressIntervalMs,
        retryDelayMs: this.o.retryDelayMs,
        signal,
      },
      this,
    );
    void reflector.finally(() => {
      clearInterval(ticker);
      this.running = false;
      this.isReady = false;
      this.dispatcher.endAll();
      this.notifyReady();
    });
    return this.whenReady(Number.POSITIVE_INFINITY, signal);
  }

  /**
   * One page of the objects under `options.prefix`, in key order, as one snapshot. The revision:
   * `exactRevision` (waits for the cache to reach it, TooLargeResourceVersionError after
   * waitTimeoutMs; rebuilt from the history, or read from the store when older), else the cache's
   * revision once it reached `minRevision` or, with `consistent`, the store's current revision
   * (TooLargeResourceVersionError / store fallback on timeout). While the cache is not ready the
   * page comes from the store (with fallback on). Throws the decode error of an unreadable item
   * the page would contain.
   */
  async list(options: CacheListOptions<T>): Promise<CacheListResult<DeepReadonly<T>>> {
    const { prefix, exactRevision, signal } = options;
    this.checkKey(prefix);
    const limit = options.limit ?? 0;
    const request = { prefix, limit, startAfter: options.startAfter, filter: options.filter };
    const fromStore = async (revision?: bigint, minRevision?: bigint): Promise<CacheListResult<DeepReadonly<T>>> => {
      const r = await listFromStore(this.o.store, this.decode, { ...request, revision, minRevision, signal });
      return { ...r, servedFrom: 'store' };
    };
    const read = await this.readRevision(options, exactRevision);
    if (read.status === 'unavailable') return fromStore(exactRevision, options.minRevision);
    if (read.status === 'timeout') {
      if (options.consistent && this.o.fallbackToStore) return fromStore();
      throw new TooLargeResourceVersionError(read.target as bigint, this.revision);
    }
    if (exactRevision === undefined) {
      return { ...readPage(this.state, request), revision: this.revision, servedFrom: 'cache' };
    }
    if (exactRevision < this.buffer.oldestRevision) {
      if (this.o.fallbackToStore) return fromStore(exactRevision);
      throw new ResourceVersionTooOldError(exactRevision, this.buffer.oldestRevision);
    }
    const { from, to } = pageRange(request);
    const overlay = exactRevision === this.revision ? undefined : overlayAt(this.buffer, exactRevision, from, to);
    return { ...readPage(this.state, request, overlay), revision: exactRevision, servedFrom: 'cache' };
  }

  /**
   * One object (undefined when absent) and the revision the answer reflects. With neither
   * `minRevision` nor `consistent`, whatever the cache holds (resourceVersion=0).
   */
  async get(
    key: string,
    options: CacheReadOptions = {},
  ): Promise<{ object: DeepReadonly<T> | undefined; revision: bigint }> {
    this.checkKey(key);
    const read = await this.readRevision(options, undefined);
    if (read.status === 'unavailable' || (read.status === 'timeout' && options.consistent && this.o.fallbackToStore)) {
      const r = await getFromStore(this.o.store, this.decode, key, options.signal);
      if (options.minRevision !== undefined && r.revision < options.minRevision) {
        throw new TooLargeResourceVersionError(options.minRevision, r.revision);
      }
      return r;
    }
    if (read.status === 'timeout') throw new TooLargeResourceVersionError(read.target as bigint, this.revision);
    const item = this.state.get(key);
    if (item?.error !== undefined) throw item.error;
    return { object: item?.object, revision: this.revision };
  }

  /**
   * The object the cache holds at `key` now (undefined when absent), without waiting: what `get`
   * with neither `minRevision` nor `consistent` answers while the cache is `ready`.
   * @throws the decode error of an unreadable item; an Error when the cache is not ready.
   */
  peek(key: string): DeepReadonly<T> | undefined {
    this.checkKey(key);
    if (!this.isReady) throw new Error(`watch cache for ${key} is not ready: use get`);
    const item = this.state.get(key);
    if (item?.error !== undefined) throw item.error;
    return item?.object;
  }

  /**
   * Opens a watch (see {@link CacheWatchOptions}). Rejects with ResourceVersionTooOldError when
   * `afterRevision` is older than the history, TooLargeResourceVersionError when the initial state
   * cannot reach the requested revision in time, CacherNotReadyError when the cache stays
   * unready. A start revision newer than the cache is accepted: the watch waits for it.
   */
  async watch(options: CacheWatchOptions<T>): Promise<CacheWatcher<DeepReadonly<T>>> {
    const { prefix, afterRevision, signal } = options;
    this.checkKey(prefix);
    const withState = options.sendInitialEvents === true || afterRevision === undefined;
    for (;;) {
      await this.whenReady(this.o.readyTimeoutMs, signal);
      if (withState) {
        const min = afterRevision ?? (options.consistent ? await this.o.store.currentRevision(signal) : undefined);
        if (min !== undefined && !(await this.reach(min, signal))) {
          throw new TooLargeResourceVersionError(min, this.revision);
        }
      }
      // Waiting may have spanned a re-list; from here on everything is synchronous.
      if (!this.isReady) continue;
      signal.throwIfAborted();
      const common = {
        host: this.dispatcher,
        signal,
        prefix,
        filter: options.filter,
        allowBookmarks: options.allowBookmarks === true,
        bufferSize: options.bufferSize ?? this.o.watcherBufferSize,
      };
      let watcher: CacheWatcher<DeepReadonly<T>>;
      if (withState) {
        watcher = new CacheWatcher<DeepReadonly<T>>({
          ...common,
          position: this.revision,
          initial: this.snapshot(prefix, options.filter),
          initialEventsEnd: options.sendInitialEvents === true && options.allowBookmarks === true,
        });
      } else {
        const after = afterRevision as bigint;
        if (after < this.buffer.oldestRevision) throw new ResourceVersionTooOldError(after, this.buffer.oldestRevision);
        watcher = new CacheWatcher<DeepReadonly<T>>({ ...common, position: after });
      }
      this.dispatcher.add(watcher);
      return watcher;
    }
  }

  stats(): CacherStats {
    return {
      ready: this.isReady,
      revision: this.revision,
      oldestRevision: this.buffer.oldestRevision,
      objects: this.state.size,
      bufferedEvents: this.buffer.size,
      watchers: this.dispatcher.size,
      liveWatchers: this.dispatcher.liveCount,
      lists: this.listCount,
    };
  }

  // ReflectorSink: called by the reflector only.

  relisting(): void {
    if (this.isReady) this.logger.info('watch cache not ready while re-listing', { prefix: this.prefix });
    this.isReady = false;
  }

  replace(items: CachedItem<DeepReadonly<T>>[], revision: bigint): void {
    const previous = this.revision;
    const first = this.listCount === 0;
    this.state = StateIndex.fromSorted(items);
    this.stateChanges++;
    this.buffer.reset(revision);
    this.listCount++;
    if (!first) {
      // The changes between a watcher's position and `revision` were never seen: it must re-list.
      const n = this.dispatcher.terminateBefore(revision, revision < previous);
      if (n > 0) this.logger.warn('watch cache re-listed; ended watchers', { prefix: this.prefix, watchers: n });
    }
    this.waiter.set(revision);
    this.isReady = true;
    this.notifyReady();
  }

  apply(event: StoreEvent): void {
    const { key, revision } = event;
    if (revision <= this.revision) throw new Error(`watch cache got revision ${revision} at ${this.revision}`);
    if (!key.startsWith(this.prefix)) throw new Error(`watch cache for ${this.prefix} got key ${key}`);
    let item: CachedItem<DeepReadonly<T>> | undefined;
    let prev: CachedItem<DeepReadonly<T>> | undefined;
    let plain: CacheObjectEvent<DeepReadonly<T>> | undefined;
    if (event.type === 'put') {
      if (event.kv === undefined) throw new Error(`put event without a value at revision ${revision}`);
      item = toCachedItem(event.kv, this.decode);
      prev = this.retained(this.state.put(item));
      if (item.object !== undefined) {
        plain = { type: prev ? 'MODIFIED' : 'ADDED', object: item.object, revision, derived: undefined };
      }
    } else {
      prev = this.retained(this.state.remove(key));
      const last = event.prev ? toCachedItem({ ...event.prev, modRevision: revision }, this.decode) : prev;
      if (last?.object !== undefined) plain = { type: 'DELETED', object: last.object, revision, derived: undefined };
    }
    this.stateChanges++;
    const buffered: BufferedEvent<DeepReadonly<T>> = {
      revision,
      key,
      receivedAt: this.clock.now().getTime(),
      item,
      prev,
      plain,
    };
    this.buffer.append(buffered, buffered.receivedAt);
    this.waiter.advance(revision);
    this.dispatcher.dispatch(buffered);
  }

  /** An item leaving the state for the history, made independent of the store (options.retain). */
  private retained(item: CachedItem<DeepReadonly<T>> | undefined): CachedItem<DeepReadonly<T>> | undefined {
    const retain = this.o.retain as ((obj: DeepReadonly<T>) => DeepReadonly<T>) | undefined;
    if (item?.object === undefined || retain === undefined) return item;
    const object = retain(item.object);
    return object === item.object ? item : { ...item, object };
  }

  progress(revision: bigint): void {
    this.waiter.advance(revision);
  }

  /**
   * Resolves the revision a read needs (`target`) and waits for it: 'ok' when the cache can serve
   * it now, 'timeout' when the cache did not get there in time (for a consistent read with store
   * fallback, at once when the store cannot be asked for progress), 'unavailable' when the cache is not
   * ready and fallback is on (without fallback, waits for readiness or throws CacherNotReadyError).
   */
  private async readRevision(
    options: CacheReadOptions,
    exact: bigint | undefined,
  ): Promise<{ status: 'ok' | 'timeout' | 'unavailable'; target?: bigint }> {
    const set = [exact !== undefined, options.minRevision !== undefined, options.consistent === true];
    if (set.filter(Boolean).length > 1) {
      throw new RangeError('at most one of exactRevision, minRevision and consistent may be set');
    }
    const { signal } = options;
    if (!this.isReady) {
      if (this.o.fallbackToStore) return { status: 'unavailable' };
      await this.whenReady(this.o.readyTimeoutMs, signal);
    }
    const target =
      exact ?? options.minRevision ?? (options.consistent ? await this.o.store.currentRevision(signal) : undefined);
    if (
      options.consistent &&
      this.o.fallbackToStore &&
      target !== undefined &&
      target > this.waiter.revision &&
      this.o.store.requestWatchProgress === undefined
    ) {
      // A store that cannot be asked for its watch's progress (etcd) would tell the cache its
      // revision only at its next progress interval (seconds, or minutes by etcd's default) when
      // the writes were elsewhere: the store serves the read now, as kube-apiserver does with an
      // etcd that cannot answer RequestWatchProgress (before 3.4.31 and 3.5.13).
      return { status: 'timeout', target };
    }
    if (target !== undefined && !(await this.reach(target, signal))) {
      return { status: 'timeout', target };
    }
    // A re-list may have started while waiting.
    if (!this.isReady) return this.readRevision(options, exact);
    return { status: 'ok', target };
  }

  /**
   * Waits until the cache holds `revision` (false after the wait timeout). A revision the cache
   * has not seen may be one written under other prefixes only, which the store's watch would
   * report at its next progress interval: the store is asked for that progress now, as kube's
   * cacher asks etcd (RequestWatchProgress).
   */
  private reach(revision: bigint, signal: AbortSignal | undefined): Promise<boolean> {
    if (revision > this.waiter.revision) this.o.store.requestWatchProgress?.(this.prefix);
    return this.waiter.wait(revision, this.o.waitTimeoutMs, signal);
  }

  private snapshot(prefix: string, filter: ((obj: DeepReadonly<T>) => boolean) | undefined): DeepReadonly<T>[] {
    const out: DeepReadonly<T>[] = [];
    const { from, to } = pageRange({ prefix });
    this.state.scan(from, to, (item) => {
      // An unreadable value has no object to send; it reaches watchers once rewritten.
      const obj = item.object;
      if (obj !== undefined && (filter === undefined || filter(obj))) out.push(obj);
      return true;
    });
    return out;
  }

  private checkKey(key: string): void {
    if (!key.startsWith(this.prefix))
      throw new RangeError(`key or prefix ${key} is outside the cache's ${this.prefix}`);
  }

  private whenReady(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.isReady) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!this.running) return Promise.reject(new CacherNotReadyError(this.prefix));
    return new Promise<void>((resolve, reject) => {
      const settle = (error?: unknown) => {
        this.readyListeners.delete(onReady);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onReady = () => {
        if (this.isReady) settle();
        else if (!this.running) settle(new CacherNotReadyError(this.prefix));
      };
      const onAbort = () => settle(signal?.reason);
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => settle(new CacherNotReadyError(this.prefix)), timeoutMs)
        : undefined;
      signal?.addEventListener('abort', onAbort, { once: true });
      this.readyListeners.add(onReady);
    });
  }

  private notifyReady(): void {
    for (const listener of [...this.readyListeners]) listener();
  }
}
