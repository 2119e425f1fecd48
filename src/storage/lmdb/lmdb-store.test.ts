import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CompactedError, CorruptValueError, UnavailableError } from '../errors.js';
import type { StoreEvent, StoreProgress } from '../store.js';
import { runStoreConformance } from '../testing/conformance.js';
import { markCompacted } from './lmdb-compaction.js';
import { EMPTY_BYTES, META_REVISION, openEnv, readCompaction } from './lmdb-env.js';
import { InvalidKeyError, MAX_KEY_BYTES } from './lmdb-keys.js';
import { type LmdbStore, openLmdbStore } from './lmdb-store.js';
import { createLmdbHarness } from './testing/lmdb-harness.js';
import { assertLmdbInvariants } from './testing/lmdb-invariants.js';

runStoreConformance(createLmdbHarness());

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (s: string) => enc.encode(s);
const text = (v: Uint8Array) => dec.decode(v);

const root = mkdtempSync(join(tmpdir(), 'orch-lmdb-test-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const newDir = () => join(root, `s${dirs++}`);

async function withStore(
  body: (store: LmdbStore, dir: string) => Promise<void>,
  options: { maxWatchQueue?: number; noSync?: boolean } = {},
): Promise<void> {
  const dir = newDir();
  const store = await openLmdbStore({ path: dir, noSync: options.noSync ?? true, ...options });
  try {
    await body(store, dir);
  } finally {
    await store.close();
  }
}

/** Reads `n` changes (skipping progress) from a watch iterator, failing after `ms`. */
async function take(
  iterator: AsyncIterator<StoreEvent | StoreProgress>,
  n: number,
  ms = 10_000,
): Promise<StoreEvent[]> {
  const events: StoreEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`got ${events.length} of ${n} events within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([
      timeout,
      (async () => {
        while (events.length < n) {
          const next = await iterator.next();
          if (next.done) throw new Error(`watch ended after ${events.length} of ${n} events`);
          if (next.value.type !== 'progress') events.push(next.value);
        }
      })(),
    ]);
  } finally {
    clearTimeout(timer);
  }
  return events;
}

function watchIterator(store: LmdbStore, prefix: string, afterRevision: bigint, signal: AbortSignal) {
  // Many watches share one test signal.
  setMaxListeners(0, signal);
  return store.watch(prefix, { afterRevision, signal })[Symbol.asyncIterator]();
}

describe('lmdb store', () => {
  it('rejects keys lmdb cannot store, and stores the longest allowed key', async () => {
    await withStore(async (store) => {
      for (const key of ['', '/a/\u0000b', '/a/\nb', `/${'k'.repeat(MAX_KEY_BYTES)}`, `/${'é'.repeat(990)}`]) {
        await assert.rejects(store.create(key, bytes('v')), InvalidKeyError, JSON.stringify(key.slice(0, 10)));
      }
      await assert.rejects(store.get(''), InvalidKeyError);
      const longest = `/${'k'.repeat(MAX_KEY_BYTES - 1)}`;
      await store.create(longest, bytes('v'));
      assert.equal(text((await store.get(longest))!.value), 'v');
      assert.equal((await store.range('/k')).kvs[0].key, longest);
      assert.equal(await store.currentRevision(), 1n, 'rejected keys consumed no revision');
    });
  });

  it('orders keys by UTF-8 bytes at the latest and at past revisions', async () => {
    await withStore(async (store) => {
      const names = ['z', 'é', '😀', '\uffff', 'a', '\u00ff', '\ue000', 'Z'];
      for (const name of names) await store.create(`/u/${name}`, bytes(name));
      const expected = names.map((n) => `/u/${n}`).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      const revision = await store.currentRevision();
      await store.delete('/u/😀');
      await store.create('/u/0', bytes('later'));
      const past = await store.range('/u/', { revision });
      assert.deepEqual(
        past.kvs.map((kv) => kv.key),
        expected,
      );
      const page = await store.range('/u/', { revision, startAfter: expected[3], limit: 2 });
      assert.deepEqual(
        page.kvs.map((kv) => kv.key),
        expected.slice(4, 6),
      );
      assert.equal(page.remaining, expected.length - 6);
      const latest = await store.range('/u/');
      assert.deepEqual(
        latest.kvs.map((kv) => kv.key),
        ['/u/0', ...expected.filter((k) => k !== '/u/😀')],
      );
    });
  });

  it('with waitForFlush, acknowledges writes once lmdb has flushed them', async () => {
    const store = await openLmdbStore({ path: newDir(), waitForFlush: true });
    try {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.create(`/f/k${i}`, bytes('v'))));
      assert.equal(results.length, 20);
      assert.equal(await store.count('/f/'), 20);
    } finally {
      await store.close();
    }
  });

  it('keeps data, revisions and the compacted revision across close and reopen', async () => {
    const dir = newDir();
    let store = await openLmdbStore({ path: dir });
    await store.create('/p/a', bytes('a1'));
    const r2 = (await store.create('/p/b', bytes('b1'))).revision;
    await store.update('/p/a', bytes('a2'), 1n);
    await store.delete('/p/b', r2);
    await store.compact(2n);
    await store.close();
    await assert.rejects(store.get('/p/a'), UnavailableError, 'a closed store refuses reads');

    store = await openLmdbStore({ path: dir });
    try {
      assert.equal(await store.currentRevision(), 4n);
      assert.equal(await store.compactedRevision(), 2n);
      assert.equal(text((await store.get('/p/a'))!.value), 'a2');
      assert.equal(await store.get('/p/b'), undefined);
      assert.equal(text((await store.get('/p/b', { revision: 3n }))!.value), 'b1');
      const events = await take(watchIterator(store, '/p/', 2n, AbortSignal.timeout(5_000)), 2);
      assert.deepEqual(
        events.map((e) => [e.type, e.key, e.revision, e.prev && text(e.prev.value)]),
        [
          ['put', '/p/a', 3n, 'a1'],
          ['delete', '/p/b', 4n, 'b1'],
        ],
      );
      assert.equal((await store.create('/p/c', bytes('c'))).revision, 5n);
      assertLmdbInvariants(store);
    } finally {
      await store.close();
    }
  });

  it('refuses a second open of the same directory while the first is open', async () => {
    const dir = newDir();
    const first = await openLmdbStore({ path: dir });
    await assert.rejects(openLmdbStore({ path: dir }), UnavailableError);
    await first.close();
    const second = await openLmdbStore({ path: dir });
    await second.close();
  });

  it('group-commits concurrent writers and keeps revisions dense and ordered', async () => {
    await withStore(async (store) => {
      const results = await Promise.all(
        Array.from({ length: 500 }, (_, i) => store.create(`/g/k${i}`, bytes(`v${i}`))),
      );
      const revisions = results.map((r) => r.revision).sort((a, b) => (a < b ? -1 : 1));
      assert.deepEqual(
        revisions,
        Array.from({ length: 500 }, (_, i) => BigInt(i + 1)),
      );
      // Calls in one turn are revisioned in call order.
      assert.deepEqual(
        results.map((r) => r.revision),
        revisions,
      );
      assert.equal(await store.count('/g/'), 500);
      // Revision 0 (before the first write) reads as empty until something is compacted.
      assert.equal(await store.get('/g/k1', { revision: 0n }), undefined);
      assert.deepEqual((await store.range('/g/', { revision: 0n })).kvs, []);
      assertLmdbInvariants(store);
    });
  });

  it('re-validates and retries writes when the revision moves under them', async () => {
    await withStore(async (store) => {
      await store.create('/m/a', bytes('1'));
      // A foreign write of the revision record breaks the chain the queued writes expect.
      const dbs = store.databasesForTesting();
      dbs.meta.putSync(META_REVISION, EMPTY_BYTES, 5);
      const [b, c] = await Promise.all([store.create('/m/b', bytes('2')), store.update('/m/a', bytes('3'), 1n)]);
      assert.deepEqual([b.revision, c.revision], [6n, 7n]);
      assert.equal(text((await store.get('/m/a'))!.value), '3');
      assert.equal(await store.currentRevision(), 7n);
    });
  });

  it('compaction drops superseded history in batches, keeps reads above it exact, and reuses space', async () => {
    await withStore(async (store, dir) => {
      const value = new Uint8Array(2000).fill(7);
      const writeRound = async (round: number) => {
        for (let i = 0; i < 2500; i += 250) {
          await Promise.all(
            Array.from({ length: 250 }, (_, j) => store.update(`/c/k${(i + j) % 100}`, value).catch(() => undefined)),
          );
        }
        void round;
      };
      for (let i = 0; i < 100; i++) await store.create(`/c/k${i}`, bytes(`first-${i}`));
      await store.delete('/c/k99');
      await writeRound(1);
      const before = assertLmdbInvariants(store);
      assert.ok(before.logRecords > 2500);
      const size = statSync(join(dir, 'data.mdb')).size;

      // The event loop keeps turning while compaction runs.
      let maxGap = 0;
      let last = performance.now();
      const ticker = setInterval(() => {
        const now = performance.now();
        maxGap = Math.max(maxGap, now - last);
        last = now;
      }, 1);
      const target = await store.currentRevision();
      try {
        await store.compact(target);
      } finally {
        clearInterval(ticker);
      }
      assert.ok(maxGap < 250, `compaction blocked the event loop for ${maxGap.toFixed(0)} ms`);
      const after = assertLmdbInvariants(store);
      assert.equal(after.logRecords, 99, 'one record per live key remains');
      assert.equal(await store.compactedRevision(), target);
      await assert.rejects(store.get('/c/k1', { revision: target }), CompactedError);
      assert.equal((await store.range('/c/')).kvs.length, 99);

      // Freed pages are reused: another round of the same size barely grows the file.
      await writeRound(2);
      await store.compact(await store.currentRevision());
      await writeRound(3);
      const grown = statSync(join(dir, 'data.mdb')).size;
      assert.ok(grown < size * 1.5, `data.mdb grew from ${size} to ${grown} bytes`);
    });
  });

  it('resumes an interrupted compaction cleanup when reopened', async () => {
    const dir = newDir();
    let store = await openLmdbStore({ path: dir, noSync: true });
    for (let i = 0; i < 50; i++)
      await store.update('/r/a', bytes(`v${i}`)).catch(() => store.create('/r/a', bytes('v')));
    // Mark compacted without cleaning up, as if the process died right after.
    await markCompacted({ dbs: store.databasesForTesting(), logger: console }, 40);
    await store.close();
    store = await openLmdbStore({ path: dir, noSync: true });
    try {
      const dbs = store.databasesForTesting();
      for (let i = 0; i < 100 && readCompaction(dbs).cleaned < 40; i++) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(readCompaction(dbs), { compacted: 40, cleaned: 40 });
      assert.equal(assertLmdbInvariants(store).logRecords, 11);
      assert.equal(text((await store.get('/r/a', { revision: 41n }))!.value), 'v40');
    } finally {
      await store.close();
    }
  });

  it('a range at a past revision spans event-loop slices and stays one snapshot under concurrent writes', async () => {
    await withStore(async (store) => {
      const n = 3500;
      for (let i = 0; i < n; i += 500) {
        await Promise.all(
          Array.from({ length: 500 }, (_, j) => store.create(`/big/k${String(i + j).padStart(5, '0')}`, bytes('v0'))),
        );
      }
      const revision = await store.currentRevision();
      const ranging = store.range('/big/', { revision });
      const latestRanging = store.range('/big/');
      // Writes land while the ranges are between slices.
      const writes = Promise.all(
        Array.from({ length: 200 }, (_, i) => store.update(`/big/k${String(i * 10).padStart(5, '0')}`, bytes('v1'))),
      );
      const [past, latest] = await Promise.all([ranging, latestRanging, writes]);
      assert.equal(past.kvs.length, n);
      assert.ok(past.kvs.every((kv) => text(kv.value) === 'v0'));
      assert.equal(latest.kvs.length, n);
      assert.ok(
        latest.kvs.every((kv) => text(kv.value) === 'v0'),
        'the latest range is one snapshot too',
      );
      const limited = await store.range('/big/', { revision, limit: 10, startAfter: '/big/k01000' });
      assert.deepEqual(limited.kvs[0].key, '/big/k01001');
      assert.equal(limited.remaining, n - 1011);
      assert.equal(limited.more, true);
    });
  });

  it('rebuilds its key index from the log when reopened, compacted history included', async () => {
    const dir = newDir();
    let store = await openLmdbStore({ path: dir, noSync: true });
    for (let i = 0; i < 300; i++) await store.create(`/k/${String(i).padStart(3, '0')}`, bytes(`v${i}`));
    for (let i = 0; i < 300; i += 3) await store.update(`/k/${String(i).padStart(3, '0')}`, bytes(`u${i}`));
    for (let i = 1; i < 300; i += 3) await store.delete(`/k/${String(i).padStart(3, '0')}`);
    const middle = await store.currentRevision();
    await store.compact(middle - 50n);
    await store.create('/k/001', bytes('again'));
    await store.delete('/k/002');
    const before = {
      revision: await store.currentRevision(),
      latest: await store.range('/k/'),
      past: await store.range('/k/', { revision: middle }),
      page: await store.range('/k/', { limit: 7, startAfter: '/k/100' }),
      count: await store.count('/k/'),
    };
    const report = assertLmdbInvariants(store);
    await store.close();

    store = await openLmdbStore({ path: dir, noSync: true });
    try {
      assert.deepEqual(assertLmdbInvariants(store), report);
      assert.equal(await store.currentRevision(), before.revision);
      assert.deepEqual(await store.range('/k/'), before.latest);
      assert.deepEqual(await store.range('/k/', { revision: middle }), before.past);
      assert.deepEqual(await store.range('/k/', { limit: 7, startAfter: '/k/100' }), before.page);
      assert.equal(await store.count('/k/'), before.count);
      assert.equal(before.count, 300 - 100 + 1 - 1);
      assert.equal(text((await store.get('/k/001'))!.value), 'again');
      assert.equal(await store.get('/k/004'), undefined);
      // Deleted keys can be created again after the reopen.
      await store.create('/k/004', bytes('back'));
      assert.equal(await store.count('/k/'), before.count + 1);
    } finally {
      await store.close();
    }
  });

  it('a long range fails with CompactedError when compaction overtakes its revision', async () => {
    await withStore(async (store) => {
      const n = 20000;
      const value = new Uint8Array(200).fill(1);
      for (let i = 0; i < n; i += 1000) {
        await Promise.all(
          Array.from({ length: 1000 }, (_, j) => store.create(`/long/k${String(i + j).padStart(5, '0')}`, value)),
        );
      }
      const at = await store.currentRevision();
      await store.update('/long/k00000', value);
      // The range reads in slices; the compaction marks a revision above it meanwhile.
      const ranging = store.range('/long/', { revision: at });
      const compacting = store.compact(at + 1n);
      const [range, compaction] = await Promise.allSettled([ranging, compacting]);
      assert.equal(compaction.status, 'fulfilled');
      assert.equal(range.status, 'rejected');
      assert.ok(range.reason instanceof CompactedError, String(range.reason));
      // A range at the compacted revision itself stays exact: compaction keeps what it needs.
      await store.update('/long/k00001', value);
      const latest = await store.currentRevision();
      const [atLatest] = await Promise.all([store.range('/long/'), store.compact(latest)]);
      assert.equal(atLatest.kvs.length, n);
      assert.equal(atLatest.revision, latest);
    });
  });

  it('a damaged log record header fails get, shows as a corrupt item and can be deleted', async () => {
    const dir = newDir();
    let store = await openLmdbStore({ path: dir, noSync: true });
    await store.create('/d/a', bytes('a'));
    await store.create('/d/b', bytes('b'));
    await store.close();
    // Damage a revision field of the latest record of /d/a while the store is closed, as a disk
    // error would: the header checksum fails, the key bytes still decode.
    const dbs = openEnv({ path: dir });
    const record = Buffer.from(dbs.log.get(1)!);
    record[23] ^= 0xff;
    dbs.log.putSync(1, record);
    await dbs.root.close();

    store = await openLmdbStore({ path: dir, noSync: true });
    try {
      await assert.rejects(store.get('/d/a'), CorruptValueError);
      const range = await store.range('/d/');
      assert.ok(range.kvs[0].corrupt);
      assert.equal(text(range.kvs[1].value), 'b');
      await assert.rejects(store.update('/d/a', bytes('x')), CorruptValueError);
      const deleted = await store.delete('/d/a');
      assert.ok(deleted.prev.corrupt);
      assert.equal(await store.get('/d/a'), undefined);
      assert.equal(await store.count('/d/'), 1);
      assert.equal(
        text((await store.create('/d/a', bytes('again'))).revision === 4n ? bytes('ok') : bytes('no')),
        'ok',
      );
    } finally {
      await store.close();
    }
  });

  it('a watcher that falls behind re-reads from the log and still gets every change once', async () => {
    await withStore(
      async (store) => {
        const controller = new AbortController();
        const it = watchIterator(store, '/slow/', 0n, controller.signal);
        await store.create('/slow/first', bytes('x'));
        assert.equal((await take(it, 1))[0].key, '/slow/first');
        // 300 changes with nobody reading: the live queue (max 16) overflows.
        for (let i = 0; i < 300; i += 50) {
          await Promise.all(Array.from({ length: 50 }, (_, j) => store.create(`/slow/k${i + j}`, bytes(`${i + j}`))));
        }
        const events = await take(it, 300);
        assert.deepEqual(
          events.map((e) => e.revision),
          Array.from({ length: 300 }, (_, i) => BigInt(i + 2)),
        );
        await store.create('/slow/last', bytes('x'));
        assert.equal((await take(it, 1))[0].key, '/slow/last');
        controller.abort();
        assert.equal((await it.next()).done, true);
      },
      { maxWatchQueue: 16 },
    );
  });

  it('fans out to 2000 watchers cheaply, each receiving only its prefix', async () => {
    await withStore(async (store) => {
      const controller = new AbortController();
      const shared = Array.from({ length: 1000 }, () => watchIterator(store, '/fan/', 0n, controller.signal));
      const own = Array.from({ length: 1000 }, (_, i) => watchIterator(store, `/fan/k${i}/`, 0n, controller.signal));
      // Register them all (each reads the empty log once, then goes live).
      const firstShared = shared.map((it) => take(it, 100, 20_000));
      const firstOwn = own.slice(0, 50).map((it) => take(it, 1, 20_000));
      const started = performance.now();
      for (let i = 0; i < 100; i += 25) {
        await Promise.all(Array.from({ length: 25 }, (_, j) => store.create(`/fan/k${i + j}/obj`, bytes('v'))));
      }
      const sharedEvents = await Promise.all(firstShared);
      const ownEvents = await Promise.all(firstOwn);
      const elapsed = performance.now() - started;
      for (const events of sharedEvents) assert.equal(events.length, 100);
      for (const [i, events] of ownEvents.entries()) assert.equal(events[0].key, `/fan/k${i}/obj`);
      assert.ok(elapsed < 10_000, `fan-out took ${elapsed.toFixed(0)} ms`);
      controller.abort();
    });
  });

  it('watchers started at random moments during a write burst see exactly their suffix', async () => {
    await withStore(async (store) => {
      const controller = new AbortController();
      const total = 1200;
      const started: { from: bigint; events: Promise<StoreEvent[]> }[] = [];
      let written = 0;
      const writer = (async () => {
        while (written < total) {
          const batch = Array.from({ length: 40 }, (_, j) => store.create(`/burst/k${written + j}`, bytes('v')));
          written += 40;
          await Promise.all(batch);
        }
      })();
      while (written < total) {
        const from = await store.currentRevision();
        const it = watchIterator(store, '/burst/', from, controller.signal);
        started.push({ from, events: take(it, total - Number(from), 20_000) });
        await new Promise((r) => setTimeout(r, Math.random() * 5));
      }
      await writer;
      for (const { from, events } of started) {
        const got = (await events).map((e) => e.revision);
        assert.deepEqual(
          got,
          Array.from({ length: total - Number(from) }, (_, i) => from + BigInt(i) + 1n),
        );
      }
      controller.abort();
    });
  });

  it('a watch below the compacted revision fails, also when compaction overtakes a lagging watcher', async () => {
    await withStore(
      async (store) => {
        for (let i = 0; i < 20; i++) await store.create(`/wc/k${i}`, bytes('v'));
        const controller = new AbortController();
        const lagging = watchIterator(store, '/wc/', 0n, controller.signal);
        assert.equal((await take(lagging, 1))[0].revision, 1n);
        // Unread live changes overflow its queue: it falls back to the log at revision 2...
        for (let i = 20; i < 30; i++) await store.create(`/wc/k${i}`, bytes('v'));
        // ...which compaction then removes.
        await store.compact(10n);
        await assert.rejects(lagging.next(), CompactedError);
        assert.equal((await lagging.next()).done, true, 'a failed watch is over');
        await assert.rejects(watchIterator(store, '/wc/', 9n, controller.signal).next(), CompactedError);
        assert.equal((await take(watchIterator(store, '/wc/', 10n, controller.signal), 20)).length, 20);
        controller.abort();
      },
      { maxWatchQueue: 4 },
    );
  });
});
