import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EncodingCache } from '../../encoding/encoding-cache.js';
import { MemoryStore } from '../memory/memory-store.js';
import { ResourceVersionTooOldError, TooLargeResourceVersionError, WatcherTooSlowError } from './cacher-errors.js';
import {
  describe as describeEvent,
  EventReader,
  eventually,
  keyOf,
  ManualClock,
  PREFIX,
  put,
  remove,
  startCacher,
  type TestObject,
} from './testing/cacher-fixtures.js';

/** The store's own events in `(after, until]` under `prefix`, described like cache events. */
async function storeEvents(store: MemoryStore, prefix: string, after: bigint, until: bigint): Promise<string[]> {
  const out: string[] = [];
  if (after >= until) return out;
  // Bounded: a missing event fails the comparison instead of hanging the suite.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  for await (const ev of store.watch(prefix, { afterRevision: after, signal: controller.signal })) {
    if (ev.type === 'progress') continue;
    const [ns, name] = ev.key.slice(PREFIX.length).split('/');
    const type = ev.type === 'delete' ? 'DELETED' : ev.prev ? 'MODIFIED' : 'ADDED';
    out.push(`${type} ${ns}/${name}@${ev.revision}`);
    if (ev.revision >= until) break;
  }
  clearTimeout(timer);
  controller.abort();
  return out;
}

const labelled = (app: string) => ({ app });

