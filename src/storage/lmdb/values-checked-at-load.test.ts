import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { KeyValue } from '../store.js';
import { type LmdbStore, openLmdbStore } from './lmdb-store.js';
import { corruptLmdbRecord } from './testing/lmdb-harness.js';

const root = mkdtempSync(join(tmpdir(), 'orch-lmdb-checked-'));
after(() => rmSync(root, { recursive: true, force: true }));

const bytes = (s: string) => Buffer.from(s, 'utf8');
/** What a reader of an item sees (reading a reloadable value through its loader). */
const summary = (kvs: readonly KeyValue[]) =>
  kvs.map((kv) => ({
    key: kv.key,
    value: kv.corrupt
      ? undefined
      : Buffer.from(kv.values ? kv.values.read(kv.key, kv.modRevision) : kv.value).toString('utf8'),
    reloadable: kv.values !== undefined,
    createRevision: kv.createRevision,
    modRevision: kv.modRevision,
    corrupt: kv.corrupt?.message,
  }));

/** A store in a fresh directory with a history: creates, updates, a delete and a re-create. */
async function storeWithHistory(name: string): Promise<string> {
  const path = join(root, name);
  const store = await openLmdbStore({ path, noSync: true });
  try {
    for (const k of ['a', 'b', 'c', 'd']) await store.create(`/w/${k}`, bytes(`${k}1`));
    const b = await store.get('/w/b');
    await store.update('/w/b', bytes('b2'), b!.modRevision);
    const c = await store.get('/w/c');
    await store.delete('/w/c', c!.modRevision);
    await store.create('/w/c', bytes('c3'));
  } finally {
    await store.close();
  }
  return path;
}

async function withStore<T>(path: string, f: (s: LmdbStore) => Promise<T>): Promise<T> {
  const store = await openLmdbStore({ path, noSync: true });
  try {
    return await f(store);
  } finally {
    await store.close();
  }
}

describe('lmdb store: the first reloadable range after open uses the checks of the load', () => {
  it('lists exactly what a range that checks every record lists', async () => {
    const path = await storeWithHistory('same');
    await withStore(path, async (s) => {
      const first = summary((await s.range('/w/', { reloadableValues: true })).kvs);
      const second = summary((await s.range('/w/', { reloadableValues: true })).kvs);
      assert.deepEqual(first, second);
      assert.deepEqual(
        first.map((kv) => [kv.key, kv.value, kv.reloadable]),
        [
          ['/w/a', 'a1', true],
          ['/w/b', 'b2', true],
          ['/w/c', 'c3', true],
          ['/w/d', 'd1', true],
        ],
      );
      const plain = summary((await s.range('/w/')).kvs);
      assert.deepEqual(
        plain.map(({ reloadable: _, ...kv }) => kv),
        first.map(({ reloadable: _, ...kv }) => kv),
      );
    });
  });

  it('reads keys written since the open, and past revisions, from their records', async () => {
    const path = await storeWithHistory('rewritten');
    await withStore(path, async (s) => {
      const a = await s.get('/w/a');
      const put = await s.update('/w/a', bytes('a2'), a!.modRevision);
      const d = await s.get('/w/d');
      await s.delete('/w/d', d!.modRevision);
      const latest = summary((await s.range('/w/', { reloadableValues: true })).kvs);
      assert.deepEqual(
        latest.map((kv) => [kv.key, kv.value, kv.modRevision]),
        [
          ['/w/a', 'a2', put.revision],
          ['/w/b', 'b2', latest[1].modRevision],
          ['/w/c', 'c3', latest[2].modRevision],
        ],
      );
      const before = summary((await s.range('/w/', { reloadableValues: true, revision: put.revision - 1n })).kvs);
      assert.deepEqual(
        before.map((kv) => [kv.key, kv.value]),
        [
          ['/w/a', 'a1'],
          ['/w/b', 'b2'],
          ['/w/c', 'c3'],
          ['/w/d', 'd1'],
        ],
      );
    });
  });

  it('reports a value damaged on disk before the open as corrupt', async () => {
    const path = await storeWithHistory('damaged');
    await withStore(path, (s) => corruptLmdbRecord(s, '/w/b'));
    await withStore(path, async (s) => {
      const first = summary((await s.range('/w/', { reloadableValues: true })).kvs);
      assert.equal(first[1].key, '/w/b');
      assert.match(first[1].corrupt ?? '', /checksum/);
      assert.equal(first[0].value, 'a1');
    });
  });

  it('checks the records again in every later range', async () => {
    const path = await storeWithHistory('later');
    await withStore(path, async (s) => {
      await s.range('/w/', { reloadableValues: true });
      await corruptLmdbRecord(s, '/w/d');
      const again = summary((await s.range('/w/', { reloadableValues: true })).kvs);
      assert.match(again[3].corrupt ?? '', /checksum/);
    });
  });
});
