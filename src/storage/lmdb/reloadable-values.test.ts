import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CorruptValueError } from '../errors.js';
import { openLmdbStore } from './lmdb-store.js';

const root = mkdtempSync(join(tmpdir(), 'orch-lmdb-reload-'));
after(() => rmSync(root, { recursive: true, force: true }));

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => Buffer.from(b).toString();

describe('lmdb store: values read again on demand', () => {
  it('lists items whose values read again from their records, until compaction removes a replaced one', async () => {
    const store = await openLmdbStore({ path: join(root, 'a'), noSync: true });
    try {
      await store.create('/r/a', bytes('{"v":1}'));
      await store.create('/r/b', bytes('{"v":2}'));
      const listed = await store.range('/r/', { reloadableValues: true });
      const [a, b] = listed.kvs;
      assert.ok(a?.values && b?.values, "items carry the store's reader");
      assert.equal(a.values, b.values, 'one reader for the whole range');
      const read = (kv: typeof a, view?: boolean) => kv.values!.read(kv.key, kv.modRevision, view);
      assert.equal(text(a.value), '{"v":1}');
      assert.equal(text(read(a)), '{"v":1}');
      // A view is the same bytes, for use at once.
      assert.equal(text(read(b, true)), '{"v":2}');
      // Without the option, values are plain bytes.
      const plain = await store.range('/r/');
      assert.equal(plain.kvs[0]?.values, undefined);

      // Replaced: the old record stays readable until compaction passes the replacing revision.
      const put = await store.update('/r/a', bytes('{"v":3}'));
      assert.equal(text(read(a)), '{"v":1}');
      await store.compact(put.revision);
      assert.equal(text(read(b)), '{"v":2}', 'a live value stays readable');
      assert.throws(() => read(a), CorruptValueError);
    } finally {
      await store.close();
    }
  });
});
