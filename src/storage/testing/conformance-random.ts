import assert from 'node:assert/strict';
import { ConflictError, KeyExistsError, NotFoundError } from '../errors.js';
import type { KeyValue } from '../store.js';
import type { ConformanceSuite } from './conformance-context.js';
import { bytes, expectError, seededRandom } from './conformance-helpers.js';
import { summarizeEvent, summarizeKv } from './store-model.js';

/** A seeded random workload checked against the reference model at every revision. */
export function registerRandomTests(suite: ConformanceSuite): void {
  const operations = suite.slow ? 1000 : 150;
  const seed = 20_241_122 + operations;

  suite.test(
    `${operations} random operations agree with a reference model at every revision (seed ${seed})`,
    async (t) => {
      const { store } = t;
      const random = seededRandom(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
      const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'a/x', 'a/y', 'b0', 'b.', 'zz'].map((k) => `/rnd/${k}`);
      const m = t.model();
      const r0 = await store.currentRevision();
      const w = t.watch('/rnd/', r0);
      for (let i = 0; i < operations; i++) {
        const key = pick(keys);
        const live = m.at(key);
        const roll = random();
        const what = `op ${i} on ${key}`;
        if (live === undefined) {
          if (roll < 0.15) await expectError(store.update(key, bytes('x')), NotFoundError, what);
          else if (roll < 0.2) await expectError(store.delete(key, m.lastRevision), NotFoundError, what);
          else await m.create(key, `v${i}`);
        } else if (roll < 0.1) {
          await expectError(store.create(key, bytes('x')), KeyExistsError, what);
        } else if (roll < 0.25) {
          const stale = live.modRevision - 1n - BigInt(Math.floor(random() * 3));
          const op = random() < 0.5 ? store.update(key, bytes('x'), stale) : store.delete(key, stale);
          const err = await expectError(op, ConflictError, what);
          assert.deepEqual(summarizeKv(err.current), live, `${what}: ConflictError.current`);
        } else if (roll < 0.75) {
          await m.update(key, `v${i}`, random() < 0.5 ? 'current' : undefined);
        } else {
          await m.delete(key, random() < 0.5 ? 'current' : undefined);
        }
      }
      assert.equal(await store.currentRevision(), m.lastRevision);

      for (const write of m.log) {
        const range = await store.range('/rnd/', { revision: write.revision });
        assert.deepEqual(range.kvs.map(summarizeKv), m.snapshot('/rnd/', write.revision), `range at ${write.revision}`);
      }
      for (let i = 0; i < 20; i++) {
        const revision = pick(m.log).revision;
        const limit = 1 + Math.floor(random() * 4);
        const prefix = pick(['/rnd/', '/rnd/a/', '/rnd/b']);
        const snapshot = m.snapshot(prefix, revision);
        const items: KeyValue[] = [];
        let startAfter: string | undefined;
        for (;;) {
          const page = await store.range(prefix, { revision, limit, startAfter });
          items.push(...page.kvs);
          const where = `${prefix} at ${revision}, limit ${limit}, after ${startAfter}`;
          assert.equal(page.remaining, snapshot.length - items.length, `${where}: remaining`);
          assert.equal(page.more, items.length < snapshot.length, `${where}: more`);
          if (!page.more) break;
          startAfter = page.kvs.at(-1)!.key;
        }
        assert.deepEqual(items.map(summarizeKv), snapshot, `pages of ${prefix} at ${revision}`);
      }
      for (const key of keys) {
        const write = pick(m.log);
        assert.deepEqual(summarizeKv(await store.get(key, { revision: write.revision })), m.at(key, write.revision));
      }
      assert.equal(await store.count('/rnd/'), m.snapshot('/rnd/').length);
      const expected = m.eventsAfter('/rnd/', r0);
      assert.deepEqual((await w.take(expected.length)).map(summarizeEvent), expected);
    },
  );
}
