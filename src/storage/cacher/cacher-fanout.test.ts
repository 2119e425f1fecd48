import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryStore } from '../memory/memory-store.js';
import {
  describe as describeEvent,
  EventReader,
  PREFIX,
  put,
  startCacher,
  type TestObject,
} from './testing/cacher-fixtures.js';
import type { CacheWatchEvent } from './types.js';
import type { CacheWatcher } from './watcher.js';

/** Takes events synchronously as the dispatcher hands them over, recording the turn of each. */
function recorder(watcher: CacheWatcher<TestObject>, onEvent?: () => void) {
  const got: string[] = [];
  const wake = (): void => {
    for (let b = watcher.poll(); b; b = watcher.poll()) for (const e of b) got.push(describeEvent(e));
  };
  watcher.setListener({
    wake,
    offer(e: CacheWatchEvent<TestObject>) {
      got.push(describeEvent(e));
      onEvent?.();
      return true;
    },
  });
  // The first poll catches up and joins live dispatch.
  wake();
  return got;
}

describe('Cacher fan-out to many watchers', { timeout: 60_000 }, () => {
  it('gives every watcher every change once, in order, when changes arrive during a fan-out', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'seed', '0');
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const start = cacher.revision;
      const watchers = await Promise.all(
        Array.from({ length: 700 }, () => cacher.watch({ prefix: PREFIX, afterRevision: start, signal })),
      );
      const logs = watchers.map((w) => recorder(w));
      // Writes back to back: later changes reach the cache while earlier ones are being fanned out.
      const revisions = await Promise.all(Array.from({ length: 20 }, (_, i) => put(store, 'a', `o${i}`, `v${i}`)));
      const want = [...revisions].sort((x, y) => (x < y ? -1 : 1)).map((r) => `ADDED a/o${revisions.indexOf(r)}@${r}`);
      // A watcher that starts while the fan-outs run catches up from the buffer and skips nothing.
      const late = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: start, signal }));
      const deadline = Date.now() + 10_000;
      while (logs.some((l) => l.length < want.length) && Date.now() < deadline)
        await new Promise((r) => setImmediate(r));
      for (const [i, log] of logs.entries()) assert.deepEqual(log, want, `watcher ${i}`);
      assert.deepEqual((await late.take(want.length)).map(describeEvent), want);
      assert.deepEqual(await late.drain(50), []);
    } finally {
      stop();
    }
  });

  it('lets the first watchers have a change before the last ones are written', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'seed', '0');
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const start = cacher.revision;
      const watchers = await Promise.all(
        Array.from({ length: 1000 }, () => cacher.watch({ prefix: PREFIX, afterRevision: start, signal })),
      );
      // Counted in the turn after the first watcher got the change, before the next pass.
      let first: number | undefined;
      const logs: string[][] = watchers.map((w, i) =>
        recorder(w, () => {
          if (i === 0) setImmediate(() => (first = logs.filter((l) => l.length === 1).length));
        }),
      );
      await put(store, 'a', 'x', '1');
      const deadline = Date.now() + 10_000;
      while (logs.some((l) => l.length < 1) && Date.now() < deadline) await new Promise((r) => setImmediate(r));
      assert.ok(logs.every((l) => l.length === 1));
      assert.ok(first !== undefined && first > 0 && first < 1000, `${first} of 1000 had it after the first pass`);
    } finally {
      stop();
    }
  });

  it('sends no bookmark during a fan-out that is still under way', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'seed', '0');
    const { cacher, stop, signal } = await startCacher(store, { bookmarkIntervalMs: 1 });
    try {
      const start = cacher.revision;
      const watchers = await Promise.all(
        Array.from({ length: 600 }, () =>
          cacher.watch({ prefix: PREFIX, afterRevision: start, signal, allowBookmarks: true }),
        ),
      );
      const logs = watchers.map((w) => recorder(w));
      for (let i = 0; i < 10; i++) await put(store, 'a', `o${i}`, `v${i}`);
      const deadline = Date.now() + 10_000;
      while (logs.some((l) => l.filter((e) => !e.startsWith('BOOKMARK')).length < 10) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 2));
      }
      for (const log of logs) {
        // Every bookmark's revision is at or below the changes that follow it.
        let seen = 0n;
        for (const e of log) {
          const revision = BigInt(e.slice(e.lastIndexOf('@') + 1));
          assert.ok(revision >= seen, `${e} after revision ${seen}: ${log.join(', ')}`);
          seen = revision;
        }
        assert.equal(log.filter((e) => !e.startsWith('BOOKMARK')).length, 10);
      }
    } finally {
      stop();
    }
  });
});
