import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnavailableError } from '../errors.js';
import { MemoryStore } from '../memory/memory-store.js';
import { Cacher } from './cacher.js';
import { CacherNotReadyError, ResourceVersionTooOldError } from './cacher-errors.js';
import {
  decodeObject,
  describe as describeEvent,
  EventReader,
  eventually,
  PREFIX,
  put,
  remove,
  startCacher,
  type TestObject,
} from './testing/cacher-fixtures.js';
import { FaultStore } from './testing/fault-store.js';

const retryDelayMs = { initial: 10, max: 50 };

describe('Cacher failure handling', { timeout: 60_000 }, () => {
  it('resumes a failed store watch from its revision, without re-listing or disturbing watchers', async () => {
    const memory = new MemoryStore();
    const store = new FaultStore(memory);
    await put(memory, 'a', 'x', '0');
    const { cacher, stop, signal } = await startCacher(store, { retryDelayMs });
    try {
      const reader = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal }));
      const r1 = await put(memory, 'a', 'x', '1');
      assert.deepEqual((await reader.take(1)).map(describeEvent), [`MODIFIED a/x@${r1}`]);
      store.holdWatches();
      store.failWatches(new UnavailableError('backend restarting'));
      // Changes while the cacher's watch is down arrive after it reconnects, in order, once.
      const r2 = await put(memory, 'a', 'y', '1');
      const r3 = await remove(memory, 'a', 'x');
      store.releaseWatches();
      assert.deepEqual((await reader.take(2)).map(describeEvent), [`ADDED a/y@${r2}`, `DELETED a/x@${r3}`]);
      assert.equal(cacher.stats().lists, 1);
      assert.equal(store.watchesStarted, 2);
      assert.deepEqual(
        (await cacher.list({ prefix: PREFIX })).items.map((o) => o.metadata.name),
        ['y'],
      );
    } finally {
      stop();
    }
  });

  it('re-lists when its watch fell behind compaction and ends the watchers it cannot serve', async () => {
    const memory = new MemoryStore();
    const store = new FaultStore(memory);
    await put(memory, 'a', 'x', '0');
    const { cacher, stop, signal } = await startCacher(store, { retryDelayMs });
    try {
      const before = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal }));
      store.holdWatches();
      store.failWatches(new UnavailableError('backend restarting'));
      await put(memory, 'a', 'y', '1');
      await remove(memory, 'a', 'x');
      const compactTo = await put(memory, 'b', 'z', '1');
      await memory.compact(compactTo);
      for (let i = 0; i < 10; i++) await put(memory, 'b', `n${i}`, '1');
      store.releaseWatches();
      // The resumed watch meets the real CompactedError; the cacher lists again.
      const outcome = await before.outcome();
      assert.ok(outcome instanceof ResourceVersionTooOldError, String(outcome));
      await eventually(() => cacher.stats().lists === 2 && cacher.ready, 2000, 're-list');
      const listed = await cacher.list({ prefix: PREFIX });
      assert.deepEqual(
        listed.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`),
        ['a/y', 'b/n0', 'b/n1', 'b/n2', 'b/n3', 'b/n4', 'b/n5', 'b/n6', 'b/n7', 'b/n8', 'b/n9', 'b/z'],
      );
      assert.deepEqual(listed.items, (await memory.range(PREFIX)).kvs.map(decodeObject));
      // A watch from before the re-list is too old; one from the new list works.
      await assert.rejects(
        cacher.watch({ prefix: PREFIX, afterRevision: compactTo - 1n, signal }),
        ResourceVersionTooOldError,
      );
      const after = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal }));
      const next = await put(memory, 'a', 'y', '2');
      assert.deepEqual((await after.take(1)).map(describeEvent), [`MODIFIED a/y@${next}`]);
      assert.equal(cacher.stats().watchers, 1);
    } finally {
      stop();
    }
  });

  it('falls back to the store while not ready, and fails watches with CacherNotReadyError', async () => {
    const memory = new MemoryStore();
    await put(memory, 'a', 'x', '0');
    memory.setAvailable(false);
    const controller = new AbortController();
    const cacher = new Cacher<TestObject>({
      store: memory,
      prefix: PREFIX,
      decode: decodeObject,
      // The first list fails at once; the retry comes after the reads below.
      retryDelayMs: { initial: 600, max: 600 },
      readyTimeoutMs: 100,
    });
    const started = cacher.start(controller.signal);
    try {
      const err = await cacher.watch({ prefix: PREFIX, signal: controller.signal }).catch((e: unknown) => e);
      assert.ok(err instanceof CacherNotReadyError, String(err));
      assert.equal(err.retryAfterSeconds, 1);
      // The store itself is down: the fallback read reports that.
      await assert.rejects(cacher.list({ prefix: PREFIX }), UnavailableError);
      memory.setAvailable(true);
      const fromStore = await cacher.list({ prefix: PREFIX });
      assert.equal(fromStore.servedFrom, 'store');
      assert.deepEqual(
        fromStore.items.map((o) => o.metadata.name),
        ['x'],
      );
      assert.equal((await cacher.get(`${PREFIX}a/x`)).object?.data, '0');
      await started;
      assert.equal((await cacher.list({ prefix: PREFIX })).servedFrom, 'cache');
      assert.ok(cacher.ready);
    } finally {
      controller.abort();
    }
    // A stopped cacher serves nothing from memory.
    await eventually(() => !cacher.ready, 1000, 'stopped');
    assert.equal((await cacher.list({ prefix: PREFIX })).servedFrom, 'store');
    await assert.rejects(cacher.watch({ prefix: PREFIX, signal: new AbortController().signal }), CacherNotReadyError);
  });
});
