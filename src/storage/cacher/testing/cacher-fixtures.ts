import { setMaxListeners } from 'node:events';
import type { Store } from '../../store.js';
import { Cacher } from '../cacher.js';
import type { CacherOptions } from '../cacher-options.js';
import type { CacheWatchEvent } from '../types.js';
import type { CacheWatcher } from '../watcher.js';

/** The object type the cacher tests cache: a namespaced object with labels and a payload. */
export interface TestObject {
  metadata: { name: string; namespace: string; labels?: Record<string, string>; resourceVersion: string };
  data?: string;
}

export const PREFIX = '/registry/core/configmaps/';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function keyOf(namespace: string, name: string): string {
  return `${PREFIX}${namespace}/${name}`;
}

/** Stored form: JSON without resourceVersion, as the registry stores objects. */
export function encodeObject(namespace: string, name: string, data: string, labels?: Record<string, string>) {
  return encoder.encode(JSON.stringify({ metadata: { name, namespace, labels }, data }));
}

export function decodeObject(kv: { value: Uint8Array; modRevision: bigint }): TestObject {
  const obj = JSON.parse(decoder.decode(kv.value)) as TestObject;
  if (typeof obj !== 'object' || obj === null || typeof obj.metadata !== 'object') throw new Error('not an object');
  obj.metadata.resourceVersion = kv.modRevision.toString();
  return obj;
}

/** Creates or overwrites a key; returns the write's revision. */
export async function put(
  store: Store,
  namespace: string,
  name: string,
  data: string,
  labels?: Record<string, string>,
): Promise<bigint> {
  const key = keyOf(namespace, name);
  const value = encodeObject(namespace, name, data, labels);
  const existing = await store.get(key);
  if (existing === undefined) return (await store.create(key, value)).revision;
  return (await store.update(key, value)).revision;
}

export async function remove(store: Store, namespace: string, name: string): Promise<bigint> {
  return (await store.delete(keyOf(namespace, name))).revision;
}

/** A started cacher over `store` and the controller that stops it. */
export async function startCacher(
  store: Store,
  options: Partial<CacherOptions<TestObject>> = {},
): Promise<{ cacher: Cacher<TestObject>; stop: () => void; signal: AbortSignal }> {
  const controller = new AbortController();
  // Tests hand this signal to hundreds of watches; production gives each request its own.
  setMaxListeners(0, controller.signal);
  const cacher = new Cacher<TestObject>({ store, prefix: PREFIX, decode: decodeObject, ...options });
  await cacher.start(controller.signal);
  return { cacher, stop: () => controller.abort(), signal: controller.signal };
}

/** A short, comparable description of an event: `TYPE ns/name@revision` or `BOOKMARK@revision`. */
export function describe(e: CacheWatchEvent<TestObject>): string {
  if (e.type === 'BOOKMARK') return `BOOKMARK@${e.revision}${e.initialEventsEnd ? ' end' : ''}`;
  return `${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name}@${e.revision}`;
}

/**
 * Pulls events from a cache watcher with deadlines. Keeps what a batch brought beyond the count
 * asked for, so consecutive `take` calls see every event exactly once. Bookmarks are skipped
 * unless `bookmarks` is set.
 */
export class EventReader {
  private readonly pending: CacheWatchEvent<TestObject>[] = [];
  private inflight: Promise<CacheWatchEvent<TestObject>[] | undefined> | undefined;
  private ended = false;

  constructor(
    readonly watcher: CacheWatcher<TestObject>,
    private readonly bookmarks = false,
  ) {}

  /** Exactly `count` events; rejects with the watch's error, or after `timeoutMs`. */
  async take(count: number, timeoutMs = 5000): Promise<CacheWatchEvent<TestObject>[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.length < count) {
      if (this.ended) throw new Error(`watch ended with ${this.pending.length} of ${count} events`);
      const got = await this.pull(deadline - Date.now());
      if (got === 'timeout') {
        throw new Error(`got ${this.pending.length} of ${count} events: ${this.pending.map(describe).join(', ')}`);
      }
    }
    return this.pending.splice(0, count);
  }

  /** Resolves with the events that arrive within `ms` (none expected, typically). */
  async drain(ms: number): Promise<CacheWatchEvent<TestObject>[]> {
    const deadline = Date.now() + ms;
    while (!this.ended && (await this.pull(deadline - Date.now())) !== 'timeout') {}
    return this.pending.splice(0);
  }

  /** Resolves with the error the watch ends with ('end' when it ends cleanly); pending events are dropped. */
  async outcome(timeoutMs = 5000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    try {
      while (!this.ended) {
        if ((await this.pull(deadline - Date.now())) === 'timeout') return 'timeout';
      }
      return 'end';
    } catch (e) {
      return e;
    }
  }

  private async pull(ms: number): Promise<'ok' | 'timeout'> {
    this.inflight ??= this.watcher.nextBatch();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(0, ms));
    });
    try {
      const batch = await Promise.race([this.inflight, timeout]);
      if (batch === 'timeout') return 'timeout';
      this.inflight = undefined;
      if (batch === undefined) this.ended = true;
      else for (const e of batch) if (this.bookmarks || e.type !== 'BOOKMARK') this.pending.push(e);
      return 'ok';
    } catch (e) {
      this.inflight = undefined;
      this.ended = true;
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A clock the test moves by hand (for the history window). */
export class ManualClock {
  private ms = Date.UTC(2025, 0, 1);
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Resolves once `check` holds, polling every 10 ms; rejects after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
