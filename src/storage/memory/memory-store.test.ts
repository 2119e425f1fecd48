import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompactedError, NotFoundError, RevisionTooNewError } from '../errors.js';
import type { Store } from '../store.js';
import type { BackendHarness } from '../testing/backend-harness.js';
import { runStoreConformance } from '../testing/conformance.js';
import { bytes, expectError, seededRandom, text } from '../testing/conformance-helpers.js';
import { MemoryStore } from './memory-store.js';

function memoryHarness(name: string, corruptInPlace: boolean): BackendHarness {
  const stores = new Set<MemoryStore>();
  const asMemory = (store: Store): MemoryStore => {
    if (!(store instanceof MemoryStore)) throw new TypeError('not a MemoryStore');
    return store;
  };
  return {
    name,
    async open() {
      const store = new MemoryStore();
      stores.add(store);
      return store;
    },
    async corrupt(store, key) {
      asMemory(store).corruptRecord(key, { inPlace: corruptInPlace });
    },
    async stopBackend() {
      for (const store of stores) store.setAvailable(false);
    },
    async startBackend() {
      for (const store of stores) store.setAvailable(true);
    },
    async dispose() {
      stores.clear();
    },
  };
}

runStoreConformance(memoryHarness('memory', false));
runStoreConformance(memoryHarness('memory (in-place corruption)', true));

describe('MemoryStore', () => {
  it('compaction releases superseded versions, deleted keys and log entries', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 100; i++) await store.create(`/k/${i}`, bytes('1'));
    for (let round = 0; round < 3; round++) for (let i = 0; i < 100; i++) await store.update(`/k/${i}`, bytes('2'));
    for (let i = 0; i < 50; i++) await store.delete(`/k/${i}`);
    assert.deepEqual(store.stats(), { indexedKeys: 100, liveKeys: 50, logEntries: 450, watchers: 0 });
    const current = await store.currentRevision();
    await store.compact(current - 10n);
    assert.deepEqual(store.stats(), { indexedKeys: 60, liveKeys: 50, logEntries: 10, watchers: 0 });
    await store.compact(current);
    assert.deepEqual(store.stats(), { indexedKeys: 50, liveKeys: 50, logEntries: 0, watchers: 0 });
    // Reading at the compacted revision itself fails; the latest still reads.
    await expectError(store.range('/k/', { revision: current }), CompactedError, 'range at the compacted revision');
    const range = await store.range('/k/');
    assert.equal(range.revision, current);
    assert.equal(range.kvs.length, 50);
    assert.ok(range.kvs.every((kv) => kv.createRevision <= 100n && text(kv.value) === '2'));
  });

  it('compact rejects a future or already compacted revision, like etcd', async () => {
    const store = new MemoryStore();
    await store.create('/a', bytes('1'));
    await store.create('/b', bytes('1'));
    await expectError(store.compact(3n), RevisionTooNewError, 'future');
    await store.compact(1n);
    const err = await expectError(store.compact(1n), CompactedError, 'again');
    assert.equal(err.compactedRevision, 1n);
  });

  it('aborted and ended watches unregister', async () => {
    const store = new MemoryStore();
    const controller = new AbortController();
    const iterator = store.watch('/', { afterRevision: 0n, signal: controller.signal })[Symbol.asyncIterator]();
    const pending = iterator.next();
    await store.create('/a', bytes('1'));
    assert.equal((await pending).done, false);
    assert.equal(store.stats().watchers, 1);
    controller.abort();
    assert.equal(store.stats().watchers, 0);
    assert.equal((await iterator.next()).done, true);
    const other = store.watch('/', { afterRevision: 0n, signal: new AbortController().signal })[Symbol.asyncIterator]();
    await other.next();
    await other.return?.();
    assert.equal(store.stats().watchers, 0);
  });

  it('copies values so callers cannot alter stored bytes', async () => {
    const store = new MemoryStore();
    const input = bytes('abc');
    await store.create('/a', input);
    input[0] = 0x7a;
    const got = await store.get('/a');
    assert.equal(text(got!.value), 'abc');
    got!.value[1] = 0x7a;
    assert.equal(text((await store.get('/a'))!.value), 'abc');
  });

  it('corruptRecord of an absent key fails with NotFoundError', () => {
    const store = new MemoryStore();
    assert.throws(() => store.corruptRecord('/none'), NotFoundError);
  });

  it('pages through 100k keys quickly at the latest and at a past revision', async () => {
    const store = new MemoryStore({ copyValues: false });
    const random = seededRandom(42);
    const names = Array.from({ length: 100_000 }, (_, i) => `/big/ns${i % 10}/obj-${Math.floor(random() * 1e9)}-${i}`);
    const value = bytes('x'.repeat(64));
    for (const name of names) await store.create(name, value);
    const past = await store.currentRevision();
    for (let i = 0; i < 1000; i++) await store.update(names[i * 7], value);
    const prefix = '/big/ns3/';
    const total = names.filter((n) => n.startsWith(prefix)).length;
    const started = performance.now();
    let pages = 0;
    for (const revision of [undefined, past]) {
      let startAfter: string | undefined;
      let seen = 0;
      for (;;) {
        const page = await store.range(prefix, { revision, limit: 50, startAfter });
        pages++;
        seen += page.kvs.length;
        assert.equal(page.remaining, total - seen);
        if (!page.more) break;
        startAfter = page.kvs.at(-1)!.key;
      }
      assert.equal(seen, total);
    }
    const elapsed = performance.now() - started;
    // A range that rescanned or re-sorted the 100k keys per page would take seconds here.
    assert.ok(elapsed < 2_000, `${pages} pages took ${elapsed.toFixed(0)} ms`);
    assert.equal(await store.count(prefix), total);
  });
});