describe('Cacher watches', { timeout: 120_000 }, () => {
  it('replays from every buffered revision without gap or duplicate, then goes live', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'seed', '0');
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const start = cacher.revision;
      for (let i = 0; i < 30; i++) {
        const ns = i % 2 ? 'a' : 'b';
        const name = `o${i % 9}`;
        if (i % 5 === 4 && (await store.get(keyOf(ns, name)))) await remove(store, ns, name);
        else await put(store, ns, name, `v${i}`);
      }
      const end = await store.currentRevision();
      await cacher.list({ prefix: PREFIX, minRevision: end });
      for (let after = start; after <= end; after++) {
        for (const prefix of [PREFIX, `${PREFIX}a/`]) {
          const want = await storeEvents(store, prefix, after, await store.currentRevision());
          const watcher = await cacher.watch({ prefix, afterRevision: after, signal });
          const reader = new EventReader(watcher);
          assert.deepEqual((await reader.take(want.length)).map(describeEvent), want, `after ${after} ${prefix}`);
          const live = await put(store, 'a', 'live', String(after));
          assert.deepEqual((await reader.take(1)).map(describeEvent), [`ADDED a/live@${live}`]);
          assert.deepEqual(await reader.drain(5), []);
          watcher.stop();
          await remove(store, 'a', 'live');
        }
      }
      assert.equal(cacher.stats().watchers, 0);
    } finally {
      stop();
    }
  });

  it('rejects a start revision older than the history with ResourceVersionTooOldError', async () => {
    const store = new MemoryStore();
    const first = await put(store, 'a', 'x', '0');
    const clock = new ManualClock();
    const { cacher, stop, signal } = await startCacher(store, { clock, historyWindowMs: 1000, minHistoryEvents: 3 });
    try {
      await assert.rejects(
        cacher.watch({ prefix: PREFIX, afterRevision: first - 1n, signal }),
        ResourceVersionTooOldError,
      );
      for (let i = 0; i < 6; i++) await put(store, 'a', 'x', `${i}`);
      await cacher.list({ prefix: PREFIX, minRevision: await store.currentRevision() });
      // Within the window nothing is evicted, whatever the minimum count.
      assert.equal(cacher.stats().bufferedEvents, 6);
      clock.advance(1001);
      await put(store, 'a', 'x', 'last');
      await cacher.list({ prefix: PREFIX, minRevision: await store.currentRevision() });
      const oldest = cacher.stats().oldestRevision;
      assert.equal(cacher.stats().bufferedEvents, 3);
      const err = await cacher.watch({ prefix: PREFIX, afterRevision: oldest - 1n, signal }).catch((e: unknown) => e);
      assert.ok(err instanceof ResourceVersionTooOldError);
      assert.equal(err.message, `too old resource version: ${oldest - 1n} (${oldest})`);
      const ok = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: oldest, signal }));
      assert.equal((await ok.take(3)).length, 3);
    } finally {
      stop();
    }
  });

  it('ends a replaying watcher whose history is evicted before it reads it', async () => {
    const store = new MemoryStore();
    const clock = new ManualClock();
    const { cacher, stop, signal } = await startCacher(store, { clock, historyWindowMs: 10, minHistoryEvents: 2 });
    try {
      const start = cacher.revision;
      const watcher = await cacher.watch({ prefix: PREFIX, afterRevision: start, signal });
      for (let i = 0; i < 5; i++) {
        await put(store, 'a', `o${i}`, 'v');
        clock.advance(11);
      }
      await cacher.list({ prefix: PREFIX, minRevision: await store.currentRevision() });
      const outcome = await new EventReader(watcher).outcome();
      assert.ok(outcome instanceof ResourceVersionTooOldError, String(outcome));
    } finally {
      stop();
    }
  });

  it('waits for a start revision newer than the cache and delivers only later changes', async () => {
    const store = new MemoryStore();
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const now = cacher.revision;
      const reader = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: now + 2n, signal }));
      await put(store, 'a', 'x', '1');
      await put(store, 'a', 'y', '1');
      const third = await put(store, 'a', 'x', '2');
      assert.deepEqual((await reader.take(1)).map(describeEvent), [`MODIFIED a/x@${third}`]);
    } finally {
      stop();
    }
  });

  it('starts with the current state as ADDED events, then changes', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'x', '1');
    await put(store, 'b', 'y', '1');
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const snapshot = cacher.revision;
      const reader = new EventReader(await cacher.watch({ prefix: PREFIX, consistent: true, signal }));
      const next = await put(store, 'b', 'y', '2');
      assert.deepEqual((await reader.take(3)).map(describeEvent), [
        `ADDED a/x@${snapshot}`,
        `ADDED b/y@${snapshot}`,
        `MODIFIED b/y@${next}`,
      ]);
    } finally {
      stop();
    }
  });

  it('streams the initial events then one initial-events-end BOOKMARK (sendInitialEvents)', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 1200; i++) await put(store, 'a', `o${String(i).padStart(4, '0')}`, 'v');
    const { cacher, stop, signal } = await startCacher(store, { waitTimeoutMs: 300 });
    try {
      const min = await put(store, 'b', 'late', 'v');
      const watcher = await cacher.watch({
        prefix: PREFIX,
        afterRevision: min,
        sendInitialEvents: true,
        allowBookmarks: true,
        signal,
      });
      const reader = new EventReader(watcher, true);
      const initial = await reader.take(1201);
      assert.ok(initial.every((e) => e.type === 'ADDED' && e.revision === min));
      const end = await reader.take(1);
      assert.deepEqual(end, [{ type: 'BOOKMARK', revision: min, initialEventsEnd: true }]);
      const next = await put(store, 'a', 'o0000', 'v2');
      assert.deepEqual((await reader.take(1)).map(describeEvent), [`MODIFIED a/o0000@${next}`]);
      await assert.rejects(
        cacher.watch({ prefix: PREFIX, afterRevision: next + 50n, sendInitialEvents: true, signal }),
        TooLargeResourceVersionError,
      );
    } finally {
      stop();
    }
  });

  it('turns selector transitions into ADDED and DELETED events', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'x', '0', labelled('web'));
    await put(store, 'a', 'y', '0', labelled('db'));
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const filter = (o: TestObject) => o.metadata.labels?.app === 'web';
      const reader = new EventReader(await cacher.watch({ prefix: PREFIX, filter, signal }));
      const r1 = await put(store, 'a', 'y', '1', labelled('web'));
      const r2 = await put(store, 'a', 'x', '1', labelled('web'));
      const r3 = await put(store, 'a', 'x', '2', labelled('db'));
      await put(store, 'a', 'x', '3', labelled('db'));
      const r5 = await remove(store, 'a', 'y');
      await remove(store, 'a', 'x');
      const r7 = await put(store, 'b', 'z', '0', labelled('web'));
      const events = await reader.take(6);
      assert.deepEqual(events.map(describeEvent), [
        `ADDED a/x@${cacher.stats().oldestRevision}`,
        `ADDED a/y@${r1}`,
        `MODIFIED a/x@${r2}`,
        `DELETED a/x@${r3}`,
        `DELETED a/y@${r5}`,
        `ADDED b/z@${r7}`,
      ]);
      // Leaving the selector reports the new object; a deletion reports the last state at the deletion revision.
      const leave = events[3];
      assert.ok(leave.type === 'DELETED' && leave.object.data === '2');
      const gone = events[4];
      assert.ok(gone.type === 'DELETED' && gone.object.metadata.resourceVersion === r5.toString());
      assert.deepEqual(await reader.drain(20), []);
    } finally {
      stop();
    }
  });

  it('sends periodic bookmarks to idle watchers that allow them', async () => {
    const store = new MemoryStore();
    const { cacher, stop, signal } = await startCacher(store, { bookmarkIntervalMs: 40, progressIntervalMs: 20 });
    try {
      const withBookmarks = new EventReader(
        await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, allowBookmarks: true, signal }),
        true,
      );
      const without = new EventReader(
        await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal }),
        true,
      );
      // A write under another prefix: the cache learns the new revision from a progress notification.
      const other = (await store.create('/registry/core/secrets/a/s', new Uint8Array([123, 125]))).revision;
      const [bookmark] = await withBookmarks.take(1, 2000);
      assert.deepEqual(bookmark, { type: 'BOOKMARK', revision: other });
      assert.deepEqual(await without.drain(200), []);
      // No second bookmark while the revision stays the same.
      assert.deepEqual(await withBookmarks.drain(200), []);
    } finally {
      stop();
    }
  });

  it('terminates a watcher that stops reading, without holding back the others', async () => {
    const store = new MemoryStore();
    const { cacher, stop, signal } = await startCacher(store, { watcherBufferSize: 10 });
    try {
      const after = cacher.revision;
      const slow = await cacher.watch({ prefix: PREFIX, afterRevision: after, signal });
      const fast = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: after, signal }));
      // Both go live on their first read; the slow one then never reads again.
      await put(store, 'a', 'first', 'v');
      assert.equal((await slow.nextBatch())?.length, 1);
      assert.equal((await fast.take(1)).length, 1);
      const fastGot = fast.take(200);
      for (let i = 0; i < 200; i++) {
        await put(store, 'a', `o${i}`, 'v');
        assert.ok(slow.queued <= 10);
      }
      assert.equal((await fastGot).length, 200);
      await eventually(() => cacher.stats().watchers === 1, 2000, 'slow watcher removed');
      // The slow watcher still hands out what was queued before the overflow, then fails.
      const tail = new EventReader(slow);
      assert.equal((await tail.take(10)).length, 10);
      const outcome = await tail.outcome();
      assert.ok(outcome instanceof WatcherTooSlowError, String(outcome));
    } finally {
      stop();
    }
  });

  it('ends iteration when the watch is stopped, its signal aborts, or the cacher stops', async () => {
    const store = new MemoryStore();
    const { cacher, stop } = await startCacher(store);
    const own = new AbortController();
    const a = new EventReader(await cacher.watch({ prefix: PREFIX, signal: own.signal }));
    const b = await cacher.watch({ prefix: PREFIX, signal: new AbortController().signal });
    const c = new EventReader(await cacher.watch({ prefix: PREFIX, signal: new AbortController().signal }));
    own.abort();
    assert.equal(await a.outcome(), 'end');
    const events: string[] = [];
    setTimeout(() => b.stop(), 20);
    for await (const e of b) events.push(e.type);
    assert.deepEqual(events, []);
    stop();
    assert.equal(await c.outcome(), 'end');
    assert.equal(cacher.stats().watchers, 0);
  });
  it('shares event objects so each is encoded once per media type for all watchers', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'x', '0');
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const readers = await Promise.all(
        Array.from({ length: 50 }, async () => new EventReader(await cacher.watch({ prefix: PREFIX, signal }))),
      );
      await put(store, 'a', 'x', '1');
      const cache = new EncodingCache();
      let encodings = 0;
      const json = (o: TestObject) => {
        encodings++;
        return new TextEncoder().encode(JSON.stringify(o));
      };
      const outputs = new Set<string>();
      for (const reader of readers) {
        for (const e of await reader.take(2)) {
          if (e.type === 'BOOKMARK') continue;
          outputs.add(new TextDecoder().decode(cache.encode(e.object, 'application/json', json)));
          cache.encode(e.object, 'application/yaml', (o) => new TextEncoder().encode(`name: ${o.metadata.name}`));
        }
      }
      // The initial ADDED object is the one a list returns, too.
      const [listed] = (await cacher.list({ prefix: PREFIX })).items;
      cache.encode(listed, 'application/json', json);
      assert.equal(encodings, 1 + 1);
      assert.equal(outputs.size, 2);
      assert.deepEqual(cache.stats(), { hits: 50 * 2 * 2 - 4 + 1, misses: 4 });
    } finally {
      stop();
    }
  });
});
