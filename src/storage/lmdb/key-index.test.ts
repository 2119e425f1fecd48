import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openLmdbStore } from './lmdb-store.js';

const root = mkdtempSync(join(tmpdir(), 'orch-lmdb-key-order-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Go's order of strings: their UTF-8 bytes. */
const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

describe('lmdb key index: keys in UTF-8 byte order after a load', () => {
  const cases: [string, string[]][] = [
    ['ASCII keys written out of order', ['/k/b', '/k/a10', '/k/a2', '/k/A', '/k/a', '/k/_', '/k/a/b', '/k/a-']],
    [
      'keys above and below the surrogates (no surrogate pairs)',
      ['/k/\uffff', '/k/\ue000', '/k/\u00e9', '/k/z', '/k/\u07ff'],
    ],
    [
      'keys with characters beyond the BMP, where UTF-16 order differs',
      ['/k/\u{10000}', '/k/\uffff', '/k/\ue000', '/k/a', '/k/\u{1f600}x', '/k/\u{1f600}', '/k/\ud7ff'],
    ],
  ];
  for (const [name, keys] of cases) {
    it(name, async () => {
      const path = join(root, `store-${keys.length}-${name.length}`);
      const first = await openLmdbStore({ path, noSync: true });
      for (const k of keys) await first.create(k, Buffer.from(k));
      await first.close();
      const store = await openLmdbStore({ path, noSync: true });
      try {
        const listed = (await store.range('/k/')).kvs.map((kv) => kv.key);
        assert.deepEqual(listed, [...keys].sort(byUtf8));
        // A key created after the load is merged in the same order.
        await store.create('/k/\u{10001}', Buffer.from('x'));
        await store.create('/k/0', Buffer.from('x'));
        const again = (await store.range('/k/')).kvs.map((kv) => kv.key);
        assert.deepEqual(again, [...keys, '/k/\u{10001}', '/k/0'].sort(byUtf8));
      } finally {
        await store.close();
      }
    });
  }
});
