import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type CompactorClock, startCompactor } from './compactor.js';
import { CompactedError } from './errors.js';
import { type LmdbStore, openLmdbStore } from './lmdb/lmdb-store.js';

const root = mkdtempSync(join(tmpdir(), 'orch-compactor-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const value = new Uint8Array([1]);

async function withStore(body: (store: LmdbStore) => Promise<void>): Promise<void> {
  const store = await openLmdbStore({ path: join(root, `s${dirs++}`), noSync: true });
  try {
    await body(store);
  } finally {
    await store.close();
  }
}

/** A clock whose ticks the test releases one at a time. */
class ManualClock implements CompactorClock {
  private release: (() => void) | undefined;
  private waiting: (() => void) | undefined;
  readonly intervals: number[] = [];

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    this.intervals.push(ms);
    return new Promise((resolve, reject) => {
      this.release = resolve;
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      this.waiting?.();
    });
  }

  /** Lets the sleeping compactor run one tick and waits until it sleeps again. */
  async tick(): Promise<void> {
    await this.sleeping();
    const release = this.release!;
    this.release = undefined;
    const next = new Promise<void>((resolve) => {
      this.waiting = resolve;
    });
    release();
    await next;
  }

  async sleeping(): Promise<void> {
    if (this.release) return;
    await new Promise<void>((resolve) => {
      this.waiting = resolve;
    });
  }
}

describe('startCompactor', () => {
  it('compacts, each tick, to the revision it observed on the previous tick', async () => {
    await withStore(async (store) => {
      const clock = new ManualClock();
      const controller = new AbortController();
      const compactor = startCompactor({ store, intervalMs: 60_000, clock, signal: controller.signal });
      for (let i = 0; i < 3; i++) await store.create(`/k${i}`, value);

      await clock.tick(); // observes 3, nothing to compact yet
      assert.equal(await store.compactedRevision(), 0n);
      for (let i = 3; i < 5; i++) await store.create(`/k${i}`, value);

      await clock.tick(); // compacts to 3, observes 5
      assert.equal(await store.compactedRevision(), 3n);
      await assert.rejects(store.get('/k0', { revision: 3n }), CompactedError);
      assert.ok(await store.get('/k0', { revision: 4n }), 'the last interval of history is kept');

      await clock.tick(); // compacts to 5 (idle since), observes 5
      assert.equal(await store.compactedRevision(), 5n);
      await clock.tick(); // nothing new: no compaction, no error
      assert.equal(await store.compactedRevision(), 5n);
      await store.create('/k5', value);
      await clock.tick(); // observes 6
      assert.equal(await store.compactedRevision(), 5n);
      await clock.tick();
      assert.equal(await store.compactedRevision(), 6n);
      assert.ok(clock.intervals.every((ms) => ms === 60_000));

      controller.abort();
      await compactor.stopped;
    });
  });

  it('tolerates a store compacted further by someone else and keeps going', async () => {
    await withStore(async (store) => {
      const clock = new ManualClock();
      const controller = new AbortController();
      const warnings: string[] = [];
      const logger = {
        info() {},
        warn: (msg: string) => warnings.push(msg),
        error: (msg: string) => warnings.push(msg),
      };
      const compactor = startCompactor({ store, intervalMs: 1_000, clock, logger, signal: controller.signal });
      for (let i = 0; i < 4; i++) await store.create(`/k${i}`, value);
      await clock.tick(); // observes 4
      await store.compact(4n); // another API server got there first
      await store.create('/k4', value);
      await clock.tick(); // its compaction to 4 is already done; observes 5
      await clock.tick(); // compacts to 5
      assert.equal(await store.compactedRevision(), 5n);
      assert.deepEqual(warnings, []);
      controller.abort();
      await compactor.stopped;
    });
  });

  it('runs on real timers with a short interval and stops when aborted', async () => {
    await withStore(async (store) => {
      const controller = new AbortController();
      const compactor = startCompactor({ store, intervalMs: 25, signal: controller.signal });
      let written = 0;
      const deadline = Date.now() + 5_000;
      while ((await store.compactedRevision()) === 0n && Date.now() < deadline) {
        await store.create(`/t/k${written++}`, value);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const compacted = await store.compactedRevision();
      assert.ok(compacted > 0n, 'compacted within 5 s');
      assert.ok(compacted < (await store.currentRevision()), 'history newer than one interval is kept');
      controller.abort();
      await compactor.stopped;
      const after = await store.compactedRevision();
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(await store.compactedRevision(), after, 'no compaction after stop');
    });
  });

  it('rejects a non-positive interval', () => {
    assert.throws(
      () => startCompactor({ store: {} as LmdbStore, intervalMs: 0, signal: new AbortController().signal }),
      RangeError,
    );
  });
});
