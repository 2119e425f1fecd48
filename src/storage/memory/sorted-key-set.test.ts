import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../testing/conformance-helpers.js';
import { prefixEnd, SortedKeySet } from './sorted-key-set.js';

/** Reference: a plain sorted array. */
function rankOf(sorted: string[], key: string): number {
  let n = 0;
  while (n < sorted.length && sorted[n] < key) n++;
  return n;
}

describe('SortedKeySet', () => {
  for (const maxChunk of [2, 4, 512]) {
    it(`agrees with a sorted array under random adds and deletes (chunks of ${maxChunk})`, () => {
      const random = seededRandom(maxChunk);
      const set = new SortedKeySet(maxChunk);
      const reference = new Set<string>();
      const alphabet = ['a', 'b', 'c', '/', '.', '0'];
      const randomKey = () =>
        Array.from(
          { length: 1 + Math.floor(random() * 4) },
          () => alphabet[Math.floor(random() * alphabet.length)],
        ).join('');
      for (let i = 0; i < 3000; i++) {
        const key = randomKey();
        if (random() < 0.6) {
          assert.equal(set.add(key), !reference.has(key), `add ${key}`);
          reference.add(key);
        } else {
          assert.equal(set.delete(key), reference.has(key), `delete ${key}`);
          reference.delete(key);
        }
        const sorted = [...reference].sort();
        const probe = randomKey();
        assert.equal(set.rank(probe), rankOf(sorted, probe), `rank ${probe} after op ${i}`);
        if (i % 50 === 0) {
          assert.equal(set.size, sorted.length);
          assert.deepEqual([...set.iterate('')], sorted);
          const end = prefixEnd(probe);
          const inPrefix = sorted.filter((k) => k.startsWith(probe));
          assert.deepEqual([...set.iterate(probe, end)], inPrefix, `iterate prefix ${probe}`);
          assert.equal(set.countRange(probe, end), inPrefix.length, `countRange prefix ${probe}`);
        }
      }
    });
  }

  it('countRange with no upper bound counts to the end', () => {
    const set = new SortedKeySet(2);
    for (const k of ['a', 'b', 'c', 'd', 'e']) set.add(k);
    assert.equal(set.countRange('b', undefined), 4);
    assert.equal(set.countRange('z', undefined), 0);
    assert.equal(set.countRange('c', 'b'), 0);
  });
});

describe('prefixEnd', () => {
  it('is the smallest string above every string with the prefix', () => {
    assert.equal(prefixEnd('/a/b/'), '/a/b0');
    assert.equal(prefixEnd('a\uffff'), 'b');
    assert.equal(prefixEnd('\uffff'), undefined);
    assert.equal(prefixEnd(''), undefined);
  });
});
