import assert from 'node:assert/strict';
import { ConflictError } from '../errors.js';
import type { KeyValue } from '../store.js';
import type { ConformanceSuite } from './conformance-context.js';
import { bytes, text, withTimeout } from './conformance-helpers.js';
import { summarizeKv } from './store-model.js';

const INCREMENTERS = 50;

/** Guarded read-modify-write under contention, and snapshot pagination under concurrent writes. */
export function registerConcurrencyTests(suite: ConformanceSuite): void {
  suite.test(
    `${INCREMENTERS} concurrent read-modify-write increments of one key all apply exactly once`,
    async ({ store }) => {
      const key = '/rmw/counter';
      await store.create(key, bytes('0'));
      let conflicts = 0;
      const applied: bigint[] = [];
      // Every worker reads before any writes, so all but one of the first attempts must conflict.
      let arrived = 0;
      let release!: () => void;
      const barrier = new Promise<void>((resolve) => {
        release = resolve;
      });
      const worker = async (): Promise<void> => {
        let kv: KeyValue | undefined = await store.get(key);
        if (++arrived === INCREMENTERS) release();
        await barrier;
        for (let attempt = 0; attempt < 10 * INCREMENTERS; attempt++) {
          assert.ok(kv, 'counter disappeared');
          const n = Number(text(kv.value));
          assert.ok(Number.isInteger(n), `counter value ${text(kv.value)}`);
          try {
            applied.push((await store.update(key, bytes(String(n + 1)), kv.modRevision)).revision);
            return;
          } catch (err) {
            if (!(err instanceof ConflictError)) throw err;
            conflicts++;
            assert.ok(err.current, 'ConflictError.current must carry the current value');
            assert.equal(err.current.key, key);
            assert.ok(
              err.current.modRevision > kv.modRevision,
              `ConflictError.current.modRevision ${err.current.modRevision} must be newer than ${kv.modRevision}`,
            );
            kv = err.current;
          }
        }
        assert.fail('worker gave up after too many conflicts');
      };
      await withTimeout(Promise.all(Array.from({ length: INCREMENTERS }, worker)), 25_000, 'increments');
      const final = await store.get(key);
      assert.equal(text(final!.value), String(INCREMENTERS));
      assert.equal(new Set(applied).size, INCREMENTERS, 'each applied update has its own revision');
      let maxApplied = 0n;
      for (const revision of applied) if (revision > maxApplied) maxApplied = revision;
      assert.equal(final!.modRevision, maxApplied);
      assert.ok(conflicts >= INCREMENTERS - 1, `expected at least ${INCREMENTERS - 1} conflicts, saw ${conflicts}`);
    },
  );

  suite.test('a paginated range at revision R returns exactly that snapshot while writes continue', async (t) => {
    const m = t.model();
    const key = (i: number) => `/page/k${String(i).padStart(2, '0')}`;
    for (let i = 0; i < 25; i++) await m.create(key(i), `v${i}`);
    await m.create('/pagex/k', 'outside');
    const revision = m.lastRevision;
    const snapshot = m.snapshot('/page/', revision);
    assert.equal(snapshot.length, 25);

    // Writes between pages: ahead of the cursor, behind it, and keys new to the range.
    const between: ((page: number) => Promise<unknown>)[] = [
      async () => {
        await m.update(key(10), 'changed');
        await m.delete(key(15));
        await m.create('/page/k07a', 'new-inside');
        await m.create('/page/k99', 'new-after');
        await m.delete(key(3));
        await m.create('/page/a', 'new-before');
      },
      async () => {
        await m.update(key(20), 'changed');
        await m.update(key(20), 'changed-again');
        await m.delete(key(14));
        await m.create('/page/k14', 'recreated');
      },
      async () => {
        await m.delete(key(22));
        await m.update(key(24), 'changed');
      },
    ];
    const pages: KeyValue[][] = [];
    let startAfter: string | undefined;
    for (let page = 0; ; page++) {
      const result = await t.store.range('/page/', { revision, limit: 7, startAfter });
      const consumed = pages.flat().length + result.kvs.length;
      assert.equal(result.revision, revision, `page ${page} revision`);
      assert.deepEqual(
        result.kvs.map(summarizeKv),
        snapshot.slice(consumed - result.kvs.length, consumed),
        `page ${page} items`,
      );
      assert.equal(result.remaining, snapshot.length - consumed, `page ${page} remaining`);
      assert.equal(result.more, consumed < snapshot.length, `page ${page} more`);
      pages.push(result.kvs);
      if (!result.more) break;
      startAfter = result.kvs.at(-1)!.key;
      await between[page]?.(page);
    }
    assert.deepEqual(
      pages.map((p) => p.length),
      [7, 7, 7, 4],
    );
    const past = await t.store.range('/page/', { revision, limit: 7, startAfter: key(24) });
    assert.deepEqual(past.kvs, []);
    assert.equal(past.more, false);
    assert.equal(past.remaining, 0);

    // The same at the latest revision, around the boundaries of `limit` and `startAfter`.
    const latest = m.snapshot('/page/');
    const n = latest.length;
    const whole = await t.store.range('/page/', { limit: n });
    assert.deepEqual(whole.kvs.map(summarizeKv), latest);
    assert.equal(whole.more, false);
    assert.equal(whole.remaining, 0);
    assert.equal(whole.revision, m.lastRevision);
    const allButOne = await t.store.range('/page/', { limit: n - 1 });
    assert.deepEqual(allButOne.kvs.map(summarizeKv), latest.slice(0, n - 1));
    assert.equal(allButOne.more, true);
    assert.equal(allButOne.remaining, 1);
    const fromGap = await t.store.range('/page/', { limit: 3, startAfter: '/page/k12a' });
    const gapIndex = latest.findIndex((kv) => kv.key > '/page/k12a');
    assert.deepEqual(fromGap.kvs.map(summarizeKv), latest.slice(gapIndex, gapIndex + 3), 'startAfter a missing key');
    assert.equal(fromGap.remaining, n - gapIndex - 3);
    const beforePrefix = await t.store.range('/page/', { limit: 2, startAfter: '/pag' });
    assert.deepEqual(beforePrefix.kvs.map(summarizeKv), latest.slice(0, 2), 'startAfter below the prefix');
    assert.equal(beforePrefix.remaining, n - 2);
  });
}
