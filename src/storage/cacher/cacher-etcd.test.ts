import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { UnavailableError } from '../errors.js';
import { type EtcdStore, openEtcdStore } from '../etcd/etcd-store.js';
import { type EtcdServerHandle, etcdSkipReason, startEtcdServer } from '../testing/etcd-server.js';
import { ResourceVersionTooOldError } from './cacher-errors.js';
import {
  decodeObject,
  describe as describeEvent,
  EventReader,
  eventually,
  PREFIX,
  put,
  remove,
  startCacher,
} from './testing/cacher-fixtures.js';
import { FaultStore } from './testing/fault-store.js';

const retryDelayMs = { initial: 20, max: 200 };

describe('Cacher on etcd', { skip: etcdSkipReason(), timeout: 120_000 }, () => {
  let server: EtcdServerHandle;
  const stores: EtcdStore[] = [];
  /** A store client on the shared etcd; stores opened with the same namespace see the same keys. */
  const open = async (keyNamespace: string): Promise<EtcdStore> => {
    const store = await openEtcdStore({
      endpoints: [server.endpoint],
      keyNamespace,
      callTimeoutMs: 1000,
      watchRetryBudgetMs: 1500,
    });
    stores.push(store);
    return store;
  };
  const namespace = () => `/cacher-test-${randomBytes(5).toString('hex')}`;

  before(async () => {
    server = await startEtcdServer();
  });
  after(async () => {
    for (const s of stores) await s.close();
    await server?.dispose();
  });

  it('keeps two API servers’ caches on one etcd in step with each other’s writes', async () => {
    const ns = namespace();
    const [storeA, storeB] = [await open(ns), await open(ns)];
    await put(storeA, 'a', 'seed', '0');
    const a = await startCacher(storeA, { retryDelayMs });
    const b = await startCacher(storeB, { retryDelayMs });
    try {
      const from = a.cacher.revision;
      const readerA = new EventReader(await a.cacher.watch({ prefix: PREFIX, afterRevision: from, signal: a.signal }));
      const readerB = new EventReader(await b.cacher.watch({ prefix: PREFIX, afterRevision: from, signal: b.signal }));
      // Each server writes through its own store, concurrently.
      await Promise.all([
        (async () => {
          for (let i = 0; i < 20; i++) await put(storeA, 'a', `from-a-${i % 5}`, String(i));
        })(),
        (async () => {
          for (let i = 0; i < 20; i++) {
            if (i % 4 === 3) await remove(storeB, 'b', `from-b-${i - 1}`);
            else await put(storeB, 'b', `from-b-${i}`, String(i));
          }
        })(),
      ]);
      const eventsA = (await readerA.take(40)).map(describeEvent);
      const eventsB = (await readerB.take(40)).map(describeEvent);
      assert.deepEqual(eventsA, eventsB);
      const revisions = eventsA.map((e) => BigInt(e.split('@')[1]));
      assert.deepEqual(
        revisions,
        [...revisions].sort((x, y) => (x < y ? -1 : 1)),
      );
      // Consistent lists on both servers equal etcd's own range.
      const want = (await storeA.range(PREFIX)).kvs.map(decodeObject);
      const [listA, listB] = await Promise.all([
        a.cacher.list({ prefix: PREFIX, consistent: true }),
        b.cacher.list({ prefix: PREFIX, consistent: true }),
      ]);
      assert.deepEqual(listA.items, want);
      assert.deepEqual(listB.items, want);
      assert.equal(listA.servedFrom, 'cache');
      // An Exact page at a past revision matches etcd's range at that revision on both servers.
      const past = revisions[17];
      const storePage = await storeB.range(PREFIX, { revision: past, limit: 4 });
      for (const cacher of [a.cacher, b.cacher]) {
        const page = await cacher.list({ prefix: PREFIX, exactRevision: past, limit: 4 });
        assert.deepEqual(page.items, storePage.kvs.map(decodeObject));
        assert.equal(page.remaining, storePage.remaining);
      }
    } finally {
      a.stop();
      b.stop();
    }
  });

  it('serves a consistent list from etcd at once while its cache has not seen a write elsewhere', async () => {
    const store = await open(namespace());
    await put(store, 'a', 'x', '1');
    // Neither the progress interval nor the wait timeout elapses in this test: a read that waited
    // for the cache to learn of the write elsewhere would not end.
    const c = await startCacher(store, { retryDelayMs, progressIntervalMs: 600_000, waitTimeoutMs: 600_000 });
    try {
      const other = (await store.create('/registry/core/secrets/a/s', new Uint8Array([123, 125]))).revision;
      const list = await c.cacher.list({ prefix: PREFIX, consistent: true });
      assert.equal(list.servedFrom, 'store');
      assert.ok(list.revision >= other, `revision ${list.revision} >= ${other}`);
      assert.deepEqual(
        list.items.map((o) => o.metadata.name),
        ['x'],
      );
      // A write under the prefix reaches the cache through its watch: consistent reads are the
      // cache's again.
      const own = await put(store, 'a', 'y', '2');
      await c.cacher.list({ prefix: PREFIX, minRevision: own });
      const cached = await c.cacher.list({ prefix: PREFIX, consistent: true });
      assert.equal(cached.servedFrom, 'cache');
      assert.deepEqual(
        cached.items.map((o) => o.metadata.name),
        ['x', 'y'],
      );
    } finally {
      c.stop();
    }
  });

  it('rides out an etcd restart: the watch resumes and watchers see every change once', async () => {
    const store = await open(namespace());
    const warnings: string[] = [];
    const logger = { info() {}, error() {}, warn: (msg: string) => warnings.push(msg) };
    const { cacher, stop, signal } = await startCacher(store, { retryDelayMs, logger });
    try {
      const reader = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal }));
      const r1 = await put(store, 'a', 'x', '1');
      assert.deepEqual((await reader.take(1)).map(describeEvent), [`ADDED a/x@${r1}`]);
      await server.stop();
      // Longer than the store's watch retry budget: the cacher's store watch fails for good.
      await new Promise((r) => setTimeout(r, 2000));
      await server.start();
      let r2 = 0n;
      await eventually(
        async () => {
          try {
            r2 = await put(store, 'a', 'x', '2');
            return true;
          } catch (e) {
            if (e instanceof UnavailableError) return false;
            throw e;
          }
        },
        10_000,
        'etcd back',
      );
      assert.deepEqual((await reader.take(1, 10_000)).map(describeEvent), [`MODIFIED a/x@${r2}`]);
      assert.ok(warnings.includes('watch cache resuming its watch'), warnings.join(', '));
      assert.equal(cacher.stats().lists, 1);
      assert.equal((await cacher.get(`${PREFIX}a/x`, { consistent: true })).object?.data, '2');
    } finally {
      stop();
    }
  });

  it('re-lists after its watch meets etcd compaction', async () => {
    const etcd = await open(namespace());
    const store = new FaultStore(etcd);
    await put(etcd, 'a', 'x', '0');
    const { cacher, stop, signal } = await startCacher(store, { retryDelayMs });
    try {
      const reader = new EventReader(await cacher.watch({ prefix: PREFIX, afterRevision: cacher.revision, signal }));
      store.holdWatches();
      store.failWatches(new UnavailableError('connection reset'));
      await put(etcd, 'a', 'y', '1');
      const target = await put(etcd, 'a', 'x', '1');
      await put(etcd, 'a', 'z', '1');
      await etcd.compact(target);
      store.releaseWatches();
      const outcome = await reader.outcome();
      assert.ok(outcome instanceof ResourceVersionTooOldError, String(outcome));
      await eventually(() => cacher.stats().lists === 2 && cacher.ready, 5000, 're-list');
      const listed = await cacher.list({ prefix: PREFIX, consistent: true });
      assert.deepEqual(listed.items, (await etcd.range(PREFIX)).kvs.map(decodeObject));
      assert.deepEqual(
        listed.items.map((o) => `${o.metadata.name}=${o.data}`),
        ['x=1', 'y=1', 'z=1'],
      );
    } finally {
      stop();
    }
  });
});
