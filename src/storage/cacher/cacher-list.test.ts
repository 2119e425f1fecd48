import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../util/testing/seeded-random.js';
import { CorruptValueError } from '../errors.js';
import { createLmdbHarness } from '../lmdb/testing/lmdb-harness.js';
import { MemoryStore } from '../memory/memory-store.js';
import { ResourceVersionTooOldError, TooLargeResourceVersionError } from './cacher-errors.js';
import { decodeObject, keyOf, PREFIX, put, remove, startCacher, type TestObject } from './testing/cacher-fixtures.js';

const names = (items: readonly TestObject[]) => items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`);

describe('Cacher lists', { timeout: 120_000 }, () => {
  it('serves the initial state, namespace prefixes and gets from memory', async () => {
    const store = new MemoryStore();
    await put(store, 'b', 'x', '1');
    await put(store, 'a', 'y', '2');
    const last = await put(store, 'a', 'x', '3');
    await store.create('/registry/core/secrets/a/s', new Uint8Array([123, 125]));
    const { cacher, stop } = await startCacher(store);
    try {
      const all = await cacher.list({ prefix: PREFIX });
      assert.deepEqual(names(all.items), ['a/x', 'a/y', 'b/x']);
      assert.equal(all.revision, await store.currentRevision());
      assert.equal(all.servedFrom, 'cache');
      assert.deepEqual(names((await cacher.list({ prefix: `${PREFIX}a/` })).items), ['a/x', 'a/y']);
      const got = await cacher.get(keyOf('a', 'x'));
      assert.equal(got.object?.data, '3');
      assert.equal(got.object?.metadata.resourceVersion, last.toString());
      assert.equal((await cacher.get(keyOf('a', 'zz'))).object, undefined);
      await assert.rejects(cacher.list({ prefix: '/registry/core/secrets/' }), RangeError);
      assert.equal(cacher.stats().objects, 3);
    } finally {
      stop();
    }
  });

  it('waits for the cache to reach minRevision and serves consistent reads', async () => {
    const store = new MemoryStore();
    const { cacher, stop } = await startCacher(store);
    try {
      const rev = await put(store, 'a', 'x', '1');
      // No yield between the write and the read: the cache cannot have seen the write yet.
      const fresh = await cacher.list({ prefix: PREFIX, minRevision: rev });
      assert.ok(fresh.revision >= rev);
      assert.deepEqual(names(fresh.items), ['a/x']);
      await put(store, 'a', 'y', '1');
      const consistent = await cacher.list({ prefix: PREFIX, consistent: true });
      assert.deepEqual(names(consistent.items), ['a/x', 'a/y']);
      assert.equal(consistent.servedFrom, 'cache');
      // A write elsewhere moves the store's revision; the progress notification moves the cache's.
      const other = (await store.create('/registry/core/secrets/a/s', new Uint8Array([123, 125]))).revision;
      const afterOther = await cacher.list({ prefix: PREFIX, consistent: true });
      assert.equal(afterOther.revision, other);
      const got = await cacher.get(keyOf('a', 'y'), { minRevision: other });
      assert.equal(got.object?.metadata.name, 'y');
    } finally {
      stop();
    }
  });

  for (const backend of ['memory', 'lmdb'] as const) {
    it(`asks the store (${backend}) for progress when a consistent read finds the revision moved elsewhere`, async () => {
      const lmdb = createLmdbHarness();
      const store = backend === 'memory' ? new MemoryStore() : await lmdb.open();
      await put(store, 'a', 'x', '1');
      // No progress interval elapses in this test: only a progress asked for can move the cache.
      const { cacher, stop } = await startCacher(store, { progressIntervalMs: 600_000, waitTimeoutMs: 20_000 });
      try {
        for (let i = 0; i < 3; i++) {
          const other = (await store.create(`/registry/core/secrets/a/s${i}`, new Uint8Array([123, 125]))).revision;
          const started = performance.now();
          const list = await cacher.list({ prefix: PREFIX, consistent: true });
          assert.equal(list.revision, other);
          assert.equal(list.servedFrom, 'cache');
          assert.deepEqual(names(list.items), ['a/x']);
          // Far below the wait timeout, which a read left to the progress interval would reach.
          assert.ok(performance.now() - started < 10_000);
        }
      } finally {
        stop();
        await store.close();
        await lmdb.dispose();
      }
    });
  }

  it('moves its state version with each change of its objects, not with progress elsewhere', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'x', '1');
    const { cacher, stop } = await startCacher(store);
    try {
      const loaded = cacher.stateVersion;
      const rev = await put(store, 'a', 'y', '1');
      await cacher.list({ prefix: PREFIX, minRevision: rev });
      const afterPut = cacher.stateVersion;
      assert.notEqual(afterPut, loaded);
      const other = (await store.create('/registry/core/secrets/a/s', new Uint8Array([123, 125]))).revision;
      await cacher.list({ prefix: PREFIX, minRevision: other });
      assert.equal(cacher.revision, other);
      assert.equal(cacher.stateVersion, afterPut, 'a write to another resource changes nothing cached here');
      const gone = await remove(store, 'a', 'x');
      await cacher.list({ prefix: PREFIX, minRevision: gone });
      assert.notEqual(cacher.stateVersion, afterPut);
    } finally {
      stop();
    }
  });

  it('fails a revision the store does not have with TooLargeResourceVersionError after the wait', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'x', '1');
    const { cacher, stop } = await startCacher(store, { waitTimeoutMs: 200 });
    try {
      const future = (await store.currentRevision()) + 100n;
      const started = Date.now();
      const err = await cacher.list({ prefix: PREFIX, minRevision: future }).catch((e: unknown) => e);
      const waited = Date.now() - started;
      assert.ok(err instanceof TooLargeResourceVersionError, String(err));
      assert.match(err.message, /^Too large resource version: \d+, current: \d+$/);
      assert.equal(err.retryAfterSeconds, 1);
      assert.ok(waited >= 190 && waited < 1500, `waited ${waited} ms`);
      await assert.rejects(cacher.get(keyOf('a', 'x'), { minRevision: future }), TooLargeResourceVersionError);
      await assert.rejects(cacher.list({ prefix: PREFIX, exactRevision: future }), TooLargeResourceVersionError);
    } finally {
      stop();
    }
  });

  it('reads Exact pages at past revisions identical to the store, under random writes', async () => {
    const store = new MemoryStore();
    const next = seededRandom(7);
    const namespaces = ['a', 'b', 'c'];
    const revisions: bigint[] = [];
    for (let i = 0; i < 60; i++) await put(store, namespaces[i % 3], `o${i}`, 'v0');
    const { cacher, stop } = await startCacher(store);
    try {
      for (let step = 0; step < 400; step++) {
        const ns = namespaces[Math.floor(next() * 3)];
        const name = `o${Math.floor(next() * 90)}`;
        const exists = (await store.get(keyOf(ns, name))) !== undefined;
        if (exists && next() < 0.35) await remove(store, ns, name);
        else await put(store, ns, name, `v${step}`, { parity: String(step % 2) });
        if (step % 20 === 0) revisions.push(await store.currentRevision());
      }
      await cacher.list({ prefix: PREFIX, minRevision: await store.currentRevision() });
      revisions.push(cacher.revision);
      let compared = 0;
      for (const revision of revisions) {
        for (const prefix of [PREFIX, `${PREFIX}b/`]) {
          for (const limit of [0, 1, 7, 25]) {
            let startAfter: string | undefined;
            for (let page = 0; page < 40; page++) {
              const want = await store.range(prefix, { revision, limit, startAfter });
              const got = await cacher.list({ prefix, exactRevision: revision, limit, startAfter });
              assert.equal(got.servedFrom, 'cache');
              assert.equal(got.revision, revision);
              assert.deepEqual(got.items, want.kvs.map(decodeObject), `rev ${revision} ${prefix} limit ${limit}`);
              assert.equal(got.more, want.more);
              assert.equal(got.remaining, want.remaining);
              compared++;
              if (!want.more) break;
              startAfter = want.kvs[want.kvs.length - 1].key;
              assert.equal(got.lastKey, startAfter);
            }
          }
        }
      }
      assert.ok(compared > 200, `compared ${compared} pages`);
    } finally {
      stop();
    }
  });

  it('keeps a paginated list on one snapshot while writes continue', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 300; i++) await put(store, `ns${i % 4}`, `obj-${String(i).padStart(4, '0')}`, 'v0');
    const { cacher, stop } = await startCacher(store);
    try {
      const first = await cacher.list({ prefix: PREFIX, consistent: true, limit: 40 });
      const snapshot = first.revision;
      const want = (await store.range(PREFIX, { revision: snapshot })).kvs.map(decodeObject);
      const items = [...first.items];
      let page = first;
      let i = 0;
      while (page.more) {
        // Between pages: update an item already read, delete one not read yet, create new ones.
        const unread = want[want.length - 1 - i];
        await put(store, 'ns1', `obj-${String(i * 4 + 1).padStart(4, '0')}`, `changed-${i}`);
        await remove(store, unread.metadata.namespace, unread.metadata.name);
        await put(store, 'ns0', `new-${i}`, 'v1');
        await put(store, 'ns9', `new-${i}`, 'v1');
        i++;
        await cacher.list({ prefix: PREFIX, minRevision: await store.currentRevision() });
        assert.equal(page.remaining, want.length - items.length);
        page = await cacher.list({ prefix: PREFIX, exactRevision: snapshot, limit: 40, startAfter: page.lastKey });
        assert.equal(page.revision, snapshot);
        assert.equal(page.servedFrom, 'cache');
        items.push(...page.items);
      }
      assert.deepEqual(items, want);
      assert.ok(i >= 7);
      assert.ok(cacher.revision > snapshot);
    } finally {
      stop();
    }
  });

  it('serves Exact revisions older than the history from the store, or fails them as too old', async () => {
    const store = new MemoryStore();
    const old = await put(store, 'a', 'x', 'old');
    await put(store, 'a', 'y', 'old');
    const { cacher, stop } = await startCacher(store, { historyWindowMs: 0, minHistoryEvents: 2 });
    const strict = await startCacher(store, { historyWindowMs: 0, minHistoryEvents: 2, fallbackToStore: false });
    try {
      for (let i = 0; i < 5; i++) await put(store, 'a', 'x', `v${i}`);
      await cacher.list({ prefix: PREFIX, minRevision: await store.currentRevision() });
      await strict.cacher.list({ prefix: PREFIX, minRevision: await store.currentRevision() });
      assert.ok(cacher.stats().oldestRevision > old);
      const fromStore = await cacher.list({ prefix: PREFIX, exactRevision: old });
      assert.equal(fromStore.servedFrom, 'store');
      assert.deepEqual(
        fromStore.items.map((o) => o.data),
        ['old'],
      );
      const err = await strict.cacher.list({ prefix: PREFIX, exactRevision: old }).catch((e: unknown) => e);
      assert.ok(err instanceof ResourceVersionTooOldError, String(err));
      assert.equal(err.message, `too old resource version: ${old} (${strict.cacher.stats().oldestRevision})`);
      await store.compact(old + 1n);
      const compacted = await cacher.list({ prefix: PREFIX, exactRevision: old }).catch((e: unknown) => e);
      assert.ok(compacted instanceof ResourceVersionTooOldError, String(compacted));
      assert.equal(compacted.oldestRevision, old + 2n);
    } finally {
      stop();
      strict.stop();
    }
  });

  it('pages filtered lists without empty last pages and without a remaining count', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 30; i++)
      await put(store, 'a', `o${String(i).padStart(2, '0')}`, 'v', { even: String(i % 2 === 0) });
    const { cacher, stop } = await startCacher(store);
    try {
      const filter = (o: TestObject) => o.metadata.labels?.even === 'true';
      const seen: string[] = [];
      let page = await cacher.list({ prefix: PREFIX, limit: 5, filter });
      for (;;) {
        assert.ok(page.items.length > 0);
        assert.equal(page.remaining, undefined);
        seen.push(...page.items.map((o) => o.metadata.name));
        if (!page.more) break;
        page = await cacher.list({
          prefix: PREFIX,
          exactRevision: page.revision,
          limit: 5,
          filter,
          startAfter: page.lastKey,
        });
      }
      assert.equal(seen.length, 15);
      assert.ok(seen.every((n) => Number(n.slice(1)) % 2 === 0));
      // The 15th even item is o28: nothing after it matches, so the third page says no more.
      const all = await cacher.list({ prefix: PREFIX, limit: 15, filter });
      assert.equal(all.more, false);
    } finally {
      stop();
    }
  });

  it('reports an unreadable value to the reads that include it', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'x', '1');
    await store.create(keyOf('b', 'bad'), new TextEncoder().encode('not json'));
    const { cacher, stop } = await startCacher(store);
    try {
      await assert.rejects(cacher.list({ prefix: PREFIX }), /JSON|Unexpected/);
      assert.deepEqual(names((await cacher.list({ prefix: `${PREFIX}a/` })).items), ['a/x']);
      await put(store, 'a', 'y', '1');
      store.corruptRecord(keyOf('a', 'y'));
      await cacher.get(keyOf('a', 'x'), { minRevision: await store.currentRevision() });
      await assert.rejects(cacher.get(keyOf('a', 'y')), CorruptValueError);
    } finally {
      stop();
    }
  });

  it('hands every reader the same object instance, typed read-only', async () => {
    const store = new MemoryStore();
    await put(store, 'a', 'x', '1', { app: 'web' });
    const { cacher, stop, signal } = await startCacher(store);
    try {
      const listedItems = (await cacher.list({ prefix: PREFIX })).items;
      const [listed] = listedItems;
      const { object: got } = await cacher.get(keyOf('a', 'x'));
      const watcher = await cacher.watch({ prefix: PREFIX, signal });
      const [initial] = (await watcher.nextBatch()) ?? [];
      watcher.stop();
      assert.ok(listed !== undefined && got === listed);
      assert.equal(initial?.type === 'ADDED' && initial.object, listed);
      // Shared by every reader: the compiler rejects writes at any depth (checked by typecheck,
      // never run).
      const writes = (items: typeof listedItems) => {
        // @ts-expect-error read-only
        listed.data = 'changed';
        // @ts-expect-error read-only
        listed.metadata.name = 'changed';
        // @ts-expect-error read-only
        if (listed.metadata.labels) listed.metadata.labels.app = 'changed';
        // @ts-expect-error a read-only list
        items.push(listed);
      };
      assert.equal(typeof writes, 'function');
    } finally {
      stop();
    }
  });
});
