import assert from 'node:assert/strict';
import { compareGoStrings } from '../../util/go-strings.js';
import { ConflictError, KeyExistsError, NotFoundError, RevisionTooNewError } from '../errors.js';
import type { ConformanceSuite } from './conformance-context.js';
import { bytes, expectError, text } from './conformance-helpers.js';
import { summarizeKv } from './store-model.js';

/** Revisions, point reads, ranges (latest and past), write errors, prefixes and count. */
export function registerKeyValueTests(suite: ConformanceSuite): void {
  suite.test('revisions strictly increase across create, update and delete; writes return them', async ({ store }) => {
    const r0 = await store.currentRevision();
    const r1 = (await store.create('/rev/a', bytes('a1'))).revision;
    assert.ok(r1 > r0, `create revision ${r1} > ${r0}`);
    assert.equal(await store.currentRevision(), r1);
    assert.deepEqual(summarizeKv(await store.get('/rev/a')), {
      key: '/rev/a',
      value: 'a1',
      createRevision: r1,
      modRevision: r1,
    });

    const r2 = (await store.update('/rev/a', bytes('a2'), r1)).revision;
    assert.ok(r2 > r1, `update revision ${r2} > ${r1}`);
    assert.equal(await store.currentRevision(), r2);
    assert.deepEqual(summarizeKv(await store.get('/rev/a')), {
      key: '/rev/a',
      value: 'a2',
      createRevision: r1,
      modRevision: r2,
    });

    const r3 = (await store.create('/rev/b', bytes('b1'))).revision;
    assert.ok(r3 > r2);
    const deleted = await store.delete('/rev/a', r2);
    const r4 = deleted.revision;
    assert.ok(r4 > r3, `delete revision ${r4} > ${r3}`);
    assert.deepEqual(summarizeKv(deleted.prev), { key: '/rev/a', value: 'a2', createRevision: r1, modRevision: r2 });
    assert.equal(await store.currentRevision(), r4);
    assert.equal(await store.get('/rev/a'), undefined);

    // A re-created key is a new incarnation: createRevision restarts.
    const r5 = (await store.create('/rev/a', bytes('a3'))).revision;
    assert.ok(r5 > r4);
    const r6 = (await store.update('/rev/b', bytes('b2'))).revision;
    assert.ok(r6 > r5);
    assert.equal(await store.currentRevision(), r6);

    const range = await store.range('/rev/');
    assert.deepEqual(range.kvs.map(summarizeKv), [
      { key: '/rev/a', value: 'a3', createRevision: r5, modRevision: r5 },
      { key: '/rev/b', value: 'b2', createRevision: r3, modRevision: r6 },
    ]);
    assert.equal(range.revision, r6);
    assert.equal(range.more, false);
    assert.equal(range.remaining, 0);
  });

  suite.test('get reads the latest value and the value as of any past revision', async (t) => {
    const m = t.model();
    const revs = [
      await m.create('/get/a', 'a1'),
      await m.update('/get/a', 'a2'),
      await m.create('/get/b', 'b1'),
      await m.delete('/get/a'),
      await m.create('/get/a', 'a3'),
      await m.update('/get/b', 'b2', undefined),
    ];
    for (const revision of revs) {
      for (const key of ['/get/a', '/get/b', '/get/none']) {
        const got = summarizeKv(await t.store.get(key, { revision }));
        assert.deepEqual(got, m.at(key, revision), `get ${key} at ${revision}`);
      }
    }
    assert.deepEqual(summarizeKv(await t.store.get('/get/a')), m.at('/get/a'));
    assert.equal(m.at('/get/a', revs[3]), undefined, 'model sanity: deleted at revs[3]');
  });

  suite.test('range returns the exact snapshot at a past revision and at the latest', async (t) => {
    const m = t.model();
    for (let i = 1; i <= 5; i++) await m.create(`/snap/k${i}`, `v${i}`);
    const snapshotRevision = m.lastRevision;
    await m.update('/snap/k2', 'v2-new');
    await m.delete('/snap/k3');
    await m.create('/snap/k6', 'v6');
    await m.delete('/snap/k1');
    await m.create('/snap/k1', 'v1-again');
    await m.create('/snapx/k', 'outside');
    await m.create('/snap', 'the prefix without slash');

    const past = await t.store.range('/snap/', { revision: snapshotRevision });
    // Keys created after the snapshot are absent, deleted ones present, values as of then.
    assert.deepEqual(
      past.kvs.map((kv) => [kv.key, text(kv.value), kv.createRevision === kv.modRevision]),
      [1, 2, 3, 4, 5].map((i) => [`/snap/k${i}`, `v${i}`, true]),
    );
    assert.deepEqual(past.kvs.map(summarizeKv), m.snapshot('/snap/', snapshotRevision));
    assert.equal(past.revision, snapshotRevision);
    assert.equal(past.more, false);
    assert.equal(past.remaining, 0);

    // Every revision from the snapshot on reads exactly the model's state at that revision.
    for (const w of m.log.filter((e) => e.revision >= snapshotRevision)) {
      const r = await t.store.range('/snap/', { revision: w.revision });
      assert.deepEqual(r.kvs.map(summarizeKv), m.snapshot('/snap/', w.revision), `range at ${w.revision}`);
      assert.equal(r.revision, w.revision);
    }
    const latest = await t.store.range('/snap/');
    assert.deepEqual(latest.kvs.map(summarizeKv), m.snapshot('/snap/'));
    assert.deepEqual(
      latest.kvs.map((kv) => kv.key),
      ['/snap/k1', '/snap/k2', '/snap/k4', '/snap/k5', '/snap/k6'],
    );
    assert.equal(latest.revision, m.lastRevision);
  });

  suite.test('range returns keys in ascending byte order', async ({ store }) => {
    const names = ['a', 'B', '-x', 'a.b', 'a/b', 'a0', 'Z9', '~', '0', 'a-', 'ab', 'A'];
    for (const name of names) await store.create(`/ord/${name}`, bytes(name));
    const expected = names.map((n) => `/ord/${n}`).sort(compareGoStrings);
    const got = await store.range('/ord/');
    assert.deepEqual(
      got.kvs.map((kv) => kv.key),
      expected,
    );
    assert.deepEqual(
      got.kvs.map((kv) => text(kv.value)),
      expected.map((k) => k.slice('/ord/'.length)),
    );
  });

  suite.test(
    'write errors: KeyExists, NotFound, Conflict (with the current value); failed writes change nothing',
    async ({ store }) => {
      const r1 = (await store.create('/err/a', bytes('v1'))).revision;
      const exists = await expectError(store.create('/err/a', bytes('again')), KeyExistsError, 'create existing');
      assert.equal(exists.key, '/err/a');
      for (const [what, op] of [
        ['update missing', () => store.update('/err/missing', bytes('x'))],
        ['update missing (guarded)', () => store.update('/err/missing', bytes('x'), r1)],
        ['delete missing', () => store.delete('/err/missing')],
        ['delete missing (guarded)', () => store.delete('/err/missing', r1)],
      ] as const) {
        const err = await expectError(op(), NotFoundError, what);
        assert.equal(err.key, '/err/missing', what);
      }
      assert.equal(await store.currentRevision(), r1, 'failed writes must not consume a revision');
      assert.equal(text((await store.get('/err/a'))!.value), 'v1');

      const r2 = (await store.update('/err/a', bytes('v2'), r1)).revision;
      const current = { key: '/err/a', value: 'v2', createRevision: r1, modRevision: r2 };
      const staleUpdate = await expectError(store.update('/err/a', bytes('stale'), r1), ConflictError, 'stale update');
      assert.equal(staleUpdate.key, '/err/a');
      assert.equal(staleUpdate.expectedModRevision, r1);
      assert.deepEqual(summarizeKv(staleUpdate.current), current, 'ConflictError.current of a stale update');
      const staleDelete = await expectError(store.delete('/err/a', r1), ConflictError, 'stale delete');
      assert.equal(staleDelete.expectedModRevision, r1);
      assert.deepEqual(summarizeKv(staleDelete.current), current, 'ConflictError.current of a stale delete');
      assert.equal(await store.currentRevision(), r2, 'conflicts must not consume a revision');
      assert.deepEqual(summarizeKv(await store.get('/err/a')), current);

      const r3 = (await store.update('/err/a', bytes('v3'))).revision;
      assert.ok(r3 > r2, 'unconditional update');
      const del = await store.delete('/err/a');
      assert.ok(del.revision > r3, 'unconditional delete');
      assert.deepEqual(summarizeKv(del.prev), { key: '/err/a', value: 'v3', createRevision: r1, modRevision: r3 });
      assert.equal(await store.get('/err/a'), undefined);
      await expectError(store.update('/err/a', bytes('gone'), r3), NotFoundError, 'update of a deleted key');

      // A guard from an earlier incarnation conflicts with the re-created key.
      const r5 = (await store.create('/err/a', bytes('v5'))).revision;
      const old = await expectError(
        store.update('/err/a', bytes('x'), r3),
        ConflictError,
        'guard from old incarnation',
      );
      assert.deepEqual(summarizeKv(old.current), { key: '/err/a', value: 'v5', createRevision: r5, modRevision: r5 });
    },
  );

  suite.test('a prefix matches whole segments only: /a/b/ never returns /a/bc or /a/b', async ({ store }) => {
    const keys = ['/a/b', '/a/bc', '/a/b.x', '/a/b0', '/a/b/x', '/a/b/y/z', '/a/c/x', '/a/bc/x'];
    for (const key of keys) await store.create(key, bytes(key));
    const inside = await store.range('/a/b/');
    assert.deepEqual(
      inside.kvs.map((kv) => kv.key),
      ['/a/b/x', '/a/b/y/z'],
    );
    assert.equal(await store.count('/a/b/'), 2);
    const page1 = await store.range('/a/b/', { limit: 1 });
    assert.deepEqual(
      page1.kvs.map((kv) => kv.key),
      ['/a/b/x'],
    );
    assert.equal(page1.more, true);
    assert.equal(page1.remaining, 1, 'remaining counts only keys under the prefix');
    const page2 = await store.range('/a/b/', { limit: 1, startAfter: '/a/b/x' });
    assert.deepEqual(
      page2.kvs.map((kv) => kv.key),
      ['/a/b/y/z'],
    );
    assert.equal(page2.more, false);
    assert.equal(page2.remaining, 0);
    assert.equal(text((await store.get('/a/b'))!.value), '/a/b', 'get is exact-key');
    const all = await store.range('/a/');
    assert.deepEqual(
      all.kvs.map((kv) => kv.key),
      [...keys].sort(compareGoStrings),
    );
  });

  suite.test('count returns the number of live keys under a prefix', async ({ store }) => {
    assert.equal(await store.count('/cnt/'), 0);
    const r = (await store.create('/cnt/a', bytes('1'))).revision;
    await store.create('/cnt/b', bytes('1'));
    await store.create('/cnt/c/d', bytes('1'));
    await store.create('/cnt', bytes('outside'));
    await store.create('/cntx/a', bytes('outside'));
    assert.equal(await store.count('/cnt/'), 3);
    assert.equal(await store.count('/cnt/c/'), 1);
    await store.update('/cnt/a', bytes('2'), r);
    assert.equal(await store.count('/cnt/'), 3, 'an update does not change the count');
    await store.delete('/cnt/b');
    assert.equal(await store.count('/cnt/'), 2);
    assert.equal(await store.count('/none/'), 0);
  });

  suite.test('get and range at a future revision fail with RevisionTooNewError', async ({ store }) => {
    await store.create('/future/a', bytes('a'));
    const current = await store.currentRevision();
    const getErr = await expectError(store.get('/future/a', { revision: current + 1n }), RevisionTooNewError, 'get');
    assert.equal(getErr.requestedRevision, current + 1n);
    assert.equal(getErr.currentRevision, current);
    const rangeErr = await expectError(
      store.range('/future/', { revision: current + 5n }),
      RevisionTooNewError,
      'range',
    );
    assert.equal(rangeErr.requestedRevision, current + 5n);
    assert.equal(rangeErr.currentRevision, current);
    // The current revision itself is readable.
    assert.equal(text((await store.get('/future/a', { revision: current }))!.value), 'a');
    assert.equal((await store.range('/future/', { revision: current })).kvs.length, 1);
  });
}
