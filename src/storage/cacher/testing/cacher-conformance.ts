import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { seededRandom } from '../../../util/testing/seeded-random.js';
import type { Store, StoreEvent } from '../../store.js';
import type { BackendHarness } from '../../testing/backend-harness.js';
import {
  decodeObject,
  describe as describeEvent,
  EventReader,
  keyOf,
  PREFIX,
  put,
  remove,
  startCacher,
} from './cacher-fixtures.js';

function describeStoreEvent(ev: StoreEvent): string {
  const [ns, name] = ev.key.slice(PREFIX.length).split('/');
  const type = ev.type === 'delete' ? 'DELETED' : ev.prev ? 'MODIFIED' : 'ADDED';
  return `${type} ${ns}/${name}@${ev.revision}`;
}

async function storeEvents(store: Store, after: bigint, until: bigint): Promise<string[]> {
  const out: string[] = [];
  if (after >= until) return out;
  // Bounded: a missing event fails the comparison instead of hanging the suite.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  for await (const ev of store.watch(PREFIX, { afterRevision: after, signal: controller.signal })) {
    if (ev.type === 'progress') continue;
    out.push(describeStoreEvent(ev));
    if (ev.revision >= until) break;
  }
  clearTimeout(timer);
  controller.abort();
  return out;
}

/**
 * The cacher-versus-store conformance suite: over a real backend, the cacher must answer exactly
 * what the store answers — consistent lists, Exact pages at past revisions, and watches replayed
 * from a past revision — under a random workload with deletes and a write outside its prefix.
 */
export function runCacherConformance(harness: BackendHarness): void {
  describe(`cacher over ${harness.name}`, { timeout: 120_000 }, () => {
    after(() => harness.dispose());

    it('answers lists, Exact pages and watches exactly as the store does', async () => {
      const store = await harness.open();
      const next = seededRandom(11);
      try {
        for (let i = 0; i < 20; i++) await put(store, `ns${i % 3}`, `o${i}`, 'v0');
        const { cacher, stop, signal } = await startCacher(store, { retryDelayMs: { initial: 20, max: 200 } });
        try {
          const from = cacher.revision;
          const reader = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: from, signal }));
          const revisions: bigint[] = [];
          for (let step = 0; step < 120; step++) {
            const ns = `ns${Math.floor(next() * 3)}`;
            const name = `o${Math.floor(next() * 30)}`;
            if ((await store.get(keyOf(ns, name))) !== undefined && next() < 0.3) await remove(store, ns, name);
            else await put(store, ns, name, `v${step}`);
            if (step % 15 === 0) revisions.push(await store.currentRevision());
          }
          const lastInPrefix = await store.currentRevision();
          await store.create('/registry/core/secrets/ns0/s', new TextEncoder().encode('{}'));
          const until = await store.currentRevision();
          const consistent = await cacher.list({ prefix: PREFIX, consistent: true });
          assert.ok(consistent.revision >= until);
          assert.deepEqual(consistent.items, (await store.range(PREFIX)).kvs.map(decodeObject));
          for (const revision of revisions) {
            for (const prefix of [PREFIX, `${PREFIX}ns1/`]) {
              const want = await store.range(prefix, { revision, limit: 6 });
              const got = await cacher.list({ prefix, exactRevision: revision, limit: 6 });
              assert.equal(got.servedFrom, 'cache');
              assert.deepEqual(got.items, want.kvs.map(decodeObject));
              assert.equal(got.remaining, want.remaining);
              assert.equal(got.more, want.more);
            }
          }
          const want = await storeEvents(store, from, lastInPrefix);
          assert.deepEqual((await reader.take(want.length)).map(describeEvent), want);
          const replay = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: revisions[2], signal }));
          const wantReplay = await storeEvents(store, revisions[2], lastInPrefix);
          assert.deepEqual((await replay.take(wantReplay.length)).map(describeEvent), wantReplay);
        } finally {
          stop();
        }
      } finally {
        await store.close();
      }
    });
  });
}
