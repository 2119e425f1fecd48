import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  CompactedError,
  ConflictError,
  CorruptValueError,
  KeyExistsError,
  NotFoundError,
  RevisionTooNewError,
} from '../errors.js';
import type { Store } from '../store.js';
import { runStoreConformance } from '../testing/conformance.js';
import { etcdSkipReason } from '../testing/etcd-server.js';
import { openEtcdStore } from './etcd-store.js';
import { createEtcdHarness } from './testing/etcd-harness.js';

const skip = etcdSkipReason();
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

if (!skip) runStoreConformance(createEtcdHarness());

describe('etcd store', { skip }, () => {
  const harness = createEtcdHarness();
  after(() => harness.dispose());

  async function withStore(fn: (store: Store) => Promise<void>): Promise<void> {
    const store = await harness.open();
    try {
      await fn(store);
    } finally {
      await store.close();
    }
  }

  it('creates, reads and refuses a second create', () =>
    withStore(async (store) => {
      const before = await store.currentRevision();
      const { revision } = await store.create('/registry/core/pods/ns/a', enc('one'));
      assert.ok(revision > before);
      assert.equal(await store.currentRevision(), revision);
      const kv = await store.get('/registry/core/pods/ns/a');
      assert.deepEqual(kv, {
        key: '/registry/core/pods/ns/a',
        value: enc('one'),
        createRevision: revision,
        modRevision: revision,
      });
      await assert.rejects(store.create('/registry/core/pods/ns/a', enc('two')), KeyExistsError);
      assert.equal(await store.get('/registry/core/pods/ns/missing'), undefined);
    }));

  it('guards updates by modRevision and reports the current value on conflict', () =>
    withStore(async (store) => {
      const key = '/registry/core/configmaps/ns/c';
      const created = await store.create(key, enc('v1'));
      const updated = await store.update(key, enc('v2'), created.revision);
      assert.ok(updated.revision > created.revision);
      const err = await store.update(key, enc('v3'), created.revision).then(
        () => assert.fail('expected a conflict'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof ConflictError);
      assert.equal(err.expectedModRevision, created.revision);
      assert.equal(err.current?.modRevision, updated.revision);
      assert.equal(dec(err.current?.value ?? new Uint8Array()), 'v2');
      // Unconditional update still needs the key.
      const blind = await store.update(key, enc('v4'));
      assert.equal(dec((await store.get(key))?.value ?? new Uint8Array()), 'v4');
      assert.equal((await store.get(key))?.createRevision, created.revision);
      assert.ok(blind.revision > updated.revision);
    }));

  it('never creates a key through update, whatever the expected revision', () =>
    withStore(async (store) => {
      const key = '/registry/core/configmaps/ns/none';
      await assert.rejects(store.update(key, enc('x')), NotFoundError);
      await assert.rejects(store.update(key, enc('x'), 0n), NotFoundError);
      await assert.rejects(store.update(key, enc('x'), 5n), NotFoundError);
      await assert.rejects(store.delete(key), NotFoundError);
      await assert.rejects(store.delete(key, 0n), NotFoundError);
      assert.equal(await store.get(key), undefined);
    }));

  it('deletes guarded or unconditionally and returns the deleted value', () =>
    withStore(async (store) => {
      const a = await store.create('/registry/g/r/a', enc('A'));
      await store.create('/registry/g/r/b', enc('B'));
      await assert.rejects(store.delete('/registry/g/r/a', a.revision + 100n), ConflictError);
      const del = await store.delete('/registry/g/r/a', a.revision);
      assert.ok(del.revision > a.revision);
      assert.equal(dec(del.prev.value), 'A');
      assert.equal(del.prev.modRevision, a.revision);
      const delB = await store.delete('/registry/g/r/b');
      assert.equal(dec(delB.prev.value), 'B');
      assert.equal(await store.count('/registry/g/r/'), 0);
    }));

  it('lets exactly one of many concurrent guarded updates win', () =>
    withStore(async (store) => {
      const key = '/registry/g/r/contended';
      const { revision } = await store.create(key, enc('0'));
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => store.update(key, enc(String(i + 1)), revision)),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof ConflictError);
    }));

  it('reads past revisions and rejects future ones', () =>
    withStore(async (store) => {
      const key = '/registry/g/r/h';
      const v1 = await store.create(key, enc('v1'));
      const v2 = await store.update(key, enc('v2'), v1.revision);
      await store.delete(key);
      assert.equal(dec((await store.get(key, { revision: v1.revision }))?.value ?? enc('')), 'v1');
      assert.equal(dec((await store.get(key, { revision: v2.revision }))?.value ?? enc('')), 'v2');
      assert.equal(await store.get(key), undefined);
      const current = await store.currentRevision();
      const err = await store.get(key, { revision: current + 10n }).catch((e: unknown) => e);
      assert.ok(err instanceof RevisionTooNewError);
      assert.equal(err.currentRevision, current);
      await assert.rejects(store.range('/registry/g/', { revision: current + 10n }), RevisionTooNewError);
    }));

  it('pages ranges with limit, startAfter, more and remaining at a fixed revision', async () => {
    // A tiny page size makes the store assemble results from several etcd requests.
    for (const rangePageSize of [3, 10_000]) {
      const store = await harness.open();
      try {
        const small = (await openEtcdStore({
          endpoints: [(await harness.server()).endpoint],
          keyNamespace: harness.namespaceOf(store),
          rangePageSize,
        })) as Store;
        try {
          const names = Array.from({ length: 10 }, (_, i) => `/registry/g/items/n${String(i).padStart(2, '0')}`);
          for (const n of names) await store.create(n, enc(n));
          await store.create('/registry/g/itemsx', enc('not under the prefix'));
          const snapshot = await small.currentRevision();
          await store.create('/registry/g/items/n99', enc('after the snapshot'));

          const all = await small.range('/registry/g/items/', { revision: snapshot });
          assert.deepEqual(
            all.kvs.map((kv) => kv.key),
            names,
          );
          assert.deepEqual(
            { revision: all.revision, more: all.more, remaining: all.remaining },
            {
              revision: snapshot,
              more: false,
              remaining: 0,
            },
          );

          const page1 = await small.range('/registry/g/items/', { revision: snapshot, limit: 4 });
          assert.deepEqual(
            page1.kvs.map((kv) => kv.key),
            names.slice(0, 4),
          );
          assert.equal(page1.more, true);
          assert.equal(page1.remaining, 6);
          const page2 = await small.range('/registry/g/items/', {
            revision: snapshot,
            limit: 4,
            startAfter: page1.kvs[3].key,
          });
          assert.deepEqual(
            page2.kvs.map((kv) => kv.key),
            names.slice(4, 8),
          );
          assert.equal(page2.remaining, 2);
          const page3 = await small.range('/registry/g/items/', {
            revision: snapshot,
            limit: 4,
            startAfter: page2.kvs[3].key,
          });
          assert.deepEqual(
            page3.kvs.map((kv) => kv.key),
            names.slice(8),
          );
          assert.deepEqual([page3.more, page3.remaining], [false, 0]);

          const latest = await small.range('/registry/g/items/', { limit: 20 });
          assert.equal(latest.kvs.length, 11);
          assert.equal(latest.revision, await small.currentRevision());
          assert.equal(await small.count('/registry/g/items/'), 11);
          const beyond = await small.range('/registry/g/items/', { startAfter: '/registry/g/items/zzz' });
          assert.deepEqual([beyond.kvs.length, beyond.more, beyond.remaining], [0, false, 0]);
        } finally {
          await small.close();
        }
      } finally {
        await store.close();
      }
    }
  });

  it('round-trips a 1.5 MiB value and ranges beyond the 4 MiB gRPC default', () =>
    withStore(async (store) => {
      const big = new Uint8Array(1.5 * 1024 * 1024).map((_, i) => i % 251);
      await store.create('/registry/g/big/one', big);
      assert.deepEqual((await store.get('/registry/g/big/one'))?.value, big);

      const value = new Uint8Array(1024).fill(120);
      const n = 5000;
      for (let i = 0; i < n; i += 100) {
        await Promise.all(
          Array.from({ length: 100 }, (_, j) =>
            store.create(`/registry/g/many/k${String(i + j).padStart(5, '0')}`, value),
          ),
        );
      }
      const all = await store.range('/registry/g/many/');
      assert.equal(all.kvs.length, n);
      assert.equal(all.kvs[n - 1].key, '/registry/g/many/k04999');
      assert.deepEqual(all.kvs[0].value, value);
    }));

  it('reports values written by a foreign writer as corrupt items without failing the range', () =>
    withStore(async (store) => {
      await store.create('/registry/g/c/a', enc('fine'));
      await store.create('/registry/g/c/b', enc('to be damaged'));
      await store.create('/registry/g/c/c', enc('fine too'));
      await harness.corrupt(store, '/registry/g/c/b');
      const err = await store.get('/registry/g/c/b').catch((e: unknown) => e);
      assert.ok(err instanceof CorruptValueError);
      assert.equal(err.key, '/registry/g/c/b');
      const res = await store.range('/registry/g/c/');
      assert.deepEqual(
        res.kvs.map((kv) => [kv.key, kv.corrupt?.code ?? dec(kv.value)]),
        [
          ['/registry/g/c/a', 'fine'],
          ['/registry/g/c/b', 'CorruptValue'],
          ['/registry/g/c/c', 'fine too'],
        ],
      );
      // A corrupt value can still be replaced or deleted.
      const current = res.kvs[1];
      await store.update('/registry/g/c/b', enc('repaired'), current.modRevision);
      assert.equal(dec((await store.get('/registry/g/c/b'))?.value ?? enc('')), 'repaired');
    }));

  it('keeps stores with different key namespaces apart', async () => {
    const a = await harness.open();
    const b = await harness.open();
    try {
      await a.create('/registry/g/r/x', enc('a'));
      assert.equal(await b.get('/registry/g/r/x'), undefined);
      assert.equal((await b.range('/registry/')).kvs.length, 0);
      await b.create('/registry/g/r/x', enc('b'));
      assert.equal(dec((await a.get('/registry/g/r/x'))?.value ?? enc('')), 'a');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('rejects calls after an abort and after close', async () => {
    const store = await harness.open();
    const aborted = AbortSignal.abort();
    await assert.rejects(store.create('/registry/g/r/x', enc('x'), aborted), { name: 'AbortError' });
    await assert.rejects(store.get('/registry/g/r/x', { signal: aborted }), { name: 'AbortError' });
    await store.close();
    await assert.rejects(store.get('/registry/g/r/x'), { code: 'Unavailable' });
  });

  it('fails reads below the compacted revision with the compacted revision', () =>
    withStore(async (store) => {
      const key = '/registry/g/r/old';
      const v1 = await store.create(key, enc('v1'));
      const v2 = await store.update(key, enc('v2'));
      await store.compact(v1.revision);
      assert.ok((await store.compactedRevision()) >= v1.revision);
      const err = await store.get(key, { revision: v1.revision }).catch((e: unknown) => e);
      assert.ok(err instanceof CompactedError);
      assert.equal(err.requestedRevision, v1.revision);
      assert.equal(err.compactedRevision, await store.compactedRevision());
      await assert.rejects(store.range('/registry/g/', { revision: v1.revision }), CompactedError);
      assert.equal(dec((await store.get(key, { revision: v2.revision }))?.value ?? enc('')), 'v2');
    }));
});
