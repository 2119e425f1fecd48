import assert from 'node:assert/strict';
import type { ConformanceSuite } from './conformance-context.js';
import { withTimeout } from './conformance-helpers.js';
import { summarizeEvent } from './store-model.js';
import { WatchReader } from './watch-reader.js';

/** Quiet period used to prove that no duplicate or foreign event follows the expected ones. */
const QUIET_MS = 150;

/** Watch delivery: order, exactly-once, resumption, fan-out, isolation, abort, close, progress. */
export function registerWatchTests(suite: ConformanceSuite): void {
  suite.test('watch delivers every later change once, in order, with type, kv and prev', async (t) => {
    const r0 = await t.store.currentRevision();
    const live = t.watch('/w/', r0);
    const m = t.model();
    await m.create('/w/a', 'a1');
    await m.update('/w/a', 'a2');
    await m.create('/w/b', 'b1');
    await m.create('/x/outside', 'o');
    await m.create('/w', 'the prefix without slash');
    await m.delete('/w/a');
    await m.create('/w/a', 'a3');
    await m.delete('/w/b', undefined);
    const expected = m.eventsAfter('/w/', r0);
    assert.equal(expected.length, 6);
    // Spot-check the model's shape: creates have no prev, deletes no kv.
    assert.equal(expected[0].prev, undefined);
    assert.equal(expected[3].type, 'delete');
    assert.equal(expected[3].kv, undefined);
    assert.equal(expected[4].prev, undefined, 'a re-create has no prev');

    assert.deepEqual((await live.take(6)).map(summarizeEvent), expected, 'watch started before the writes');
    await live.expectQuiet(QUIET_MS);
    const replay = t.watch('/w/', r0);
    assert.deepEqual((await replay.take(6)).map(summarizeEvent), expected, 'watch started after the writes');
    const fromMiddle = t.watch('/w/', expected[2].revision);
    assert.deepEqual((await fromMiddle.take(3)).map(summarizeEvent), expected.slice(3), 'watch from a middle revision');
    await Promise.all([replay.expectQuiet(QUIET_MS), fromMiddle.expectQuiet(QUIET_MS)]);
  });

  suite.test('a watch restarted from the last revision it saw continues with no duplicate and no gap', async (t) => {
    const r0 = await t.store.currentRevision();
    const m = t.model();
    const first = t.watch('/r/', r0);
    for (let i = 0; i < 5; i++) await m.create(`/r/k${i}`, `v${i}`);
    const seen = (await first.take(3)).map(summarizeEvent);
    assert.deepEqual(seen, m.eventsAfter('/r/', r0).slice(0, 3));
    first.abort();
    await first.expectEnd();
    await m.update('/r/k0', 'v0-2');
    await m.delete('/r/k1');
    await m.create('/r/k9', 'v9');
    const resumeFrom = seen[2].revision;
    const second = t.watch('/r/', resumeFrom);
    const expected = m.eventsAfter('/r/', resumeFrom);
    assert.equal(expected.length, 5);
    assert.deepEqual((await second.take(5)).map(summarizeEvent), expected);
    await second.expectQuiet(QUIET_MS);
  });

  suite.test('writes concurrent with the start of a watch are not lost', async (t) => {
    const r0 = await t.store.currentRevision();
    const m = t.model();
    const early = t.watch('/c/', r0);
    let signalStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      signalStarted = resolve;
    });
    const writer = (async () => {
      for (let i = 0; i < 100; i++) {
        await m.create(`/c/k${String(i).padStart(3, '0')}`, `v${i}`);
        if (i === 10) signalStarted();
      }
    })();
    await started;
    const fromStart = t.watch('/c/', r0);
    const midRevision = await t.store.currentRevision();
    const fromMiddle = t.watch('/c/', midRevision);
    // Start reading while the writer still runs.
    const reads = [early.take(100), fromStart.take(100)];
    await withTimeout(writer, 20_000, 'writer');
    const all = m.eventsAfter('/c/', r0);
    assert.equal(all.length, 100);
    for (const events of await Promise.all(reads)) assert.deepEqual(events.map(summarizeEvent), all);
    const tail = m.eventsAfter('/c/', midRevision);
    assert.deepEqual((await fromMiddle.take(tail.length)).map(summarizeEvent), tail);
    await Promise.all([early.expectQuiet(QUIET_MS), fromStart.expectQuiet(QUIET_MS), fromMiddle.expectQuiet(QUIET_MS)]);
  });

  suite.test('many watchers on one prefix each receive the full sequence', async (t) => {
    const watchers = suite.slow ? 200 : 50;
    const r0 = await t.store.currentRevision();
    const m = t.model();
    const before = Array.from({ length: watchers / 2 }, () => t.watch('/many/', r0));
    for (let i = 0; i < 10; i++) await m.create(`/many/k${i}`, `v${i}`);
    for (let i = 0; i < 5; i++) await m.update(`/many/k${i}`, `v${i}-2`);
    for (let i = 5; i < 10; i++) await m.delete(`/many/k${i}`);
    const after = Array.from({ length: watchers / 2 }, () => t.watch('/many/', r0));
    const expected = m.eventsAfter('/many/', r0);
    assert.equal(expected.length, 20);
    const results = await Promise.all([...before, ...after].map((w) => w.take(20, 10_000)));
    results.forEach((events, i) => {
      assert.deepEqual(events.map(summarizeEvent), expected, `watcher ${i}`);
    });
  });

  suite.test('watches on different prefixes are isolated', async (t) => {
    const r0 = await t.store.currentRevision();
    const m = t.model();
    const prefixes = ['/iso/x/', '/iso/y/', '/iso/xy/'];
    const readers = prefixes.map((p) => t.watch(p, r0));
    for (let i = 0; i < 3; i++) {
      for (const p of prefixes) await m.create(`${p}k${i}`, `${p}${i}`);
      await m.create(`/iso/x${i}`, 'no prefix matches');
    }
    await m.update('/iso/y/k0', 'changed');
    await m.delete('/iso/x/k1');
    for (const [i, reader] of readers.entries()) {
      const expected = m.eventsAfter(prefixes[i], r0);
      assert.deepEqual((await reader.take(expected.length)).map(summarizeEvent), expected, prefixes[i]);
    }
    await Promise.all(readers.map((r) => r.expectQuiet(QUIET_MS)));
  });

  suite.test('aborting the signal ends the iteration (busy, idle and already-aborted watches)', async (t) => {
    const r0 = await t.store.currentRevision();
    const m = t.model();
    const busy = t.watch('/ab/', r0);
    const idle = t.watch('/ab/', r0);
    for (let i = 0; i < 3; i++) await m.create(`/ab/k${i}`, 'v');
    await busy.take(1);
    busy.abort();
    await busy.expectEnd(2_000);
    assert.equal((await idle.take(3)).length, 3);
    await idle.expectQuiet(50); // leaves a read pending on an idle watch
    idle.abort();
    await idle.expectEnd(2_000);
    const aborted = new WatchReader(t.store, '/ab/', { afterRevision: r0, signal: AbortSignal.abort() });
    await aborted.expectEnd(2_000);
  });

  suite.test('close ends pending watches', async (t) => {
    const r0 = await t.store.currentRevision();
    const w = t.watch('/close/', r0);
    await t.store.create('/close/a', new Uint8Array([1]));
    await w.take(1);
    await w.expectQuiet(20);
    await t.closeStore();
    await w.expectEnd(5_000);
  });

  suite.test('progress notifications never run ahead of undelivered changes', async (t) => {
    const r0 = await t.store.currentRevision();
    const w = t.watch('/prog/', r0, { progressIntervalMs: 100 });
    const first = await w.nextItem(5_000);
    assert.ok(first !== 'end' && first.type === 'progress', 'an idle watch reports progress');
    assert.ok(first.revision >= r0, `progress ${first.revision} >= ${r0}`);
    await w.expectQuiet(250);
    const idleRevision = await t.store.currentRevision();
    for (const p of [first, ...w.progress]) {
      assert.ok(p.revision <= idleRevision, `progress ${p.revision} claims more than the store's ${idleRevision}`);
    }
    w.progress.length = 0;
    const put = (await t.store.create('/prog/a', new Uint8Array([1]))).revision;
    const outside = (await t.store.create('/other/a', new Uint8Array([1]))).revision;
    const event = await w.next();
    assert.equal(event.revision, put);
    for (const p of w.progress) assert.ok(p.revision < put, `progress ${p.revision} before the event at ${put}`);
    let later = await w.nextItem(5_000);
    while (later !== 'end' && later.type === 'progress' && later.revision < outside) later = await w.nextItem(5_000);
    assert.ok(later !== 'end' && later.type === 'progress', 'progress after the event');
    assert.ok(later.revision >= outside, `progress ${later.revision} reaches ${outside}`);
  });

  suite.test(
    'a watch asked for progress reports it at once, after its undelivered changes, and only on its prefix',
    async (t) => {
      const request = t.store.requestWatchProgress?.bind(t.store);
      assert.ok(request, `${t.harness.name} answers progress requests`);
      const r0 = await t.store.currentRevision();
      // Intervals no test waits for: every progress seen here was asked for.
      const asked = t.watch('/ask/', r0, { progressIntervalMs: 600_000 });
      const other = t.watch('/ask-other/', r0, { progressIntervalMs: 600_000 });
      const elsewhere = (await t.store.create('/elsewhere/a', new Uint8Array([1]))).revision;
      request('/ask/');
      const first = await asked.nextItem(5_000);
      assert.ok(first !== 'end' && first.type === 'progress', 'progress once asked');
      assert.ok(first.revision >= elsewhere, `progress ${first.revision} reaches ${elsewhere}`);
      // A change not yet taken comes first; the progress then covers it and what followed.
      const put = (await t.store.create('/ask/a', new Uint8Array([1]))).revision;
      const after = (await t.store.create('/elsewhere/b', new Uint8Array([1]))).revision;
      request('/ask/');
      const event = await asked.nextItem(5_000);
      assert.ok(event !== 'end' && event.type !== 'progress' && event.revision === put, 'the change first');
      const second = await asked.nextItem(5_000);
      assert.ok(second !== 'end' && second.type === 'progress', 'then progress');
      assert.ok(second.revision >= after, `progress ${second.revision} reaches ${after}`);
      await other.expectQuiet(QUIET_MS);
      assert.deepEqual(other.progress, [], 'a watch of another prefix was not asked');
    },
    { skip: suite.harness.name === 'etcd' ? 'etcd 3.4 answers progress requests ahead of pending events' : false },
  );
}
