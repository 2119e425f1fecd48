import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { CompactedError, RevisionTooNewError } from '../errors.js';
import type { Store, StoreEvent, StoreProgress } from '../store.js';
import { etcdSkipReason } from '../testing/etcd-server.js';
import { openEtcdStore } from './etcd-store.js';
import { createEtcdHarness } from './testing/etcd-harness.js';

const enc = (s: string) => new TextEncoder().encode(s);

describe('etcd compaction', { skip: etcdSkipReason() }, () => {
  const harness = createEtcdHarness();
  let raw: Etcd3 | undefined;
  after(async () => {
    raw?.close();
    await harness.dispose();
  });

  /** A second "server": its own client on the same etcd and key namespace. */
  async function peerOf(store: Store): Promise<Store> {
    return openEtcdStore({ endpoints: [(await harness.server()).endpoint], keyNamespace: harness.namespaceOf(store) });
  }

  async function rawClient(): Promise<Etcd3> {
    raw ??= new Etcd3({ hosts: (await harness.server()).endpoint });
    return raw;
  }

  async function writeSome(store: Store, n: number): Promise<bigint[]> {
    const revisions: bigint[] = [];
    for (let i = 0; i < n; i++)
      revisions.push((await store.create(`/registry/g/r/k${i}-${Date.now()}`, enc('v'))).revision);
    return revisions;
  }

  it('lets only one of several servers compact a revision; the others see CompactedError', async () => {
    const a = await harness.open();
    const b = await peerOf(a);
    const c = await peerOf(a);
    try {
      const revisions = await writeSome(a, 5);
      const target = revisions[3];
      const outcomes = await Promise.allSettled([a.compact(target), b.compact(target), c.compact(target)]);
      const summary = outcomes.map((o) => (o.status === 'fulfilled' ? 'ok' : String(o.reason))).join('; ');
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1, summary);
      for (const o of outcomes) {
        if (o.status === 'rejected') {
          assert.ok(o.reason instanceof CompactedError);
          assert.equal(o.reason.requestedRevision, target);
        }
      }
      for (const s of [a, b, c]) assert.equal(await s.compactedRevision(), target);
      await assert.rejects(b.compact(revisions[1]), CompactedError);
      await assert.rejects(a.get('/registry/g/r/none', { revision: target }), CompactedError);
      assert.equal(await a.get('/registry/g/r/none', { revision: target + 1n }), undefined);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('rejects future and non-positive revisions', async () => {
    const store = await harness.open();
    try {
      const current = await store.currentRevision();
      const err = await store.compact(current + 5n).catch((e: unknown) => e);
      assert.ok(err instanceof RevisionTooNewError);
      assert.equal(err.currentRevision, current);
      await assert.rejects(store.compact(0n), CompactedError);
      // The refused compaction wrote nothing.
      assert.equal(await store.currentRevision(), current);
    } finally {
      await store.close();
    }
  });

  it('reports compactions made by other etcd clients (etcdctl, auto-compaction)', async () => {
    const store = await harness.open();
    try {
      const revisions = await writeSome(store, 4);
      // etcd keeps its compaction revision itself readable: the Store's compacted revision is one less.
      await (await rawClient()).kv.compact({ revision: revisions[2].toString() });
      assert.equal(await store.compactedRevision(), revisions[2] - 1n);
      const err = await store.range('/registry/g/', { revision: revisions[1] }).catch((e: unknown) => e);
      assert.ok(err instanceof CompactedError);
      assert.equal(err.compactedRevision, revisions[2] - 1n);
      assert.equal((await store.range('/registry/g/', { revision: revisions[2] })).kvs.length, 3);
      // Compacting below what etcd already dropped is refused like a second compaction.
      await assert.rejects(store.compact(revisions[1]), CompactedError);
      await store.compact(revisions[3]);
      assert.equal(await store.compactedRevision(), revisions[3]);
    } finally {
      await store.close();
    }
  });

  it('reports what etcd enforces when a server claimed a compaction but died before running it', async () => {
    const store = await harness.open();
    try {
      const revisions = await writeSome(store, 3);
      await store.compact(revisions[0]);
      const key = `${harness.namespaceOf(store)}/registry/compact_rev_key`;
      await (await rawClient()).put(key).value(revisions[2].toString().padStart(20, '0'));
      assert.equal(await store.compactedRevision(), revisions[0]);
      // The claim blocks lower compactions, as kube-apiserver's does; higher ones proceed.
      await assert.rejects(store.compact(revisions[1]), CompactedError);
      const next = (await writeSome(store, 1))[0];
      await store.compact(next);
      assert.equal(await store.compactedRevision(), next);
    } finally {
      await store.close();
    }
  });

  it('keeps its coordination key out of group ranges and watches', async () => {
    const store = await harness.open();
    const controller = new AbortController();
    try {
      const start = await store.currentRevision();
      const items: Array<StoreEvent | StoreProgress> = [];
      const watching = (async () => {
        for await (const item of store.watch('/registry/g/', { afterRevision: start, signal: controller.signal })) {
          items.push(item);
        }
      })();
      const seen = async (revision: bigint) => {
        const deadline = Date.now() + 5000;
        while (!items.some((i) => i.revision === revision) && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      const { revision } = await store.create('/registry/g/r/x', enc('x'));
      // Compact only once the watch is past the revision, or it would rightly fail as compacted.
      await seen(revision);
      await store.compact(revision);
      const last = (await store.create('/registry/g/r/y', enc('y'))).revision;
      await seen(last);
      controller.abort();
      await watching;
      assert.deepEqual(
        items.map((i) => (i.type === 'progress' ? 'progress' : i.key)),
        ['/registry/g/r/x', '/registry/g/r/y'],
      );
      assert.deepEqual(
        (await store.range('/registry/g/')).kvs.map((kv) => kv.key),
        ['/registry/g/r/x', '/registry/g/r/y'],
      );
    } finally {
      controller.abort();
      await store.close();
    }
  });
});
