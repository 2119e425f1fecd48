import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CompactedError } from '../errors.js';
import type { Store } from '../store.js';
import { seededRandom } from '../testing/conformance-helpers.js';
import { StoreModel, summarizeKv } from '../testing/store-model.js';
import { type LmdbStore, openLmdbStore } from './lmdb-store.js';
import { assertLmdbInvariants } from './testing/lmdb-invariants.js';

const root = mkdtempSync(join(tmpdir(), 'orch-lmdb-reopen-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A Store that forwards to whichever store instance is current, so a model survives a reopen. */
function forwarding(current: () => Store): Store {
  return new Proxy({} as Store, {
    get(_target, name) {
      const store = current() as unknown as Record<PropertyKey, unknown>;
      const member = store[name];
      return typeof member === 'function' ? member.bind(store) : member;
    },
  });
}

describe('lmdb store: key index rebuilt from the log', () => {
  it('agrees with a reference model at every readable revision across reopens and compactions', async () => {
    const path = join(root, 'store');
    const random = seededRandom(20_261_122);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const keys = Array.from({ length: 16 }, (_, i) => `/m/${String.fromCharCode(97 + (i % 8))}${i >= 8 ? '/x' : ''}`);
    let store: LmdbStore = await openLmdbStore({ path, noSync: true });
    const model = new StoreModel(forwarding(() => store));
    let compacted = 0n;
    let reopens = 0;

    const verify = async (label: string) => {
      assertLmdbInvariants(store);
      assert.equal(await store.currentRevision(), model.lastRevision, `${label}: current revision`);
      for (const prefix of ['/m/', '/m/a', '/m/b/']) {
        const latest = await store.range(prefix);
        assert.deepEqual(latest.kvs.map(summarizeKv), model.snapshot(prefix), `${label}: latest range of ${prefix}`);
        assert.equal(await store.count(prefix), latest.kvs.length, `${label}: count of ${prefix}`);
      }
      for (const write of model.log) {
        if (write.revision <= compacted) {
          await assert.rejects(store.range('/m/', { revision: write.revision }), CompactedError);
          continue;
        }
        const range = await store.range('/m/', { revision: write.revision });
        assert.deepEqual(
          range.kvs.map(summarizeKv),
          model.snapshot('/m/', write.revision),
          `${label}: at ${write.revision}`,
        );
        // Paged at the same revision: the same items, and `remaining` counts the rest exactly.
        const page = await store.range('/m/', { revision: write.revision, limit: 2 });
        const all = model.snapshot('/m/', write.revision);
        assert.deepEqual(page.kvs.map(summarizeKv), all.slice(0, 2), `${label}: page at ${write.revision}`);
        assert.equal(page.remaining, Math.max(0, all.length - 2), `${label}: remaining at ${write.revision}`);
        for (const key of [pick(keys), pick(keys)]) {
          assert.deepEqual(
            summarizeKv(await store.get(key, { revision: write.revision })),
            model.at(key, write.revision),
            `${label}: ${key} at ${write.revision}`,
          );
        }
      }
    };

    try {
      for (let i = 1; i <= 600; i++) {
        const key = pick(keys);
        if (model.at(key) === undefined) await model.create(key, `v${i}`);
        else if (random() < 0.6) await model.update(key, `v${i}`, random() < 0.5 ? 'current' : undefined);
        else await model.delete(key, random() < 0.5 ? 'current' : undefined);

        if (i % 7 === 0) {
          // A burst of writes queued in one turn: several pending on the index at once.
          const fresh = keys.filter((k) => model.at(k) === undefined).slice(0, 3);
          await Promise.all(fresh.map((k) => model.create(k, `burst${i}`)));
        }
        if (i % 90 === 0) {
          // Compact somewhere between the last compaction and a few revisions below the latest.
          const span = Number((await store.currentRevision()) - compacted) - 5;
          if (span > 0) {
            const target = compacted + 1n + BigInt(Math.floor(random() * span));
            await store.compact(target);
            compacted = target;
          }
        }
        if (i % 130 === 0) {
          await verify(`before reopen at op ${i}`);
          await store.close();
          store = await openLmdbStore({ path, noSync: true });
          reopens++;
          await verify(`after reopen at op ${i}`);
        }
      }
      await verify('at the end');
      assert.equal(reopens, 4);
      assert.ok(compacted > 100n, `compacted up to ${compacted}`);
    } finally {
      await store.close();
    }
  });
});
