import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryStore } from '../memory/memory-store.js';
import { WatcherTooSlowError } from './cacher-errors.js';
import {
  describe as describeEvent,
  eventually,
  PREFIX,
  put,
  startCacher,
  type TestObject,
} from './testing/cacher-fixtures.js';
import type { CacheWatcher } from './watcher.js';

type Watcher = CacheWatcher<TestObject>;

/** Takes a watcher's events synchronously from its listener; records how each poll ended. */
function listen(watcher: Watcher) {
  const seen: string[] = [];
  const outcome: { ended: boolean; error?: unknown } = { ended: false };
  let wakeUps = 0;
  const drain = (): void => {
    wakeUps++;
    for (;;) {
      let batch: ReturnType<Watcher['poll']>;
      try {
        batch = watcher.poll();
      } catch (e) {
        outcome.ended = true;
        outcome.error = e;
        return;
      }
      if (batch === null) return;
      if (batch === undefined) {
        outcome.ended = true;
        return;
      }
      for (const e of batch) seen.push(describeEvent(e));
    }
  };
  watcher.setListener({ wake: drain });
  drain();
  return { seen, outcome, wakeUps: () => wakeUps };
}

describe('CacheWatcher listener and poll', { timeout: 60_000 }, () => {
  it('wakes the listener within the dispatch of each change, which poll hands out in order', async () => {
    const store = new MemoryStore();
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const watcher = await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal });
      const l = listen(watcher);
      assert.deepEqual(l.seen, []);
      const revisions: bigint[] = [];
      for (let i = 0; i < 5; i++) revisions.push(await put(store, 'a', `o${i}`, String(i)));
      await eventually(() => l.seen.length === 5);
      assert.deepEqual(
        l.seen,
        revisions.map((r, i) => `ADDED a/o${i}@${r}`),
      );
      // Woken per change, never left with a queue: poll took everything each time.
      assert.equal(watcher.queued, 0);
      assert.ok(l.wakeUps() >= 5);
      assert.equal(watcher.poll(), null);
      watcher.stop();
      assert.equal(l.outcome.ended, true);
      assert.equal(l.outcome.error, undefined);
      assert.equal(watcher.poll(), undefined);
    } finally {
      stop();
    }
  });

  it('offers live events straight to the consumer while nothing is queued; a refusal queues them in order', async () => {
    const store = new MemoryStore();
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const watcher = await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal });
      const seen: string[] = [];
      let accepting = true;
      let wakeUps = 0;
      watcher.setListener({
        wake: () => {
          wakeUps++;
        },
        offer: (e) => {
          if (!accepting) return false;
          seen.push(`offered ${describeEvent(e)}`);
          return true;
        },
      });
      assert.equal(watcher.poll(), null);
      const r1 = await put(store, 'a', 'one', '1');
      await eventually(() => seen.length === 1);
      assert.equal(wakeUps, 0, 'a taken event wakes nobody');
      accepting = false;
      const r2 = await put(store, 'a', 'two', '2');
      await eventually(() => watcher.queued === 1);
      accepting = true;
      // Queued events come first: the next change is not offered past them.
      const r3 = await put(store, 'a', 'three', '3');
      await eventually(() => watcher.queued === 2);
      assert.ok(wakeUps >= 2);
      for (const e of watcher.poll() ?? []) seen.push(`polled ${describeEvent(e)}`);
      const r4 = await put(store, 'a', 'four', '4');
      await eventually(() => seen.length === 4);
      assert.deepEqual(seen, [
        `offered ADDED a/one@${r1}`,
        `polled ADDED a/two@${r2}`,
        `polled ADDED a/three@${r3}`,
        `offered ADDED a/four@${r4}`,
      ]);
      watcher.stop();
    } finally {
      stop();
    }
  });

  it('replays the initial state through poll before live changes', async () => {
    const store = new MemoryStore();
    const first = await put(store, 'a', 'x', '0');
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const watcher = await cacher.watch({ prefix: PREFIX, signal });
      const l = listen(watcher);
      assert.deepEqual(l.seen, [`ADDED a/x@${first}`]);
      const next = await put(store, 'a', 'y', '1');
      await eventually(() => l.seen.length === 2);
      assert.deepEqual(l.seen, [`ADDED a/x@${first}`, `ADDED a/y@${next}`]);
      watcher.stop();
    } finally {
      stop();
    }
  });

  it('ends a watcher whose consumer stops polling with WatcherTooSlowError once its queue is full', async () => {
    const store = new MemoryStore();
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const watcher = await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal, bufferSize: 3 });
      let wakeUps = 0;
      watcher.setListener({
        wake: () => {
          wakeUps++;
        },
      });
      assert.equal(watcher.poll(), null);
      for (let i = 0; i < 5; i++) await put(store, 'a', `o${i}`, String(i));
      await eventually(() => watcher.ended);
      assert.ok(wakeUps >= 4);
      // The queued events first, then the error, then the end.
      assert.equal(watcher.poll()?.length, 3);
      assert.throws(() => watcher.poll(), WatcherTooSlowError);
      assert.equal(watcher.poll(), undefined);
    } finally {
      stop();
    }
  });

  it('a throwing listener ends its own watcher only; the others keep receiving', async () => {
    const store = new MemoryStore();
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const broken = await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal });
      broken.setListener({
        wake: () => {
          throw new Error('consumer bug');
        },
      });
      assert.equal(broken.poll(), null);
      const healthy = await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal });
      const l = listen(healthy);
      const r1 = await put(store, 'a', 'one', '1');
      await eventually(() => l.seen.length === 1 && broken.ended);
      const r2 = await put(store, 'a', 'two', '2');
      await eventually(() => l.seen.length === 2);
      assert.deepEqual(l.seen, [`ADDED a/one@${r1}`, `ADDED a/two@${r2}`]);
      assert.equal(broken.poll()?.length, 1);
      assert.throws(() => broken.poll(), /consumer bug/);
      assert.equal(cacher.stats().watchers, 1);
      healthy.stop();
    } finally {
      stop();
    }
  });
});
