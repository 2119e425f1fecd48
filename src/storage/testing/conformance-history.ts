import assert from 'node:assert/strict';
import { CompactedError, CorruptValueError } from '../errors.js';
import type { KeyValue } from '../store.js';
import type { ConformanceSuite } from './conformance-context.js';
import { bytes, expectError, patternBytes, sameBytes, text } from './conformance-helpers.js';
import { describeEvent, summarizeEvent, summarizeKv } from './store-model.js';

const LARGE_VALUE_BYTES = 1.5 * 1024 * 1024;

/** Compaction, large values and damaged records. */
export function registerHistoryTests(suite: ConformanceSuite): void {
  suite.test('compaction: reads and watches at or below the compacted revision fail, later ones work', async (t) => {
    const m = t.model();
    const r1 = await m.create('/cmp/a', 'a1');
    const r2 = await m.update('/cmp/a', 'a2');
    const r3 = await m.create('/cmp/b', 'b1');
    const compactAt = await m.create('/cmp/x', 'x1');
    const r5 = await m.create('/cmp/y', 'y1');
    const r6 = await m.delete('/cmp/b');
    const r7 = await m.update('/cmp/a', 'a3');
    await t.store.compact(compactAt);
    assert.equal(await t.store.compactedRevision(), compactAt);

    for (const revision of [r1, r2, r3, compactAt]) {
      const getErr = await expectError(t.store.get('/cmp/a', { revision }), CompactedError, `get at ${revision}`);
      assert.equal(getErr.compactedRevision, compactAt);
      assert.equal(getErr.requestedRevision, revision);
      const rangeErr = await expectError(t.store.range('/cmp/', { revision }), CompactedError, `range at ${revision}`);
      assert.equal(rangeErr.compactedRevision, compactAt);
      assert.equal(rangeErr.requestedRevision, revision);
    }
    // Versions written at or before the compacted revision stay readable above it.
    for (const revision of [r5, r6, r7]) {
      const range = await t.store.range('/cmp/', { revision });
      assert.deepEqual(range.kvs.map(summarizeKv), m.snapshot('/cmp/', revision), `range at ${revision}`);
      for (const key of ['/cmp/a', '/cmp/b', '/cmp/x']) {
        assert.deepEqual(
          summarizeKv(await t.store.get(key, { revision })),
          m.at(key, revision),
          `get ${key} at ${revision}`,
        );
      }
    }
    assert.deepEqual(m.at('/cmp/a', r5), { key: '/cmp/a', value: 'a2', createRevision: r1, modRevision: r2 });
    assert.deepEqual((await t.store.range('/cmp/')).kvs.map(summarizeKv), m.snapshot('/cmp/'));

    for (const afterRevision of [compactAt - 1n, r1 - 1n]) {
      const err = await t.watch('/cmp/', afterRevision).expectFailure();
      assert.ok(err instanceof CompactedError, `watch after ${afterRevision}: expected CompactedError, got ${err}`);
      assert.equal(err.compactedRevision, compactAt);
    }
    const fromCompacted = t.watch('/cmp/', compactAt);
    assert.deepEqual((await fromCompacted.take(3)).map(summarizeEvent), m.eventsAfter('/cmp/', compactAt));
    await m.create('/cmp/z', 'z1');
    assert.deepEqual(summarizeEvent(await fromCompacted.next()), m.log.at(-1));
  });

  suite.test('a 1.5 MiB value round-trips through create, get, range and watch', async (t) => {
    const big = patternBytes(LARGE_VALUE_BYTES, 7);
    const bigger = patternBytes(LARGE_VALUE_BYTES, 8);
    const r0 = await t.store.currentRevision();
    const w = t.watch('/big/', r0);
    const created = (await t.store.create('/big/a', big)).revision;
    const got = await t.store.get('/big/a');
    assert.equal(got?.value.byteLength, LARGE_VALUE_BYTES);
    assert.ok(sameBytes(got.value, big), 'get returns the same bytes');
    const range = await t.store.range('/big/');
    assert.equal(range.kvs.length, 1);
    assert.ok(sameBytes(range.kvs[0].value, big), 'range returns the same bytes');
    const updated = (await t.store.update('/big/a', bigger, created)).revision;
    const [put, update] = await w.take(2);
    assert.equal(put.revision, created);
    assert.ok(put.kv && sameBytes(put.kv.value, big), 'watch create event carries the value');
    assert.equal(put.prev, undefined);
    assert.equal(update.revision, updated);
    assert.ok(update.kv && sameBytes(update.kv.value, bigger), 'watch update event carries the new value');
    assert.ok(update.prev && sameBytes(update.prev.value, big), 'watch update event carries the previous value');
    const past = await t.store.get('/big/a', { revision: created });
    assert.ok(past && sameBytes(past.value, big), 'get at the past revision');
  });

  suite.test('a corrupt record fails only its own key: get throws, range and watch carry it', async (t) => {
    const { store, harness } = t;
    const m = t.model();
    for (const k of ['a', 'b', 'c']) await m.create(`/bad/${k}`, `value-${k}`);
    const before = await store.currentRevision();
    const w = t.watch('/bad/', before);
    await harness.corrupt(store, '/bad/b');
    // A harness may damage the record in place (no revision) or write damaged bytes through the
    // backend (a foreign writer: one new revision, and watchers see that put).
    const after = await store.currentRevision();
    assert.ok(after === before || after === before + 1n, `corrupt() moved the revision from ${before} to ${after}`);
    const writesThrough = after > before;

    const err = await expectError(store.get('/bad/b'), CorruptValueError, 'get of the corrupt key');
    assert.equal(err.key, '/bad/b');
    assert.deepEqual(summarizeKv(await store.get('/bad/a')), m.at('/bad/a'));
    assert.deepEqual(summarizeKv(await store.get('/bad/c')), m.at('/bad/c'));
    const range = await store.range('/bad/');
    assert.deepEqual(
      range.kvs.map((kv) => kv.key),
      ['/bad/a', '/bad/b', '/bad/c'],
    );
    assertCorruptItem(range.kvs[1], '/bad/b');
    assert.deepEqual(summarizeKv(range.kvs[0]), m.at('/bad/a'));
    assert.deepEqual(summarizeKv(range.kvs[2]), m.at('/bad/c'));
    const page = await store.range('/bad/', { limit: 1, startAfter: '/bad/a' });
    assertCorruptItem(page.kvs[0], '/bad/b');
    assert.equal(page.remaining, 1);
    assert.equal(await store.count('/bad/'), 3);

    if (writesThrough) {
      const event = await w.next();
      assert.equal(event.type, 'put', describeEvent(event));
      assert.equal(event.key, '/bad/b');
      assert.equal(event.revision, after);
      assertCorruptItem(event.kv, '/bad/b');
      assert.equal(event.kv?.modRevision, after);
      const intact = await store.get('/bad/b', { revision: before });
      assert.deepEqual(summarizeKv(intact), m.at('/bad/b'), 'the version before the corrupting write is intact');
    }
    // The watch keeps working after the damaged record.
    const updated = (await store.update('/bad/a', bytes('value-a2'))).revision;
    const next = await w.next();
    assert.equal(next.key, '/bad/a');
    assert.equal(next.revision, updated);
    assert.equal(text(next.kv!.value), 'value-a2');

    // An unconditional delete removes a corrupt key (how unreadable objects get cleaned up).
    const removed = await store.delete('/bad/b');
    assert.equal(removed.prev.key, '/bad/b');
    assert.equal(await store.get('/bad/b'), undefined);
    assert.deepEqual(
      (await store.range('/bad/')).kvs.map((kv) => kv.key),
      ['/bad/a', '/bad/c'],
    );
    const deletion = await w.next();
    assert.equal(deletion.type, 'delete');
    assert.equal(deletion.key, '/bad/b');
    assert.equal(deletion.revision, removed.revision);
  });
}

function assertCorruptItem(kv: KeyValue | undefined, key: string): void {
  assert.ok(kv, `expected an item for ${key}`);
  assert.equal(kv.key, key);
  assert.ok(kv.corrupt instanceof Error, `${key}: kv.corrupt must be set`);
  assert.equal(kv.corrupt.code, 'CorruptValue');
  assert.equal(kv.corrupt.key, key);
  assert.equal(kv.value.byteLength, 0, 'a corrupt item has an empty value');
}
