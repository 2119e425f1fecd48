import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../util/logger.js';
import { CompactedError } from '../errors.js';
import type { Store, StoreEvent } from '../store.js';
import { toCachedItem } from './cached-item.js';
import type { CachedItem, Decoder } from './types.js';

/** Where the reflector delivers what it reads; the cacher implements it. */
export interface ReflectorSink<T> {
  /** The revision the sink has caught up to; watches resume after it. */
  readonly revision: bigint;
  /** A (re-)list is about to start: the current state is about to be replaced. */
  relisting(): void;
  /** A complete list of the prefix at `revision` (items in ascending key order). */
  replace(items: CachedItem<T>[], revision: bigint): void;
  /** One change, in revision order, after the last replace. */
  apply(event: StoreEvent): void;
  /** Every change up to `revision` has been applied. */
  progress(revision: bigint): void;
}

export interface ReflectorOptions<T> {
  readonly store: Store;
  readonly prefix: string;
  readonly decode: Decoder<T>;
  readonly logger: Logger;
  /** Keys per range request of a (re-)list. */
  readonly listPageSize: number;
  readonly progressIntervalMs: number;
  /** First and longest pause between attempts after a failure (doubling in between). */
  readonly retryDelayMs: { readonly initial: number; readonly max: number };
  readonly signal: AbortSignal;
}

/**
 * Keeps a sink in sync with the store, like client-go's reflector: list the prefix (paged, every
 * page at the first page's revision), then watch from that revision, applying changes and progress
 * notifications. Resolves when the signal aborts; never rejects.
 *
 * Failures: a watch that fails for any other reason (the backend restarting, a broken stream) is
 * re-created after the sink's revision, so nothing is lost or repeated and no re-list is needed. A
 * CompactedError (the watch fell behind the compaction window) or a sink that rejects a change
 * forces a re-list. Every retry waits with exponential backoff, reset by a healthy watch.
 */
export async function runReflector<T>(options: ReflectorOptions<T>, sink: ReflectorSink<T>): Promise<void> {
  const { store, prefix, logger, signal } = options;
  let mustList = true;
  let delay = options.retryDelayMs.initial;
  while (!signal.aborted) {
    try {
      if (mustList) {
        sink.relisting();
        const listed = await listAll(options);
        if (signal.aborted) return;
        sink.replace(listed.items, listed.revision);
        mustList = false;
        logger.info('watch cache listed', { prefix, revision: listed.revision.toString(), items: listed.items.length });
      }
      const watch = store.watch(prefix, {
        afterRevision: sink.revision,
        signal,
        progressIntervalMs: options.progressIntervalMs,
      });
      for await (const item of watch) {
        delay = options.retryDelayMs.initial;
        if (item.type === 'progress') {
          sink.progress(item.revision);
          continue;
        }
        try {
          sink.apply(item);
        } catch (e) {
          mustList = true;
          throw e;
        }
      }
      if (signal.aborted) return;
      throw new Error('store watch ended');
    } catch (e) {
      if (signal.aborted) return;
      if (e instanceof CompactedError) mustList = true;
      logger.warn(mustList ? 'watch cache re-listing' : 'watch cache resuming its watch', {
        prefix,
        revision: sink.revision.toString(),
        error: e instanceof Error ? e.message : String(e),
      });
    }
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      return;
    }
    delay = Math.min(delay * 2, options.retryDelayMs.max);
  }
}

async function listAll<T>(options: ReflectorOptions<T>): Promise<{ items: CachedItem<T>[]; revision: bigint }> {
  const { store, prefix, decode, signal } = options;
  const items: CachedItem<T>[] = [];
  let revision: bigint | undefined;
  let startAfter: string | undefined;
  for (;;) {
    // The cache keeps what it lists: a store that can read values again need not hand them over to keep.
    const page = await store.range(prefix, {
      revision,
      startAfter,
      limit: options.listPageSize,
      signal,
      reloadableValues: true,
    });
    revision ??= page.revision;
    for (const kv of page.kvs) items.push(toCachedItem(kv, decode));
    if (!page.more || page.kvs.length === 0) return { items, revision };
    startAfter = page.kvs[page.kvs.length - 1].key;
  }
}
