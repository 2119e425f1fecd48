import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeJsonList, encodeJsonListChunks, type JsonPart, partItems } from './json-encode.js';

const head = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '42' } };

/** Items of every part form: text, bytes, bytes with an insertion, bytes written later. */
function parts(count: number, size: number): JsonPart[] {
  const out: JsonPart[] = [];
  for (let i = 0; i < count; i++) {
    const text = `{"n":${i},"pad":"${'x'.repeat(size + (i % 7))}"}`;
    const bytes = Buffer.from(text);
    const form = i % 4;
    if (form === 0) out.push(text);
    else if (form === 1) out.push(bytes);
    else if (form === 2) {
      out.push({ bytes: Buffer.from(text.slice(0, -1)), at: text.length - 1, insert: `,"rv":"${i}"}` });
    } else {
      out.push({ size: bytes.length, writeTo: (buf, at) => at + bytes.copy(buf, at) });
    }
  }
  return out;
}

function joined(chunks: Iterable<Uint8Array>): { bytes: Buffer; sizes: number[] } {
  const list = [...chunks].map((c) => Buffer.from(c));
  return { bytes: Buffer.concat(list), sizes: list.map((c) => c.length) };
}

describe('encodeJsonListChunks', () => {
  const cases: [string, number, number, number][] = [
    // name, items, item size, chunk size
    ['empty list', 0, 10, 64],
    ['one small item', 1, 10, 1 << 20],
    ['many items, one chunk', 50, 20, 1 << 20],
    ['many items, small chunks', 200, 20, 256],
    ['items larger than a chunk', 20, 500, 128],
    ['chunk size of one byte', 5, 3, 1],
    ['close bracket alone in the last chunk', 3, 10, 37],
  ];
  for (const [name, count, size, chunk] of cases) {
    it(`${name}: the same bytes as the one-buffer list, in chunks no larger than needed`, () => {
      const items = parts(count, size);
      const whole = encodeJsonList(head, items, (p) => p as JsonPart);
      const body = encodeJsonListChunks(
        head,
        partItems(items, (p) => p),
        chunk,
      );
      assert.equal(body.size, whole.length);
      const { bytes, sizes } = joined(body.chunks());
      assert.equal(bytes.toString(), whole.toString());
      assert.ok(sizes.every((s) => s > 0));
      // A chunk is the chunk size, or what one piece needs (the opening, or an item and its comma).
      const opening = whole.indexOf('"items":[') + '"items":['.length;
      const largestItem = size + 6 + 64;
      for (const s of sizes) assert.ok(s <= Math.max(chunk, opening, largestItem), `chunk of ${s} bytes`);
      if (whole.length <= chunk) assert.equal(sizes.length, 1);
    });
  }

  it('reads bytes written later only when their chunk is made', () => {
    const reads: number[] = [];
    const items: JsonPart[] = Array.from({ length: 10 }, (_, i) => {
      const bytes = Buffer.from(`{"i":${i}}`);
      return {
        size: bytes.length,
        writeTo: (buf, at) => {
          reads.push(i);
          return at + bytes.copy(buf, at);
        },
      };
    });
    const body = encodeJsonListChunks(
      head,
      partItems(items, (p) => p),
      120,
    );
    assert.deepEqual(reads, []);
    const it = body.chunks()[Symbol.iterator]();
    it.next();
    assert.ok(reads.length > 0 && reads.length < 10, `read ${reads.length} items for the first chunk`);
    while (!it.next().done);
    assert.deepEqual(reads, [...Array(10).keys()]);
  });
});
